#!/usr/bin/env python3
"""How well networks rank a position's children, which is what order=net
asks of them, against the labels of selfplay files written with
--children: for each group of three or more siblings (lines of one game
whose positions differ from one parent's by the move last played) in the
held-out games (uttt.held_out(), as train.py holds out), how often the
child the labels value best comes first in the network's order and among
its first three, the mean rank correlation within a group, and the root
mean square error over all of them.

usage: siblings.py DATA_FILES... --net A.bin [--net B.bin ...]
"""

import argparse
import sys

import numpy as np

import train
import uttt


def measure(net, groups, cells, last, turn, value):
    every = np.concatenate(groups)
    x = net.fs.compute(cells[every], last[every], turn[every])
    v = np.zeros(len(value), np.float64)
    v[every] = train.sigmoid(train.logits(net, x, integer=True))
    first = three = 0
    rho = []
    for g in groups:
        # a child's value is for its side to move, the parent's opponent
        best = np.argmin(value[g])
        order = np.argsort(v[g])
        first += order[0] == best
        three += best in order[:3]
        rl, rn = np.argsort(np.argsort(value[g])), np.argsort(np.argsort(v[g]))
        if rl.std() > 0 and rn.std() > 0:
            rho.append(np.corrcoef(rl, rn)[0, 1])
    rmse = float(np.sqrt(np.mean((v[every] - value[every]) ** 2)))
    return first / len(groups), three / len(groups), float(np.mean(rho)), rmse


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--net", action="append", required=True)
    args = ap.parse_args()
    games = []
    cells, last, turn, value, _ = uttt.read_selfplay(args.data, games)
    games = np.asarray(games)
    groups = uttt.sibling_groups(cells, last, games, uttt.held_out(games))
    print(f"{len(groups)} groups of 3 or more siblings, {sum(map(len, groups))} positions")
    for name in args.net:
        first, three, rho, rmse = measure(train.Net.load(name), groups, cells, last, turn, value)
        print(f"{name}: the labels' best child first {first:.3f}, among the first three "
              f"{three:.3f}, rank correlation {rho:.3f}, rmse {rmse:.4f}")


if __name__ == "__main__":
    sys.exit(main())
