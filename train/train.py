#!/usr/bin/env python3
"""Train the value network of Ultimate tic-tac-toe on `noughts selfplay`
positions and write it in the format src/nnue.c reads.

    train.py --out FILE [--init FILE] [--features plain|cells] [--hidden H]
             [--epochs E] [--seed S] [--lam L] [--wd D] [--rank W] [--values V]
             DATA_FILE...

The network (see src/nnue.h): binary features per perspective (--features
plain: format 2's 217; cells: format 3's state of each cell and the board
sent to, 739), one layer of H units shared by both perspectives, clipped to [0, 1], and one
output over the mover's units then the other side's; its sigmoid is the
mover's expected score. Target: L * the game's result + (1 - L) * the
search's value. Loss: V (default 1) times the cross-entropy; with --rank
W, plus W times a listwise loss over each search's children (rank_dz()).
Adam, with the 8 symmetries of the board drawn at random for each batch. Weights are clipped so that the
integer accumulators of src/nnue.c cannot overflow.
"""
import argparse
import struct
import sys
import time

import numpy as np

import uttt

QA, QB = 127, 256
VERSION = 2  # of the file format: 2 has the threat features (uttt.py)
W1_MAX, W2_MAX = 2.0, 32.0  # (109 features, or 82 of format 3, + the bias) * 2 * 127 < 32767; 512 * 127 * 32 * 256 < 2^31
HIDDEN_MAX = 512  # NNUE_MAX_HIDDEN of src/nnue.h; the C evaluator takes multiples of 16


class Plain:
    """Format version 2: the 217 features of uttt.features(), kept as they are."""
    version, count = VERSION, uttt.FEATURES

    def __init__(self):
        self.syms = uttt.feature_symmetries()

    def compute(self, cells, last, turn):
        return uttt.features(cells, last, turn)

    def dense(self, raw, p, perm=None):
        """Perspective P's features of RAW as floats, transformed by PERM."""
        x = raw[:, p]
        return (x if perm is None else x[:, perm]).astype(np.float32)


class Cells:
    """Format version 3: a state of each cell and the board sent to
    (uttt.cell_states()), 82 of uttt.CELLS_FEATURES features set."""
    version, count = 3, uttt.CELLS_FEATURES

    def __init__(self):
        self.syms = uttt.cell_symmetries()

    def compute(self, cells, last, turn):
        return uttt.cell_states(cells, last, turn)

    def dense(self, raw, p, perm=None):
        s = raw[:, p, :81]
        nxt = raw[:, p, 81].astype(np.int64)
        if perm is not None:
            s = s[:, perm[0]]
            nxt = perm[1][nxt]
        n = s.shape[0]
        x = np.zeros((n, self.count), np.float32)
        x[np.arange(n)[:, None], np.arange(81) * uttt.CELL_STATES + s] = 1
        x[np.arange(n), uttt.CELL_NEXT + nxt] = 1
        return x


FEATURE_SETS = {"plain": Plain, "cells": Cells}


class Net:
    def __init__(self, hidden, rng, fs):
        self.fs = fs
        self.w1, self.b1 = Net.fresh_units(fs, hidden, rng)
        self.w2 = (rng.standard_normal(2 * hidden) * 0.05).astype(np.float32)
        self.b2 = np.float32(0.0)

    @staticmethod
    def fresh_units(fs, n, rng):
        """First-layer weights and biases of N new units over FS's features."""
        scale = 0.08 * np.sqrt(uttt.FEATURES / fs.count) if fs.count > uttt.FEATURES else 0.08
        return ((rng.standard_normal((fs.count, n)) * scale).astype(np.float32),
                np.full(n, 0.25, np.float32))

    def params(self):
        return [self.w1, self.b1, self.w2]

    def forward(self, xs, xo):
        """Logits for features xs (mover's view) and xo (other's), float."""
        h = self.w1.shape[1]
        a_s = xs @ self.w1 + self.b1
        a_o = xo @ self.w1 + self.b1
        h_s = np.clip(a_s, 0, 1)
        h_o = np.clip(a_o, 0, 1)
        z = h_s @ self.w2[:h] + h_o @ self.w2[h:] + self.b2
        return z, (a_s, a_o, h_s, h_o)

    def quantized(self):
        return (np.round(self.b1 * QA).astype(np.int64), np.round(self.w1 * QA).astype(np.int64),
                np.round(self.w2 * QB).astype(np.int64), int(np.round(self.b2 * QA * QB)))

    def forward_int(self, xs, xo):
        """The integer output of src/nnue.c (logit * QA * QB) for features XS, XO (0/1)."""
        b1, w1, w2, b2 = self.quantized()
        h = w1.shape[1]
        a_s = np.clip(xs.astype(np.int64) @ w1 + b1, 0, QA)
        a_o = np.clip(xo.astype(np.int64) @ w1 + b1, 0, QA)
        return a_s @ w2[:h] + a_o @ w2[h:] + b2

    def save(self, path):
        b1, w1, w2, b2 = self.quantized()
        h = w1.shape[1]
        body = b"noughtsN" + struct.pack("<I16sIIII", self.fs.version, b"uttt", self.fs.count, h,
                                         QA, QB)
        body += b1.astype("<i2").tobytes() + w1.astype("<i2").tobytes()
        body += w2.astype("<i2").tobytes() + struct.pack("<i", b2)
        body += struct.pack("<I", fnv1a(body))
        with open(path, "wb") as f:
            f.write(body)

    @staticmethod
    def load(path):
        data = open(path, "rb").read()
        magic, version, game, feats, h, qa, qb = struct.unpack("<8sI16sIIII", data[:44])
        fs = next(f for f in FEATURE_SETS.values() if f.version == version)()
        assert magic == b"noughtsN" and feats == fs.count
        net = Net.__new__(Net)
        net.fs = fs
        at = 44
        b1 = np.frombuffer(data, "<i2", h, at); at += 2 * h
        w1 = np.frombuffer(data, "<i2", feats * h, at).reshape(feats, h); at += 2 * feats * h
        w2 = np.frombuffer(data, "<i2", 2 * h, at); at += 4 * h
        (b2,) = struct.unpack("<i", data[at:at + 4])
        net.b1 = (b1 / qa).astype(np.float32)
        net.w1 = (w1 / qa).astype(np.float32)
        net.w2 = (w2 / qb).astype(np.float32)
        net.b2 = np.float32(b2 / (qa * qb))
        return net

    def widen(self, hidden, rng):
        """Append units up to HIDDEN (more than now), made as a new
        network's are but each with an output weight of 0, so the
        network's function is unchanged until training moves them."""
        h = self.w1.shape[1]
        extra = hidden - h
        w1, b1 = Net.fresh_units(self.fs, extra, rng)
        self.w1 = np.concatenate([self.w1, w1], axis=1)
        self.b1 = np.concatenate([self.b1, b1])
        z = np.zeros(extra, np.float32)
        self.w2 = np.concatenate([self.w2[:h], z, self.w2[h:], z]).astype(np.float32)


def fnv1a(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def bce(p, t):
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p))))


def backward(net, xs, xo, cache, dz):
    """The gradients of W1, B1, W2 and B2 given the loss's derivative DZ by
    the logits of a forward pass (its CACHE) over XS, XO."""
    a_s, a_o, h_s, h_o = cache
    h = net.w1.shape[1]
    gw2 = np.concatenate([h_s.T @ dz, h_o.T @ dz])
    da_s = (dz[:, None] * net.w2[:h]) * ((a_s > 0) & (a_s < 1))
    da_o = (dz[:, None] * net.w2[h:]) * ((a_o > 0) & (a_o < 1))
    return [xs.T @ da_s + xo.T @ da_o, da_s.sum(0) + da_o.sum(0), gw2], float(dz.sum())


def rank_dz(z, t, sizes):
    """The listwise loss of sibling groups (consecutive rows of SIZES each,
    their labels T for the side to move in each, the parent's opponent):
    the cross-entropy of the network's distribution over a group's moves,
    softmax(-z), against the labels', softmax(-logit(t)). Both are equal
    when the logits Z are the labels' (where the values' loss is least
    too), so the two losses agree; this one weighs what an order uses, the
    differences between siblings. Returns the mean loss per group and its
    derivative by Z."""
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    seg = np.repeat(np.arange(len(sizes)), sizes)

    def softmax(s):
        e = np.exp(s - np.maximum.reduceat(s, starts)[seg])
        return e / np.add.reduceat(e, starts)[seg]

    tc = np.clip(t, 0.01, 0.99)
    q = softmax(-np.log(tc / (1 - tc)))
    p = softmax(-z.astype(np.float64))
    loss = -np.add.reduceat(q * np.log(np.maximum(p, 1e-12)), starts).mean()
    return float(loss), ((q - p) / len(sizes)).astype(np.float32)


class Ranking:
    """The sibling groups of the training lines, their labels (the
    searches' values: a game's result, which --lam mixes into the line of
    the move played, says nothing about that move's siblings) and the
    weight of their listwise loss (--rank), a share of the groups with each
    batch."""

    def __init__(self, groups, labels, weight, steps):
        self.groups, self.labels, self.weight = groups, labels, weight
        self.per_step = -(-len(groups) // max(1, steps))

    def batches(self, rng):
        order = rng.permutation(len(self.groups))
        for start in range(0, len(order), self.per_step):
            chosen = [self.groups[i] for i in order[start:start + self.per_step]]
            yield np.concatenate(chosen), np.array([len(g) for g in chosen])
        while True:
            yield None, None


def adam_step(net, adam, grads, gb2, step, rate, wd):
    for (m, v), p_, g in zip(adam, net.params(), grads):
        m *= 0.9
        m += 0.1 * g
        v *= 0.999
        v += 0.001 * g * g
        p_ -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    mb, vb = adam[-1]
    mb = 0.9 * mb + 0.1 * gb2
    vb = 0.999 * vb + 0.001 * gb2 * gb2
    adam[-1] = [mb, vb]
    net.b2 = np.float32(net.b2 - rate * (mb / (1 - 0.9 ** step)) /
                        (np.sqrt(vb / (1 - 0.999 ** step)) + 1e-8))
    if wd > 0:  # decoupled weight decay (AdamW)
        net.w1 *= 1 - rate * wd
        net.w2 *= 1 - rate * wd
    np.clip(net.w1, -W1_MAX, W1_MAX, out=net.w1)
    np.clip(net.b1, -W1_MAX, W1_MAX, out=net.b1)
    np.clip(net.w2, -W2_MAX, W2_MAX, out=net.w2)


def train(net, x, t, x_val, t_val, epochs, batch, lr, wd, rng, log, rank=None, values=1.0):
    """Epochs of Adam over X, T; with RANK (a Ranking over the same rows),
    its listwise loss too, weighted, on a share of its groups each batch;
    VALUES weighs the values' loss."""
    fs = net.fs
    syms = fs.syms
    adam = [(np.zeros_like(p), np.zeros_like(p)) for p in net.params()] + [[0.0, 0.0]]
    step = 0
    n = len(t)
    for epoch in range(epochs):
        t0 = time.time()
        order = rng.permutation(n)
        rate = lr * (0.5 ** (epoch // max(1, epochs // 3)))
        total = rank_total = 0.0
        ranked = rank.batches(rng) if rank else None
        for start in range(0, n - batch + 1, batch):
            idx = order[start:start + batch]
            perm = syms[rng.integers(8)]
            xs = fs.dense(x[idx], 0, perm)
            xo = fs.dense(x[idx], 1, perm)
            tb = t[idx]
            z, cache = net.forward(xs, xo)
            p = sigmoid(z)
            total += bce(p, tb) * len(idx)
            grads, gb2 = backward(net, xs, xo, cache,
                                  (values * (p - tb) / len(idx)).astype(np.float32))
            rows, sizes = next(ranked) if ranked else (None, None)
            if rows is not None:
                xs, xo = fs.dense(x[rows], 0, perm), fs.dense(x[rows], 1, perm)
                z, cache = net.forward(xs, xo)
                loss, dz = rank_dz(z, rank.labels[rows], sizes)
                rank_total += loss * len(sizes)
                more, more_b2 = backward(net, xs, xo, cache, rank.weight * dz)
                grads = [g + m for g, m in zip(grads, more)]
                gb2 += more_b2
            step += 1
            adam_step(net, adam, grads, gb2, step, rate, wd)
        val = evaluate(net, x_val, t_val)
        ranks = f", sibling loss {rank_total / max(1, len(rank.groups)):.4f}" if rank else ""
        log(f"epoch {epoch + 1}/{epochs}: train loss {total / max(1, n - n % batch):.4f}{ranks}, "
            f"validation loss {val:.4f}, correlation {correlation(net, x_val, t_val):.3f}, "
            f"{time.time() - t0:.0f} s")


def logits(net, x, integer=False, chunk=65536, perm=None):
    """The network's logits of the positions X (raw features), transformed
    by the symmetry PERM if given: of the float network, or with INTEGER of
    src/nnue.c's (its output / (QA * QB)), a chunk of dense rows at a time."""
    out = []
    for i in range(0, len(x), chunk):
        xs, xo = net.fs.dense(x[i:i + chunk], 0, perm), net.fs.dense(x[i:i + chunk], 1, perm)
        out.append(net.forward_int(xs, xo) / (QA * QB) if integer else net.forward(xs, xo)[0])
    return np.concatenate(out) if out else np.zeros(0, np.float32)


def evaluate(net, x, t):
    if len(t) == 0:
        return float("nan")
    return bce(sigmoid(logits(net, x)), t)


def correlation(net, x, t):
    """The correlation of the network's values with the targets T."""
    if len(t) < 2:
        return float("nan")
    return float(np.corrcoef(sigmoid(logits(net, x)), t)[0, 1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--init", help="start from this network instead of random weights")
    ap.add_argument("--hidden", type=int, default=256,
                    help="units; with --init, more than its units adds units (widening)")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=2048)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lam", type=float, default=0.5)
    ap.add_argument("--wd", type=float, default=0.0, help="weight decay (decoupled)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rank", type=float, default=0.0,
                    help="weight of the listwise loss over sibling groups (children of one "
                         "search, as --children writes them); 0: none")
    ap.add_argument("--features", choices=sorted(FEATURE_SETS), default="plain",
                    help="the inputs: plain (format 2, 217 features) or cells (format 3, "
                         "a state of each cell); --init's file decides when given")
    ap.add_argument("--values", type=float, default=1.0,
                    help="weight of the values' loss (0 with --rank: the order alone)")
    args = ap.parse_args()
    if args.hidden % 16 or not 16 <= args.hidden <= HIDDEN_MAX:
        ap.error(f"--hidden {args.hidden}: the C evaluator takes a multiple of 16 from 16 to "
                 f"{HIDDEN_MAX}")

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    rng = np.random.default_rng(args.seed)
    games = []
    cells, last, turn, value, result = uttt.read_selfplay(args.data, games)
    fs = Net.load(args.init).fs if args.init else FEATURE_SETS[args.features]()
    x = fs.compute(cells, last, turn)
    # (a child's line has no game result: its value alone)
    t = np.where(np.isnan(result), value,
                 args.lam * result + (1 - args.lam) * value).astype(np.float32)
    held = uttt.held_out(games)
    val, tr = np.flatnonzero(held), np.flatnonzero(~held)
    nval = len(val)
    log(f"{len(t)} positions of {games[-1] + 1 if games else 0} games ({len(tr)} to train, "
        f"{nval} to validate; {int(np.isnan(result).sum())} children), results: mover won "
        f"{np.mean(result[~np.isnan(result)] == 1):.3f}, drew {np.mean(result[~np.isnan(result)] == 0.5):.3f}")
    log(f"validation loss of a constant guess: {bce(np.full(nval, t[tr].mean()), t[val]):.4f}")
    net = Net.load(args.init) if args.init else Net(args.hidden, rng, fs)
    if args.init and args.hidden > net.w1.shape[1]:
        log(f"widened from {net.w1.shape[1]} to {args.hidden} units (new output weights 0)")
        net.widen(args.hidden, rng)
    rank = None
    if args.rank > 0:
        # (row numbers of the training set, which train() indexes)
        where = np.full(len(t), -1)
        where[tr] = np.arange(len(tr))
        groups = [where[g] for g in uttt.sibling_groups(cells, last, games, ~held, least=2)]
        rank = Ranking(groups, value[tr], args.rank, len(tr) // args.batch)
        log(f"{len(groups)} sibling groups of 2 or more in training, {rank.per_step} a batch, "
            f"weight {args.rank}")
    train(net, x[tr], t[tr], x[val], t[val], args.epochs, args.batch, args.lr, args.wd, rng, log,
          rank, args.values)
    zq = logits(net, x[val], integer=True)
    log(f"validation loss with integer weights: {bce(sigmoid(zq), t[val]):.4f}")
    net.save(args.out)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
