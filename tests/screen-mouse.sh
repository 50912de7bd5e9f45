#!/bin/sh
# screen-mouse.sh - the mouse in a real terminal: noughts in tmux, clicks
# sent to the pane as the terminal would send them, and what a person sees
# change on the screen. A click on a panel row selects that row (the tree
# browser opens on it) and marks its move on the board; Enter then goes
# into that move, and the board shows the position there. The clicks go
# both in the encoding TERM names and in the other one (a terminal that
# does not match its TERM), which must never be read as keys ("[" would
# step back in the history). The wheel scrolls the panel.
tmux_name=mouse
. "$(dirname "$0")/tmux.sh"

# click X Y ENCODING: a press and release of the first button at column X,
# row Y (from 1), as SGR (xterm's 1006) or X10 reports.
click() {
	if [ "$3" = sgr ]; then
		tm send-keys -t t -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2")"
	else
		tm send-keys -t t -l "$(printf '\033[M %b%b\033[M#%b%b' \
			"\\0$(printf %o $((32 + $1)))" "\\0$(printf %o $((32 + $2)))" \
			"\\0$(printf %o $((32 + $1)))" "\\0$(printf %o $((32 + $2)))")"
	fi
}

# The screen row (from 1) of the panel's column header, and the move on the
# panel's candidate row K (from 1) below it.
head_row() { screen | grep -n 'move visits' | head -1 | cut -d: -f1; }
row_move() { screen | sed -n "$(($(head_row) + $1))p" | cut -c"$panel_x"- | grep -Eo '[a-i][1-9]' | head -1; }

# cell MOVE: the three characters of MOVE's cell on the (--ascii) board.
cell() {
	letter=$(printf '%s' "$1" | cut -c1)
	x=$(screen | sed -n 2p | awk -v l="$letter" '{ print index($0, " " l " ") + 1 }')
	screen | grep -E "^ +${1#?} [|]" | head -1 | cut -c$((x - 1))-$((x + 1))
}
cell_is() { [ "$(cell "$1")" = "$2" ]; }

start() { # start TERM
	tm kill-session -t t >/dev/null 2>&1
	tm new-session -d -s t -x 120 -y 40 \
		"env TERM=$1 XDG_DATA_HOME='$dir/data' '$NOUGHTS' --ascii --game uttt --o mcts:time=60000"
}

panel_x=42
for enc in sgr x10; do
	for term in screen xterm-256color; do
		start "$term"
		wait_for 'X to move'
		tm send-keys -t t Enter
		wait_for 'O is thinking'
		tm send-keys -t t p
		wait_for 'O is paused'
		wait_until row_move 3 >/dev/null
		move=$(row_move 3)
		other=$(row_move 1)
		y=$(($(head_row) + 3))
		what="TERM=$term, $enc report"
		click $((panel_x + 3)) "$y" "$enc"
		wait_for 'Tree browser' && wait_until cell_is "$move" '[o]'
		check $? "$what: a click on the third row ($move) selects it and marks it [o] on the board"
		[ "$(cell "$other")" != '[o]' ] && screen_lacks 'when X chose'
		check $? "$what: the first row's move ($other) is not marked; no key was read from the click"
		tm send-keys -t t Enter
		wait_for "below $move" && wait_until cell_is "$move" ' O '
		check $? "$what: Enter goes into the clicked row's move: the board shows O on $move"
		if [ "$enc$term" = sgrscreen ]; then
			pv_starts_below() {
				first=$(row_move 1)
				[ -n "$first" ] && screen_has " PV +$first "
			}
			wait_until pv_starts_below
			check $? "$what: the PV is the browsed node's: it starts with its first row ($first)"
		fi
		tm send-keys -t t q
		wait_until screen_lacks 'O is'
	done
done

# The wheel scrolls the panel's rows: 7,7,5 has more candidates than rows.
tm kill-session -t t >/dev/null 2>&1
tm new-session -d -s t -x 80 -y 24 \
	"env XDG_DATA_HOME='$dir/data' '$NOUGHTS' --ascii --game 7,7,5 --o mcts:time=60000"
wait_for 'X to move'
tm send-keys -t t Enter
wait_for 'O is thinking'
tm send-keys -t t p
wait_for '[0-9]+ below \(PgDn\)'
tm send-keys -t t -l "$(printf '\033[<65;50;10M')"
wait_for '3 above, [0-9]+ below'
check $? "the wheel (an SGR report) scrolls the panel down three rows"
tm send-keys -t t -l "$(printf '\033[M%b%b%b' '\0140' '\0122' '\052')"
wait_for '[0-9]+ below \(PgDn\)' && screen_lacks 'above'
check $? "and up again (an X10 report)"
tm send-keys -t t q

echo "1..$n"
[ "$failed" -eq 0 ]
