#!/bin/sh
# screen-sizes.sh - no text on the game screen is cut, at 80x24, 100x30,
# 120x40 and 200x60, for tic-tac-toe, 5,5,4, 8,8,5 and Ultimate, in play,
# engine against engine, the tree browser, the inspector and the help.
#
# A screen is captured at 200x60 first: there every line has room, so its
# words are what the program means to say. The same screen (nothing moves:
# the searches are over, the inspector holds its iteration) is then resized
# to each smaller size, and every line of the title, the panel, the status
# and the keys (the help box's lines in the help) may only hold words in an
# order the wide screen has: each pair of neighbouring words on a line must
# be neighbours in the wide screen's text too. A name, figure or sentence
# cut short ("shar", "1.97 s of 8", "its m") makes a pair the wide screen
# does not have. Bars (runs of '#' once the block characters are folded)
# and the deliberate "..." are left out of the pairs; the rows that say how
# many rows are above and below are checked against their own pattern.
tmux_name=sizes
. "$(dirname "$0")/tmux.sh"


fail() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
	sed 's/^/# /' "$dir/why" 2>/dev/null
	sed 's/^/# /' "$dir/cur"
}

# Every character of more than one byte (lines, blocks, the middle dot)
# becomes '#', so that columns count as bytes.
multi=$(printf '[\302-\337][\200-\277]|[\340-\357][\200-\277][\200-\277]')
screen() { tm capture-pane -p -t t 2>/dev/null | LC_ALL=C sed -E "s/$multi/#/g"; }

# The screen as it stands: two captures a moment apart agree.
settled() {
	screen >"$dir/a"
	sleep 0.1
	screen >"$dir/b"
	cmp -s "$dir/a" "$dir/b"
}

# The text of a capture to check, one line each: the title; the panel's
# lines from its heading's column (the heading "move ... visits" gives it;
# the board is left of it or above it); the last four lines (status and
# keys). In the help (HELP=1): the lines inside its box, between its side
# lines.
text_of() { # FILE HELP
	LC_ALL=C awk -v help="$2" '
	{ line[NR] = $0 }
	END {
		if (help == 1) {
			for (i = 1; i <= NR; i++)
				if (line[i] ~ /# Keys #/) { top = i; break }
			l = index(line[top], "#")
			r = length(line[top])
			while (r > l && substr(line[top], r, 1) != "#")
				r--
			for (i = top + 1; i <= NR; i++) {
				if (substr(line[i], l + 1, 1) == "#")
					break # the bottom side
				print substr(line[i], l + 1, r - l - 1)
			}
			exit
		}
		print "@T " line[1]
		for (i = 1; i <= NR; i++)
			if ((p = index(line[i], "move visits")) > 0 ||
			    (p = index(line[i], "move score")) > 0) { head = i; break }
		if (head > 0)
			for (i = head - 4; i <= NR - 4; i++)
				if (i > 1)
					print substr(line[i], p)
		for (i = NR - 3; i <= NR; i++)
			print line[i]
	}' "$1"
}

# Pairs of neighbouring words, one a line, from text on stdin: bars and
# "..." are left out, a row saying what is above and below is not text.
# The title ("@T ..."), whose parts a narrow screen shortens or leaves out,
# gives its words one by one. STREAM=1: the lines are one text, so that
# the reference holds the pairs that other widths wrap differently.
pairs() {
	LC_ALL=C awk -v stream="${1:-0}" '
	/[0-9]+ (above|below)/ && /\(Pg(Up|Dn)/ { prev = ""; next }
	# The caption of the value graph picks whole forms for its width itself
	# (tests/test-graph.c); at the foot of the panel it is not panel text.
	/(ply |^ *X )[0-9]+\/[0-9]+: / { prev = ""; next }
	$1 == "@T" {
		for (i = 2; i <= NF; i++)
			print "@T " $i
		prev = ""
		next
	}
	{
		if (stream != 1)
			prev = ""
		for (i = 1; i <= NF; i++) {
			w = $i
			if (w !~ /\.\.\.$/)
				sub(/[;,:]$/, "", w) # a part ends there, or a list goes on
			if (w ~ /^[#+]+$/)
				continue # a bar, as long as the panel allows
			if (w == "...") { prev = ""; continue }
			if (prev != "")
				print prev " " w
			prev = w
		}
	}'
}

# check_cut FILE REF HELP: every pair of FILE's text is a pair of REF's,
# every "N above, M below" row is well formed, and (help) no line of the
# box runs into its right side. Writes what is wrong to $dir/why.
check_cut() {
	text_of "$1" "$3" | pairs | sort -u >"$dir/got"
	sort -u "$2" >"$dir/want"
	: >"$dir/why"
	# A spec shortened on purpose ("mcts:time=8000,c=0.4,...") stands for
	# the start of the whole one.
	comm -23 "$dir/got" "$dir/want" | while read -r a b; do
		[ "$a" = "@T" ] && b="(a word of the title)"
		case "$b" in
		*,...) grep -Fq -- "$a ${b%...}" "$dir/want" && continue ;;
		esac
		echo "cut or out of order: '$a $b'" >>"$dir/why"
	done
	text_of "$1" "$3" | grep -E '[0-9]+ (above|below)' | grep -Ev -- '^ *(([0-9]+ above,? ?)?([0-9]+ below ?)?\((PgUp PgDn|PgUp|PgDn)\)|.*Esc closes.*)$' |
		sed 's/^/bad scroll row: /' >>"$dir/why"
	if [ "$3" = 1 ]; then
		text_of "$1" 1 | grep -E '[^ ]$' | sed 's/^/runs into the border: /' >>"$dir/why"
	fi
	[ ! -s "$dir/why" ]
}

sizes="80x24 100x30 120x40"

# resize COLSxROWS: the window to that size, then wait for the screen to
# settle. tmux holds back a pane's resize that comes soon after another
# (the program hears of it up to a quarter of a second later), and until
# then the old screen is as still as a redrawn one: so half a second first.
resize() {
	tm resize-window -t t -x "${1%x*}" -y "${1#*x}"
	sleep 0.5
	wait_until settled
}

# mode NAME HELP: capture the reference at 200x60 (and, in the help, its
# later pages), then check each smaller size against it.
mode() {
	name=$1
	resize 200x60
	screen >"$dir/wide"
	text_of "$dir/wide" "$2" | pairs 1 >"$dir/ref"
	if [ "$2" = 1 ]; then
		for k in 1 2 3 4; do
			tm send-keys -t t NPage
			wait_until settled
			screen >"$dir/page"
			text_of "$dir/page" 1 | pairs 1 >>"$dir/ref"
		done
		tm send-keys -t t PPage PPage PPage PPage
		wait_until settled
	fi
	for size in $sizes; do
		resize "$size"
		screen >"$dir/cur"
		if check_cut "$dir/cur" "$dir/ref" "$2"; then
			pass "$game $name at $size: nothing cut"
		else
			fail "$game $name at $size: nothing cut"
		fi
	done
}

start() {
	tm kill-session -t t >/dev/null 2>&1
	tm new-session -d -s t -x 200 -y 60 "$NOUGHTS $*; sleep 60"
}

for game in ${SCREEN_SIZES_GAMES:-ttt 5,5,4 8,8,5 uttt}; do
	# Engine against engine: the first search done, waiting for 's'.
	start --game "$game" --x mcts:iterations=3000 --o mcts:iterations=3000
	if ! wait_for 'ready: '; then
		screen >"$dir/cur"
		fail "$game: engine against engine gets ready"
		continue
	fi
	mode "engine against engine" 0
	tm send-keys -t t Tab
	wait_for 'Tree browser'
	mode "tree browser" 0
	tm send-keys -t t Tab
	tm send-keys -t t i
	wait_for '4 backup'
	mode "inspector" 0
	tm send-keys -t t Escape
	tm send-keys -t t '?'
	wait_for ' Keys '
	mode "help" 1
	tm send-keys -t t Escape

	# Play: a human's move, the engine's reply, the human to move again.
	start --game "$game" --x human --o mcts:iterations=3000
	wait_for 'X to move'
	tm send-keys -t t Enter
	if ! wait_for 'when O chose'; then
		screen >"$dir/cur"
		fail "$game: the engine replies"
		continue
	fi
	mode "play" 0
done

echo "1..$n"
[ "$failed" -eq 0 ]
