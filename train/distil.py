#!/usr/bin/env python3
"""Distil a network's mean over the board's 8 symmetries into a network
of its own shape (session 55; train/README).

    distil.py --net NET --out FILE [--epochs E] [--lr R] [--seed S] DATA_FILE...

The teacher is NET evaluated on the 8 transformations of a position, its
logits averaged: trained with the symmetries drawn at random, NET still
values the views of one position differently (the mean spread of the 8
logits is about a third of their size), and the mean is closer to the
searches' values than any one view. The student starts from NET and is
trained on the teacher's values of the files' positions and of every
position one move from them that is not over (those the search asks the
network about), so that one evaluation gives what eight did. No labels of
the files are read: the values are the teacher's."""
import argparse
import sys
import time

import numpy as np

import uttt
from train import Net, bce, logits, sigmoid, train


def teacher(net, x):
    """The mean over the 8 symmetries of NET's float logits of X."""
    z = np.zeros(len(x), np.float64)
    for perm in net.fs.syms:
        z += logits(net, x, chunk=262144, perm=perm)
    return z / len(net.fs.syms)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--net", required=True, help="the teacher, and the student's start")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    t0 = time.time()
    cells, last, turn, _, _ = uttt.read_selfplay(args.data)
    kc, kl, kt = uttt.children(cells, last, turn)
    keep, kkeep = ~uttt.over(cells, last), ~uttt.over(kc, kl)
    cells = np.concatenate([cells[keep], kc[kkeep]])
    last = np.concatenate([last[keep], kl[kkeep]])
    turn = np.concatenate([turn[keep], kt[kkeep]])
    net = Net.load(args.net)
    x = net.fs.compute(cells, last, turn)
    t = sigmoid(teacher(net, x)).astype(np.float32)
    log(f"{len(t)} positions (the files' and their children), the teacher's values in "
        f"{time.time() - t0:.0f} s")
    rng = np.random.default_rng(args.seed)
    held = rng.random(len(t)) < 0.04
    val, tr = np.flatnonzero(held), np.flatnonzero(~held)
    log(f"validation loss against the teacher: {bce(sigmoid(logits(net, x[val])), t[val]):.5f} "
        f"before, {bce(t[val], t[val]):.5f} the least possible")
    train(net, x[tr], t[tr], x[val], t[val], args.epochs, 2048, args.lr, 0.0, rng, log)
    log(f"validation loss with integer weights: "
        f"{bce(sigmoid(logits(net, x[val], integer=True)), t[val]):.5f}")
    net.save(args.out)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
