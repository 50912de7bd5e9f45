#!/bin/sh
# monkey.sh - random keys, mouse clicks and resizes, from 1x1 to 200x60, sent
# to the real game screen in tmux, in several modes. Fails on a crash, a
# hang (the program no longer quits on q) or a sanitizer report. The events
# come from a fixed seed; MONKEY_EVENTS sets how many per mode (CI's
# sanitizer pass sends more).
tmux_name=monkey
. "$(dirname "$0")/tmux.sh"
EVENTS=${MONKEY_EVENTS:-100}

fail() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
	tm capture-pane -p -t t 2>/dev/null | sed 's/^/# /'
	sed 's/^/# stderr: /' "$dir/stderr" 2>/dev/null | head -40
}

# start ARGS: noughts in a fresh 100x30 window, its stderr kept in a file,
# "EXIT=status" printed when it ends.
start() {
	args=""
	for a in "$@"; do
		args="$args '$a'"
	done
	tm kill-session -t t >/dev/null 2>&1
	tm new-session -d -s t -x 100 -y 30 "env PS1='$ ' sh"
	tm send-keys -t t "clear; XDG_DATA_HOME='$dir/data' '$NOUGHTS' $args 2>>'$dir/stderr'; echo EXIT=\$?" Enter
}

# events SEED: the random events of one mode, one a line: "key K", "mouse
# COL ROW", "resize W H"
events() {
	awk -v seed="$1" -v n="$EVENTS" 'BEGIN {
		srand(seed)
		split("Up Down Left Right Enter Space Tab Escape BSpace PageUp PageDown Home End " \
		      "p m s a u n t v i w ? [ ] h j k l 1 2 3 x y", keys, " ")
		nk = 0; for (k in keys) nk++
		for (e = 0; e < n; e++) {
			r = rand()
			if (r < 0.80) print "key " keys[1 + int(rand() * nk)]
			else if (r < 0.93) print "mouse " 1 + int(rand() * 100) " " 1 + int(rand() * 30)
			else if (rand() < 0.25) print "resize " 1 + int(rand() * 20) " " 1 + int(rand() * 8)
			else print "resize " 20 + int(rand() * 181) " " 8 + int(rand() * 53)
		}
	}'
}

# monkey NAME SEED ARGS...: one mode
monkey() {
	name=$1
	seed=$2
	shift 2
	: >"$dir/stderr"
	start "$@"
	if ! wait_for 'to move|thinking|step'; then
		fail "$name: the screen opens"
		return
	fi
	quits=0
	events "$seed" >"$dir/events"
	while read -r kind a b; do
		case $kind in
		key) tm send-keys -t t "$a" ;;
		# an SGR mouse press and release, as xterm sends them
		mouse) tm send-keys -t t -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$a" "$b" "$a" "$b")" ;;
		resize) tm resize-window -t t -x "$a" -y "$b" ;;
		esac
		# y answers a question the game asks (quit or rewrite history); if
		# it did quit, the monkey starts it again
		if screen_has 'EXIT=[0-9]'; then
			if ! screen_has 'EXIT=0'; then
				fail "$name: exited with $(tm capture-pane -p -t t | grep -o 'EXIT=[0-9]*') after $kind $a $b"
				return
			fi
			quits=$((quits + 1))
			start "$@"
			wait_for 'to move|thinking|step' || { fail "$name: restarts"; return; }
		fi
	done <"$dir/events"
	tm resize-window -t t -x 100 -y 30
	tm send-keys -t t Escape Escape q
	# a question may stand between q and the end (y answers it); the
	# program may just be slow to save and go (a sanitizer build)
	i=0
	while [ "$i" -lt 30 ] && ! screen_has 'EXIT=[0-9]'; do
		sleep 0.1
		i=$((i + 1))
	done
	screen_has 'EXIT=[0-9]' || tm send-keys -t t y
	if wait_for 'EXIT=0'; then
		pass "$name: $EVENTS random events ($quits quits), then q quits with status 0"
	else
		fail "$name: $EVENTS random events, then q does not end it with status 0 (a hang?)"
	fi
	if grep -Eq 'Sanitizer|runtime error|Assertion' "$dir/stderr"; then
		fail "$name: a sanitizer or assertion report"
	else
		pass "$name: nothing on stderr from a sanitizer or an assertion"
	fi
}

monkey "tic-tac-toe, human against mcts" 1 play
monkey "uttt, engine against engine" 2 --game uttt --x mcts:iterations=3000 --o mcts:iterations=3000
monkey "5,5,4 against negamax" 3 --game 5,5,4 --o negamax:time=300
monkey "uttt, two humans" 4 --game uttt --x human --o human

echo "1..$n"
[ "$failed" -eq 0 ]
