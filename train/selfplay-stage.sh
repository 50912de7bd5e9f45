#!/bin/sh
# selfplay-stage.sh NOUGHTS DIR ENGINE FIRST LAST GAMES [OPTION...]
# Self-play chunks FIRST..LAST of GAMES games each with ENGINE into
# DIR/chunk-K.txt, chunk K with --seed K and the selfplay OPTIONs (such as
# --children 100). A chunk already complete is kept, so a stopped run
# resumes where it was.
set -eu
noughts=$1 dir=$2 engine=$3 first=$4 last=$5 games=$6
shift 6
mkdir -p "$dir"
k=$first
while [ "$k" -le "$last" ]; do
	out="$dir/chunk-$k.txt"
	if [ ! -s "$out" ]; then
		"$noughts" selfplay --game uttt --tiebreak --engine "$engine" --games "$games" \
			--seed "$k" "$@" > "$out.part"
		mv "$out.part" "$out"
	fi
	k=$((k + 1))
done
