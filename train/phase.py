#!/usr/bin/env python3
"""How far a network's values are from the labels of selfplay files, by
how many marks the board has: where in the game it errs.

    phase.py NET DATA_FILE...

For each band of 8 marks: the lines, the root mean square difference
between the network's value (its integer output, as src/nnue.c computes
it) and the label, their mean difference, the labels' standard deviation
and the correlation of the two.
"""
import sys

import numpy as np

import uttt
from train import Net, logits, sigmoid


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: phase.py NET DATA_FILE...")
    net = Net.load(sys.argv[1])
    cells, last, turn, value, _ = uttt.read_selfplay(sys.argv[2:])
    p = sigmoid(logits(net, net.fs.compute(cells, last, turn), integer=True))
    marks = (cells != 0).sum(axis=1)
    print("marks  lines    rmse    bias   label sd  corr")
    for lo in range(0, 81, 8):
        m = (marks >= lo) & (marks < lo + 8)
        if m.sum() < 100:
            continue
        d = p[m] - value[m]
        print(f"{lo:2d}-{lo + 7:2d} {m.sum():7d}  {np.sqrt(np.mean(d * d)):.4f} {d.mean():+.4f}"
              f"  {value[m].std():.4f}   {np.corrcoef(p[m], value[m])[0, 1]:.3f}")


if __name__ == "__main__":
    main()
