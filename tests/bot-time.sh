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
# /proc/pressure/cpu: near 0 with only the busy loop and the bot). Beside
# them tests/stall-watch (built by make check; real-time where it may be)
# notes when a processor stopped and when the host paged memory in, and
# each late answer is printed with how much of it a processor was stopped
# and how many such page faults ended meanwhile: an answer late only by a
# stop was late whatever the bot did. NOUGHTS, REFEREE, STALL_WATCH, DEADLINE and
# OVERHEAD (the bot's --deadline and --overhead, default its own) override
# the defaults.
set -eu
here=$(dirname "$0")
turns=${1:-2000}
noughts=${NOUGHTS:-$here/../noughts}
referee=${REFEREE:-$here/referee}
watch=${STALL_WATCH:-$here/stall-watch}
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
tmp=$(mktemp -d)
: >"$tmp/stalls"
(while :; do :; done) &
busy=$!
watcher=
trap 'kill "$busy" $watcher 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT PIPE TERM
if [ -x "$watch" ]; then
	"$watch" 5 >"$tmp/stalls" &
	watcher=$!
fi
before=$(stall)
out=$("$referee" -t -g uttt -n "$games" -s 1 \
	"$noughts bot --game uttt${DEADLINE:+ --deadline $DEADLINE}${OVERHEAD:+ --overhead $OVERHEAD}" random \
	2>"$tmp/late") || true
after=$(stall)
if [ -n "$watcher" ]; then
	kill -TERM "$watcher"
	wait "$watcher" || true
	watcher=
fi
printf '%s\n' "$out" | grep '^# A'
# Each late answer (stderr) with the stalls inside it: the referee's
# "# game G: answer N of bot A took MS ms (asked at T s, ...)" against
# stall-watch's "# stall: cpu C, FROM to TO s (...), MS ms" and "# hyp: T
# s (...), N more ...". Which processor the bot was on is not known: the
# longest stall inside the answer on any one processor is given, and the
# asynchronous page faults that ended during it (any process's).
if [ -s "$tmp/stalls" ] || [ -s "$tmp/late" ]; then
	awk 'FILENAME == ARGV[1] {
		if ($2 == "stall:") { c = $4; sub(/,$/, "", c); cpu[n] = c; from[n] = $5; to[n] = $7; n++ }
		if ($2 == "hyp:") { hat[nh] = $3; hn[nh] = $6; nh++ }
		next
	     }
	     / took / {
		for (i = 1; i <= NF; i++) {
			if ($i == "took") ms = $(i + 1)
			if ($i == "at") t = $(i + 1)
		}
		split("", on)
		for (k = 0; k < n; k++) {
			a = from[k] > t ? from[k] : t
			b = to[k] < t + ms / 1000 ? to[k] : t + ms / 1000
			if (b > a) on[cpu[k]] += (b - a) * 1000
		}
		most = 0; which = ""
		for (c in on) if (on[c] > most) { most = on[c]; which = c }
		# (read every 10 ms: a callback shows up to 10 ms after it came)
		pf = 0
		for (k = 0; k < nh; k++) if (hat[k] >= t && hat[k] <= t + ms / 1000 + 0.01) pf += hn[k]
		sub(/ \(asked at .*/, "")
		if (!have) { printf "%s (no stall-watch)\n", $0; next }
		if (most > 0) printf "%s; cpu %s stopped %.1f ms of it", $0, which, most
		else printf "%s; no processor stopped meanwhile", $0
		if (pf > 0) printf "; %d asynchronous page faults ended meanwhile\n", pf
		else printf "; no asynchronous page fault\n"
	     }' have="$([ -s "$tmp/stalls" ] && echo 1)" "$tmp/stalls" "$tmp/late" >&2
	grep '^# stall-watch' "$tmp/stalls" || true
fi
n=$(printf '%s\n' "$out" | sed -n "s/^# A's \([0-9]*\) later answers.*/\1/p")
echo "# $games games against a random mover, one core kept busy"
printf '%s %s\n' "$before" "$after" | tr '\n' ' ' | awk '$1 != "-" && $3 != "-" {
	printf "# some task waited for a CPU %.1f%% of the run (/proc/pressure/cpu); load average %s\n",
	       100 * ($3 - $1) / ($4 - $2), load }' load="$(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${n:-0}" -lt "$turns" ]; then
	echo "bot-time.sh: only ${n:-0} later answers, fewer than $turns" >&2
	exit 1
fi
