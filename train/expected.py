#!/usr/bin/env python3
"""expected.py NETWORK.bin OUT: the trainer's forward pass on a fixed set
of positions, for tests/test-nnue.c to compare with the C evaluator.

Each line of OUT: the moves from the start (move text, a space between),
a tab, the integer output of the network for the side to move (exact:
the C evaluator must give the same), a tab, and the value of the float
network (the C value must be within quantisation error of it)."""
import random
import sys

import numpy as np

import train
import uttt


def positions(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = uttt.Game()
        moves = []
        stop = rng.randrange(0, 70)
        while g.result is None and len(moves) < stop:
            m = rng.choice(g.legal())
            g.play(m)
            moves.append(m)
        if g.result is None:
            out.append((moves, g))
    return out


def main():
    net = train.Net.load(sys.argv[1])
    rows = positions(60, 2026)
    cells = np.array([g.cells for _, g in rows], np.uint8)
    last = np.array([g.last for _, g in rows])
    turn = np.array([g.turn for _, g in rows])
    x = net.fs.compute(cells, last, turn)
    xs, xo = net.fs.dense(x, 0), net.fs.dense(x, 1)
    zi = net.forward_int(xs, xo)
    z, _ = net.forward(xs, xo)
    with open(sys.argv[2], "w") as f:
        f.write("# written by train/expected.py from %s: moves, integer output, "
                "float value (do not edit)\n" % sys.argv[1].split("/")[-1])
        for (moves, _), a, b in zip(rows, zi, z):
            f.write("%s\t%d\t%.6f\n" % (" ".join(uttt.move_name(m) for m in moves), a,
                                        train.sigmoid(float(b))))


if __name__ == "__main__":
    main()
