# tmux.sh - sourced by the tests that drive the game screen in tmux, after
# setting tmux_name: skips the test where tmux is missing; otherwise a
# private tmux server (the caller's own TMUX ignored) in the C.UTF-8
# locale, tm() to talk to it, a scratch directory $dir, both removed on
# exit, WAIT, the seconds a wait may take (sanitizer builds are slow), and
# the waits: wait_until COMMAND... (until it succeeds), screen_has REGEX,
# wait_for REGEX (until the screen matches). screen() prints the pane; a
# test may define its own after sourcing this. TAP: n counts the tests,
# failed the failures; pass, fail and check (below).
: "${NOUGHTS:?NOUGHTS must name the program under test}"

if ! command -v tmux >/dev/null 2>&1; then
	echo "1..0 # SKIP no tmux"
	exit 0
fi

unset TMUX
# The same screen whatever the caller's locale: C.UTF-8 is built into glibc.
LC_ALL=C.UTF-8
export LC_ALL
sock="noughts-$tmux_name-$$"
dir=$(mktemp -d)
tm() { tmux -u -L "$sock" -f /dev/null "$@"; }
cleanup() {
	tm kill-server >/dev/null 2>&1
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# The server stays up between sessions, so a new one never races its exit.
tm start-server \; set -g exit-empty off
WAIT=${SCREEN_TEST_WAIT:-15}

screen() { tm capture-pane -p -t t 2>/dev/null; }
wait_until() {
	i=0
	while [ "$i" -lt $((WAIT * 10)) ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
screen_has() { screen | grep -Eq -- "$1"; }
wait_for() { wait_until screen_has "$1"; }

n=0
failed=0
pass() { n=$((n + 1)); echo "ok $n - $*"; }
# fail DESCRIPTION: a failure, with the screen as it was (a test may define
# its own, to show what else it needs); check STATUS DESCRIPTION: pass or
# fail on a command's status; screen_lacks REGEX.
fail() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
	screen | sed 's/^/# /'
}
check() { if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; fi; }
screen_lacks() { ! screen_has "$1"; }
