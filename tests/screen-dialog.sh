#!/bin/sh
# screen-dialog.sh - the new-game dialog in a real terminal: noughts in
# tmux, keys typed into its fields, and what a person sees: the command
# line's error under the fields for what `noughts play` would refuse (the
# dialog open, the screen whole), and the game it starts otherwise.
tmux_name=dialog
. "$(dirname "$0")/tmux.sh"

# field NAME: the text shown in the dialog's field NAME ("< ... >").
field() { screen | grep -Eo "$1 +< [^>]*>" | head -1 | sed -E 's/^[A-Za-z]+ +< (.*) >$/\1/; s/_$//'; }
field_is() { [ "$(field "$1")" = "$2" ]; }
# retype N TEXT: the Nth field (from Game, 0) made TEXT, as a person types.
retype() {
	tm send-keys -t t Up Up Up Up Up Up
	i=0
	while [ "$i" -lt "$1" ]; do
		tm send-keys -t t Down
		i=$((i + 1))
	done
	tm send-keys -t t C-u
	[ -n "$2" ] && tm send-keys -t t -l "$2"
}

tm new-session -d -s t -x 100 -y 30 \
	"env XDG_DATA_HOME='$dir/data' '$NOUGHTS' --game uttt --o mcts:time=3000; sleep 60"
wait_for 'X to move'
tm send-keys -t t n
wait_for 'Delay +<' && field_is Game uttt && field_is Budget time=3000 && field_is Delay 700
check $? "n opens the dialog with the game of now (uttt, budget time=3000, delay 700)"

retype 0 9,9,5
tm send-keys -t t Enter
wait_for 'the board must be 3 to 21 cells a side' && screen_has 'Delay +<' &&
	screen_has '^ noughts +Ultimate'
check $? "9,9,5: the command line's error under the fields; the dialog and the screen stay"

retype 0 8,8,9
tm send-keys -t t Enter
wait_for 'K must be from 3 to 8 on a 8x8 board'
check $? "8,8,9: K larger than both sides is refused in words"

retype 0 5,5,4
retype 1 tiebreak
tm send-keys -t t Enter
wait_for 'rules of uttt only'
check $? "a rule option of uttt on 5,5,4: refused"

retype 1 none
retype 4 quick
tm send-keys -t t Enter
wait_for "Budget: 'quick' is no budget"
check $? "a budget that is no budget: refused, with the budgets accepted"

retype 0 7,7,5
retype 4 iterations=300
retype 5 1500
tm send-keys -t t Enter
wait_until screen_lacks 'Delay +<' && wait_for '7,7,5: 5 in a row on 7x7' &&
	screen_has 'O mcts 300 iterations'
check $? "Enter starts 7,7,5 against mcts with the budget typed (300 iterations)"
tm send-keys -t t Enter
wait_for 'when O chose'
check $? "X plays, and O replies"
tm send-keys -t t n
wait_for 'Delay +<' && field_is Game 7,7,5 && field_is Delay 1500 && field_is Budget iterations=300
check $? "the dialog opens again with 7,7,5, the budget and the delay"
tm send-keys -t t Escape
wait_until screen_lacks 'Delay +<'
check $? "Escape closes it"

echo "1..$n"
[ "$failed" -eq 0 ]
