#!/bin/sh
# run.sh [STAGE...]: from nothing to the shipped network, train/uttt.bin, and
# the file made from it (tests/data/nnue-expected.txt; make builds the
# network into the program with bin2c.sh).
# Every step has a fixed seed. Run from train/ with noughts built in ..;
# NOUGHTS and PYTHON override the programs; JOBS=N self-plays in N
# processes (the same files). Stages (all by default):
#   1  self-play with playouts (4000 games), train stage1.bin from random weights
#   2  self-play with stage1.bin (2000 games), train stage2.bin from stage1.bin
#      on both stages' positions (3 epochs)
#   3  more self-play with playouts (7900 games), train stage3.bin from random
#      weights on all three stages' positions (8 epochs, weight decay)
#   4  self-play with playouts: 2000 games with --children 100 (each
#      search's other moves too); train stage4.bin from random weights on
#      stage 3's positions and these (8 epochs, weight decay)
#   5  self-play with stage4.bin choosing the moves (1000 iterations) and
#      playouts valuing every position written (--label, 4000 iterations):
#      5000 games with --children 50; train stage5.bin from stage4.bin on
#      stages 3, 4 and 5 (4 epochs, learning rate 1e-3)
#   8  self-play with stage5.bin alone (eval=net, 800 iterations): 100,000
#      games valued by that search and their results; train stage8.bin from
#      stage5.bin on them (3 epochs, learning rate 1e-3). (Stages 6 and 7
#      were experiments not kept: see README.)
#   9  (not run by default, not shipped: better than stage 8 against stage
#      8, not with eval=mix) the same with stage8.bin: 50,000 games; train
#      stage9.bin from stage8.bin on stages 8 and 9
#   10 self-play with stage8.bin alone (eval=net, 800 iterations): 20,000
#      games, every position and child written valued by a short playout
#      search (--label, 64 iterations); train stage10.bin from stage8.bin
#      on them with those values alone as the target (--lam 0, 3 epochs)
#   11 the same round with stage10.bin and deeper games (eval=net, 2000
#      iterations): 6,000 games, 64-iteration labels; train stage11.bin from
#      stage10.bin on stages 10 and 11 (--lam 0, 3 epochs)
#   12 (not run by default; see README) the same round with stage11.bin,
#      12,000 games, each position and child valued by a 1024-iteration
#      playout search (16 times stage 11's); train stage12.bin from
#      stage11.bin on them (--lam 0, 3 epochs)
#   13 (not run by default, not shipped; session 28) stage 11 plays itself
#      with its network alone (800 iterations): 250,000 games (chunks
#      4001-4250) valued by that search and their results; train stage13.bin
#      from stage11.bin on them (3 epochs, learning rate 1e-3)
#   14 (not run by default, not shipped; session 30) the per-cell inputs of
#      format 3 (train.py --features cells): stage11.bin plays itself with
#      its network alone (800 iterations), chunks 5001-5011 of 1000 games,
#      every position and child valued by a 64-iteration playout search;
#      stage14.bin trained from random weights on them (--lam 0, 4 epochs)
#   15 (not run by default, not shipped; session 30) stage 14's round again
#      with stage14.bin playing: chunks 5101-5106 of 1000 games; stage15.bin
#      trained from stage14.bin on stages 14 and 15 (--lam 0, 3 epochs)
#   18 (not run by default; session 37) the search as it plays now orders
#      the games: the built-in network (stage11.bin) with eval=mix and
#      order=net at 4000 iterations, chunks 6001-6020 of 500 games, every
#      position and every child the search visited (--children 1) valued by
#      a 64-iteration playout search; stage18.bin trained from stage11.bin
#      on them (--lam 0, 3 epochs)
#   19 (not run by default; session 38) stage 18's games with labels 16
#      times as deep (1024-iteration playout searches), so that siblings'
#      values differ by more than their noise: chunks 6101-6124 of 250 games;
#      stage19.bin trained from stage11.bin on them (--lam 0, 3 epochs), and
#      stage19r.bin the same with the siblings' listwise loss (--rank 1)
#   20 (not run by default; session 45) stage 10's round from the shipped
#      network (stage11.bin, a copy of uttt.bin) with session 44's playouts
#      labelling: chunks 7001-7020 of 1000 games, 64-iteration labels;
#      stage20.bin trained from stage11.bin (--lam 0, 3 epochs)
#   21 (not run by default; session 45) stage 11's round with stage20.bin:
#      chunks 7101-7112 of 500 games at 2000 iterations; stage21.bin trained
#      from stage20.bin on stages 20 and 21 (--lam 0, 3 epochs)
#   21w (not run by default; session 47) twice the units: stage11.bin
#      widened to 512 (the new units' output weights 0) and trained on
#      stages 20 and 21 (--lam 0, 3 epochs) into stage21w.bin
#   22 (not run by default; session 47) the search as it plays values its
#      own games: stage11.bin (the built-in network) with eval=mix and
#      order=net at 3000 iterations, chunks 8001-8024 of 500 games, every
#      position and every child with 150 visits or more valued by that
#      search itself (no --label); stage22.bin trained from stage11.bin on
#      them (--lam 0, 3 epochs)
#   23 (not run by default, not shipped; session 53) a policy head: the
#      search as it plays (the built-in network, eval=mix, order=net, 4000
#      iterations) writes each position's visits of each move (--visits),
#      chunks 9001-9016 of 500 games; policy.py fits a linear head over
#      stage11.bin's hidden units to the visit shares (--target visits,
#      12 epochs) into policy23.bin
#   24 stage 23's self-play (the same chunks, kept if there), then
#      distil.py: stage11.bin's mean over the board's 8 symmetries, on
#      those positions and their children, into stage24.bin of its shape,
#      trained from stage11.bin (3 epochs, learning rate 1e-3)
#   testnet  the small format 3 network of tests/test-nnue.c
#      (tests/data/nnue-cells.bin, 32 units, one epoch on stage 14's first
#      chunk) and its expected numbers
#   ship  the newest network of the default stages (stage24.bin, else the
#      one before) becomes uttt.bin
# Every search of a network here says order=fixed: these stages were made
# before order=net (session 33), which eval=net now takes by default.
# Data go to data/ (not in git); a self-play chunk already written is kept,
# so an interrupted run resumes. See README for the time each stage took.
set -eu
cd "$(dirname "$0")"
NOUGHTS=${NOUGHTS:-../noughts}
PYTHON=${PYTHON:-python3}
stages=${*:-1 2 3 4 5 8 10 11 24 ship}

# own_round FROM TO FIRST LAST [DATA...]: stageFROM.bin plays itself with
# its network alone (800 iterations), chunks FIRST..LAST of 1000 games into
# data/stageTO; then stageTO.bin is trained from it on those and DATA.
own_round() {
	from=$1 to=$2 first=$3 last=$4
	shift 4
	./selfplay-stage.sh "$NOUGHTS" "data/stage$to" \
		"mcts:iterations=800,eval=net,net=stage$from.bin,order=fixed,threads=1" "$first" "$last" 1000
	"$PYTHON" train.py --out "stage$to.bin" --init "stage$from.bin" --seed "$to" --epochs 3 \
		--lr 1e-3 "$@" data/stage"$to"/chunk-*.txt
}

# label_round FROM TO FIRST LAST GAMES ITERATIONS LABEL SEED [DATA...]:
# stageFROM.bin plays itself with its network alone (ITERATIONS a move),
# chunks FIRST..LAST of GAMES games into data/stageTO, every position and
# child valued by a LABEL-iteration playout search; then stageTO.bin is
# trained from stageFROM.bin on DATA and those, with the labels alone as
# the target.
label_round() {
	from=$1 to=$2 first=$3 last=$4 games=$5 iterations=$6 label=$7 seed=$8
	shift 8
	./selfplay-stage.sh "$NOUGHTS" "data/stage$to" \
		"mcts:iterations=$iterations,eval=net,net=stage$from.bin,order=fixed,threads=1" "$first" "$last" \
		"$games" --label "mcts:iterations=$label,threads=1,eval=rollout" --children 50
	"$PYTHON" train.py --out "stage$to.bin" --init "stage$from.bin" --seed "$seed" --epochs 3 \
		--lr 1e-3 --lam 0 "$@" data/stage"$to"/chunk-*.txt
}

# order_round TO FIRST LAST GAMES LABEL: the search as it plays now
# (eval=mix, order=net, 4000 iterations) with stage11.bin, chunks FIRST..LAST
# of GAMES games into data/stageTO, every position and every child it
# visited valued by a LABEL-iteration playout search; stageTO.bin trained
# from stage11.bin on them with the labels alone as the target.
order_round() {
	to=$1 first=$2 last=$3 games=$4 label=$5
	./selfplay-stage.sh "$NOUGHTS" "data/stage$to" \
		"mcts:iterations=4000,eval=mix,net=stage11.bin,order=net,threads=1" "$first" "$last" \
		"$games" --label "mcts:iterations=$label,threads=1,eval=rollout" --children 1
	"$PYTHON" train.py --out "stage$to.bin" --init stage11.bin --seed "$to" --epochs 3 \
		--lr 1e-3 --lam 0 data/stage"$to"/chunk-*.txt
}

# stage23_games: the search as it plays with stage11.bin (eval=mix,
# order=net, 4000 iterations), chunks 9001-9016 of 500 games with each
# position's visits of each move; stages 23 and 24 read them.
stage23_games() {
	./selfplay-stage.sh "$NOUGHTS" data/stage23 \
		"mcts:iterations=4000,eval=mix,net=stage11.bin,order=net,threads=1" \
		9001 9016 500 --visits
}

# stage11: the network the stages after 11 start from: the stage11.bin
# stage 11 wrote, else the copy kept in git (stage11.bin; uttt.bin was
# stage 11 until session 55 shipped stage 24).
stage11() {
	[ -f stage11.bin ] || { echo "run.sh: stage11.bin is missing (git checkout it, or run stage 11)" >&2; exit 1; }
}

for stage in $stages; do
	case $stage in
	12 | 13 | 14 | 18 | 19 | 20 | 21w | 22 | 23 | 24) stage11 ;;
	esac
	case $stage in
	1)
		./selfplay-stage.sh "$NOUGHTS" data/stage1 mcts:iterations=4000,eval=rollout 1 40 100
		"$PYTHON" train.py --out stage1.bin --seed 1 --epochs 10 data/stage1/chunk-*.txt
		;;
	2)
		./selfplay-stage.sh "$NOUGHTS" data/stage2 \
			"mcts:iterations=1500,c=0.4,eval=net,net=stage1.bin,order=fixed" 101 120 100
		"$PYTHON" train.py --out stage2.bin --init stage1.bin --seed 2 --epochs 3 \
			--lr 1e-3 data/stage1/chunk-*.txt data/stage2/chunk-*.txt
		;;
	3)
		./selfplay-stage.sh "$NOUGHTS" data/stage3 mcts:iterations=4000,threads=1,eval=rollout 201 279 100
		"$PYTHON" train.py --out stage3.bin --seed 3 --epochs 8 --wd 1e-4 \
			data/stage1/chunk-*.txt data/stage2/chunk-*.txt data/stage3/chunk-*.txt
		;;
	4)
		./selfplay-stage.sh "$NOUGHTS" data/stage3 mcts:iterations=4000,threads=1,eval=rollout 201 279 100
		./selfplay-stage.sh "$NOUGHTS" data/stage4 mcts:iterations=4000,threads=1,eval=rollout 501 520 100 \
			--children 100
		"$PYTHON" train.py --out stage4.bin --seed 4 --epochs 8 --wd 1e-4 \
			data/stage3/chunk-*.txt data/stage4/chunk-*.txt
		;;
	5)
		./selfplay-stage.sh "$NOUGHTS" data/stage5 \
			"mcts:iterations=1000,c=0.4,eval=net,net=stage4.bin,order=fixed,threads=1" 601 700 50 \
			--label mcts:iterations=4000,threads=1,eval=rollout --children 50
		"$PYTHON" train.py --out stage5.bin --init stage4.bin --seed 5 --epochs 4 \
			--lr 1e-3 data/stage3/chunk-*.txt data/stage4/chunk-*.txt data/stage5/chunk-*.txt
		;;
	8)
		own_round 5 8 2001 2100
		;;
	9)
		own_round 8 9 2101 2150 data/stage8/chunk-*.txt
		;;
	10)
		label_round 8 10 3001 3020 1000 800 64 21
		;;
	11)
		label_round 10 11 3201 3212 500 2000 64 23 data/stage10/chunk-*.txt
		;;
	12)
		label_round 11 12 3301 3324 500 2000 1024 25
		;;
	13)
		own_round 11 13 4001 4250
		;;
	14)
		./selfplay-stage.sh "$NOUGHTS" data/stage14 \
			"mcts:iterations=800,eval=net,net=stage11.bin,order=fixed,threads=1" 5001 5011 1000 \
			--label "mcts:iterations=64,threads=1,eval=rollout" --children 50
		"$PYTHON" train.py --out stage14.bin --features cells --seed 14 --epochs 4 --lam 0 \
			data/stage14/chunk-*.txt
		;;
	15)
		./selfplay-stage.sh "$NOUGHTS" data/stage15 \
			"mcts:iterations=800,eval=net,net=stage14.bin,order=fixed,threads=1" 5101 5106 1000 \
			--label "mcts:iterations=64,threads=1,eval=rollout" --children 50
		"$PYTHON" train.py --out stage15.bin --init stage14.bin --seed 15 --epochs 3 \
			--lr 1e-3 --lam 0 data/stage14/chunk-*.txt data/stage15/chunk-*.txt
		;;
	18)
		order_round 18 6001 6020 500 64
		;;
	19)
		order_round 19 6101 6124 250 1024
		"$PYTHON" train.py --out stage19r.bin --init stage11.bin --seed 19 --epochs 3 \
			--lr 1e-3 --lam 0 --rank 1 data/stage19/chunk-*.txt
		;;
	20)
		# session 45: stage 10's round again from the shipped network with
		# the playouts of session 44 (smart_cells()) labelling
		label_round 11 20 7001 7020 1000 800 64 20
		;;
	21)
		# and stage 11's: stage 20 plays deeper games
		label_round 20 21 7101 7112 500 2000 64 22 data/stage20/chunk-*.txt
		;;
	21w)
		"$PYTHON" train.py --out stage21w.bin --init stage11.bin --hidden 512 --seed 47 \
			--epochs 3 --lr 1e-3 --lam 0 data/stage20/chunk-*.txt data/stage21/chunk-*.txt
		;;
	23)
		stage23_games
		"$PYTHON" policy.py --net stage11.bin --target visits --epochs 12 --lr 5e-3 \
			--out policy23.bin data/stage23/chunk-*.txt
		;;
	22)
		./selfplay-stage.sh "$NOUGHTS" data/stage22 \
			"mcts:iterations=3000,eval=mix,net=stage11.bin,order=net,threads=1" 8001 8024 500 \
			--children 150
		"$PYTHON" train.py --out stage22.bin --init stage11.bin --seed 22 --epochs 3 \
			--lr 1e-3 --lam 0 data/stage22/chunk-*.txt
		;;
	24)
		stage23_games
		"$PYTHON" distil.py --net stage11.bin --out stage24.bin --seed 1 --epochs 3 --lr 1e-3 \
			data/stage23/chunk-*.txt
		;;
	testnet)
		"$PYTHON" train.py --out ../tests/data/nnue-cells.bin --features cells --hidden 32 \
			--seed 3 --epochs 1 --lam 0 data/stage14/chunk-5001.txt
		"$PYTHON" expected.py ../tests/data/nnue-cells.bin ../tests/data/nnue-cells-expected.txt
		;;
	ship)
		for net in stage24.bin stage11.bin stage10.bin stage8.bin stage5.bin stage4.bin stage3.bin stage2.bin stage1.bin; do
			[ -f "$net" ] && break
		done
		cp "$net" uttt.bin
		"$PYTHON" expected.py uttt.bin ../tests/data/nnue-expected.txt
		;;
	*)
		echo "run.sh: unknown stage '$stage' (1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21, 21w, 22, 23, 24, testnet, ship)" >&2
		exit 2
		;;
	esac
done
