#!/bin/sh
# bot-time.sh [TURNS] - how well `noughts bot --game uttt` keeps its
# deadline: games against a random mover under the referee (tests/referee,
# built by make check) until the bot has answered at least TURNS (default
# 2000) turns after its first, while another process keeps one core busy.
# Prints the referee's summary: the slowest first and later answers and the
# 99th and 99.9th percentiles of the later ones (limits 1000 and 100 ms);
# every answer over its limit is listed on stderr.
#
# A measurement, not a test: make check does not run it, since a machine
# busy with other work delays any answer. Run it on an otherwise idle
# machine from the build directory; it says how busy the machine was (the
# share of the run some task waited for a CPU, from Linux's
# /proc/pressure/cpu: near 0 with only the busy loop and the bot). NOUGHTS,
# REFEREE, DEADLINE and OVERHEAD (the bot's --deadline and --overhead,
# default its own) override the defaults.
set -eu
here=$(dirname "$0")
turns=${1:-2000}
noughts=${NOUGHTS:-$here/../noughts}
referee=${REFEREE:-$here/referee}
case $turns in
'' | *[!0-9]*) echo "bot-time.sh: TURNS must be a number, not '$turns'" >&2; exit 2 ;;
esac
for f in "$noughts" "$referee"; do
	[ -x "$f" ] || { echo "bot-time.sh: $f is not built (make check builds the referee)" >&2; exit 2; }
done
# Against a random mover the bot answers 17 to 25 later turns a game.
games=$((turns / 15 + 1))
# Microseconds some task has waited for a CPU since boot, and now's
# monotonic time in microseconds ("-" where Linux does not say).
stall() {
	sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/cpu 2>/dev/null | grep . || echo -
	awk '{ printf "%.0f\n", $1 * 1e6 }' /proc/uptime
}
(while :; do :; done) &
busy=$!
trap 'kill "$busy" 2>/dev/null' EXIT
trap 'exit 1' INT TERM
before=$(stall)
out=$("$referee" -t -g uttt -n "$games" -s 1 \
	"$noughts bot --game uttt${DEADLINE:+ --deadline $DEADLINE}${OVERHEAD:+ --overhead $OVERHEAD}" random) || true
after=$(stall)
printf '%s\n' "$out" | grep '^# A'
n=$(printf '%s\n' "$out" | sed -n "s/^# A's \([0-9]*\) later answers.*/\1/p")
echo "# $games games against a random mover, one core kept busy"
printf '%s %s\n' "$before" "$after" | tr '\n' ' ' | awk '$1 != "-" && $3 != "-" {
	printf "# some task waited for a CPU %.1f%% of the run (/proc/pressure/cpu); load average %s\n",
	       100 * ($3 - $1) / ($4 - $2), load }' load="$(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${n:-0}" -lt "$turns" ]; then
	echo "bot-time.sh: only ${n:-0} later answers, fewer than $turns" >&2
	exit 1
fi
