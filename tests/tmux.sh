# tmux.sh - sourced by the tests that drive the game screen in tmux, after
# setting tmux_name: skips the test where tmux is missing; otherwise a
# private tmux server (the caller's own TMUX ignored) in the C.UTF-8
# locale, tm() to talk to it, a scratch directory $dir, both removed on
# exit, and WAIT, the seconds a wait may take (sanitizer builds are slow).
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
