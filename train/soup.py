#!/usr/bin/env python3
"""Average the weights of networks trained from one start (a "model soup":
the fine-tunings of one network keep its hidden units in the same places,
so their mean is a network too, and errors that one fine-tuning made and
another did not are halved). Each input may carry a weight, FILE:W
(default 1); the weights are normalised to sum to 1. The result is saved
quantised as train.py saves, in the first input's format.

usage: soup.py --out OUT.bin A.bin[:W] B.bin[:W] ...
"""

import argparse
import sys

import numpy as np

import train


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("nets", nargs="+", help="network files, each FILE or FILE:WEIGHT")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    nets, weights = [], []
    for spec in args.nets:
        path, _, w = spec.partition(":")
        nets.append(train.Net.load(path))
        weights.append(float(w) if w else 1.0)
    first = nets[0]
    for path, net in zip(args.nets, nets):
        if net.fs.version != first.fs.version or net.w1.shape != first.w1.shape:
            sys.exit(f"soup.py: {path} differs in shape or features from {args.nets[0]}")
    if min(weights) < 0 or sum(weights) <= 0:
        sys.exit("soup.py: weights must be at least 0 and not all 0")
    weights = np.array(weights) / sum(weights)
    first.w1 = sum(w * n.w1 for w, n in zip(weights, nets)).astype(np.float32)
    first.b1 = sum(w * n.b1 for w, n in zip(weights, nets)).astype(np.float32)
    first.w2 = sum(w * n.w2 for w, n in zip(weights, nets)).astype(np.float32)
    first.b2 = np.float32(sum(w * n.b2 for w, n in zip(weights, nets)))
    first.save(args.out)
    print(f"{args.out}: " + ", ".join(f"{p} {w:.3f}" for p, w in zip(args.nets, weights)))


if __name__ == "__main__":
    main()
