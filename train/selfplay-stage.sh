#!/bin/sh
# selfplay-stage.sh NOUGHTS DIR ENGINE FIRST LAST GAMES [OPTION...]
# Self-play chunks FIRST..LAST of GAMES games each with ENGINE into
# DIR/chunk-K.txt, chunk K with --seed K and the selfplay OPTIONs (such as
# --children 100). A chunk already complete is kept, so a stopped run
# resumes where it was. JOBS (default 1) processes share the chunks, job J
# taking FIRST+J, FIRST+J+JOBS, ... and, with more than one, writing its
# progress line to DIR/job-J.log: a chunk's games depend only on its seed,
# so the files are the same whatever JOBS is.
set -eu
noughts=$1 dir=$2 engine=$3 first=$4 last=$5 games=$6
shift 6
jobs=${JOBS:-1}
case $jobs in
'' | *[!0-9]* | 0)
	echo "selfplay-stage.sh: JOBS must be a number of processes from 1, not '$jobs'" >&2
	exit 2
	;;
esac
mkdir -p "$dir"

# chunks K, K+JOBS, ... up to LAST
worker() {
	k=$1
	shift
	[ "$jobs" -eq 1 ] || exec 2> "$dir/job-$((k - first)).log"
	while [ "$k" -le "$last" ]; do
		out="$dir/chunk-$k.txt"
		if [ ! -s "$out" ]; then
			"$noughts" selfplay --game uttt --tiebreak --engine "$engine" --games "$games" \
				--seed "$k" "$@" > "$out.part"
			mv "$out.part" "$out"
		fi
		k=$((k + jobs))
	done
}

if [ "$jobs" -eq 1 ]; then
	worker "$first" "$@"
	exit 0
fi
# Background jobs of a script ignore ^C, so pass it on: stop each worker's
# noughts (it ends its chunk's .part) and the worker itself.
trap 'for p in $pids; do pkill -TERM -P "$p"; kill "$p"; done 2>/dev/null; exit 130' INT TERM
j=0
pids=
while [ "$j" -lt "$jobs" ]; do
	worker $((first + j)) "$@" &
	pids="$pids $!"
	j=$((j + 1))
done
status=0
for pid in $pids; do
	wait "$pid" || status=1
done
if [ "$status" -ne 0 ]; then
	echo "selfplay-stage.sh: a self-play process failed (see above, or $dir/job-*.log)" >&2
fi
exit "$status"
