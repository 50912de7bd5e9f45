#!/bin/sh
# soak.sh - 1,000 quick games of each kind of game, for a build under the
# sanitizers: every match must finish cleanly; prints each one's peak
# resident size. Not part of make check (it takes minutes):
#   ./configure --enable-sanitizers && make && NOUGHTS=./noughts tests/soak.sh [GAMES]
: "${NOUGHTS:=./noughts}"
games=${1:-1000}
status=0
for args in "--game ttt" "--game 4,4,3" "--game 5,4,4" "--game 7,6,4" "--game 8,8,5" \
	"--game uttt" "--game uttt --tiebreak" "--game uttt --open-won-boards"; do
	start=$(date +%s)
	# shellcheck disable=SC2086
	/usr/bin/time -o /tmp/soak.$$ -f '%M' "$NOUGHTS" match mcts:iterations=64,memory=8 \
		random:seed=2 $args --games "$games" --json >/dev/null 2>/tmp/soak-err.$$
	rc=$?
	out=$(tail -n 1 /tmp/soak.$$)
	grep -q 'runtime error\|AddressSanitizer' /tmp/soak-err.$$ && rc=99
	[ "$rc" -eq 0 ] || status=1
	printf '%-32s status %d, peak RSS %s KiB, %d s\n' "$args" "$rc" "$out" $(( $(date +%s) - start ))
done
rm -f /tmp/soak.$$ /tmp/soak-err.$$
exit $status
