#!/usr/bin/env python3
"""Train the value network of Ultimate tic-tac-toe on `noughts selfplay`
positions and write it in the format src/nnue.c reads.

    train.py --out FILE [--init FILE] [--hidden H] [--epochs E] [--seed S]
             [--lam L] [--wd D] DATA_FILE...

The network (see src/nnue.h): 217 binary features per perspective, one
layer of H units shared by both perspectives, clipped to [0, 1], and one
output over the mover's units then the other side's; its sigmoid is the
mover's expected score. Target: L * the game's result + (1 - L) * the
search's value. Loss: cross-entropy. Adam, with the 8 symmetries of the
board drawn at random for each batch. Weights are clipped so that the
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
W1_MAX, W2_MAX = 2.0, 32.0  # (109 features + the bias) * 2 * 127 < 32767; 512 * 127 * 32 * 256 < 2^31


class Net:
    def __init__(self, hidden, rng):
        self.w1 = (rng.standard_normal((uttt.FEATURES, hidden)) * 0.08).astype(np.float32)
        self.b1 = np.full(hidden, 0.25, np.float32)
        self.w2 = (rng.standard_normal(2 * hidden) * 0.05).astype(np.float32)
        self.b2 = np.float32(0.0)

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
        """The integer output of src/nnue.c (logit * QA * QB)."""
        b1, w1, w2, b2 = self.quantized()
        h = w1.shape[1]
        a_s = np.clip(xs.astype(np.int64) @ w1 + b1, 0, QA)
        a_o = np.clip(xo.astype(np.int64) @ w1 + b1, 0, QA)
        return a_s @ w2[:h] + a_o @ w2[h:] + b2

    def save(self, path):
        b1, w1, w2, b2 = self.quantized()
        h = w1.shape[1]
        body = b"noughtsN" + struct.pack("<I16sIIII", VERSION, b"uttt", uttt.FEATURES, h, QA, QB)
        body += b1.astype("<i2").tobytes() + w1.astype("<i2").tobytes()
        body += w2.astype("<i2").tobytes() + struct.pack("<i", b2)
        body += struct.pack("<I", fnv1a(body))
        with open(path, "wb") as f:
            f.write(body)

    @staticmethod
    def load(path):
        data = open(path, "rb").read()
        magic, version, game, feats, h, qa, qb = struct.unpack("<8sI16sIIII", data[:44])
        assert magic == b"noughtsN" and version == VERSION and feats == uttt.FEATURES
        net = Net.__new__(Net)
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


def train(net, x, t, x_val, t_val, epochs, batch, lr, wd, rng, log):
    syms = uttt.feature_symmetries()
    adam = [(np.zeros_like(p), np.zeros_like(p)) for p in net.params()] + [[0.0, 0.0]]
    step = 0
    n = len(t)
    h = net.w1.shape[1]
    for epoch in range(epochs):
        t0 = time.time()
        order = rng.permutation(n)
        rate = lr * (0.5 ** (epoch // max(1, epochs // 3)))
        total = 0.0
        for start in range(0, n - batch + 1, batch):
            idx = order[start:start + batch]
            perm = syms[rng.integers(8)]
            xs = x[idx, 0][:, perm].astype(np.float32)
            xo = x[idx, 1][:, perm].astype(np.float32)
            tb = t[idx]
            z, (a_s, a_o, h_s, h_o) = net.forward(xs, xo)
            p = sigmoid(z)
            total += bce(p, tb) * len(idx)
            dz = ((p - tb) / len(idx)).astype(np.float32)
            gw2 = np.concatenate([h_s.T @ dz, h_o.T @ dz])
            gb2 = float(dz.sum())
            da_s = (dz[:, None] * net.w2[:h]) * ((a_s > 0) & (a_s < 1))
            da_o = (dz[:, None] * net.w2[h:]) * ((a_o > 0) & (a_o < 1))
            gw1 = xs.T @ da_s + xo.T @ da_o
            gb1 = da_s.sum(0) + da_o.sum(0)
            step += 1
            for (m, v), p_, g in zip(adam, net.params(), [gw1, gb1, gw2]):
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
        val = evaluate(net, x_val, t_val)
        log(f"epoch {epoch + 1}/{epochs}: train loss {total / max(1, n - n % batch):.4f}, "
            f"validation loss {val:.4f}, correlation {correlation(net, x_val, t_val):.3f}, "
            f"{time.time() - t0:.0f} s")


def evaluate(net, x, t):
    if len(t) == 0:
        return float("nan")
    z, _ = net.forward(x[:, 0].astype(np.float32), x[:, 1].astype(np.float32))
    return bce(sigmoid(z), t)


def correlation(net, x, t):
    """The correlation of the network's values with the targets T."""
    if len(t) < 2:
        return float("nan")
    z, _ = net.forward(x[:, 0].astype(np.float32), x[:, 1].astype(np.float32))
    return float(np.corrcoef(sigmoid(z), t)[0, 1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--init", help="start from this network instead of random weights")
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=2048)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lam", type=float, default=0.5)
    ap.add_argument("--wd", type=float, default=0.0, help="weight decay (decoupled)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    rng = np.random.default_rng(args.seed)
    games = []
    cells, last, turn, value, result = uttt.read_selfplay(args.data, games)
    x = uttt.features(cells, last, turn)
    # (a child's line has no game result: its value alone)
    t = np.where(np.isnan(result), value,
                 args.lam * result + (1 - args.lam) * value).astype(np.float32)
    # Hold out every twentieth game whole: positions of one game are alike,
    # so a network that merely remembers games would look good on its own
    # games' other positions.
    held = np.asarray(games) % 20 == 7
    val, tr = np.flatnonzero(held), np.flatnonzero(~held)
    nval = len(val)
    log(f"{len(t)} positions of {games[-1] + 1 if games else 0} games ({len(tr)} to train, "
        f"{nval} to validate; {int(np.isnan(result).sum())} children), results: mover won "
        f"{np.mean(result[~np.isnan(result)] == 1):.3f}, drew {np.mean(result[~np.isnan(result)] == 0.5):.3f}")
    log(f"validation loss of a constant guess: {bce(np.full(nval, t[tr].mean()), t[val]):.4f}")
    net = Net.load(args.init) if args.init else Net(args.hidden, rng)
    train(net, x[tr], t[tr], x[val], t[val], args.epochs, args.batch, args.lr, args.wd, rng, log)
    zq = net.forward_int(x[val, 0], x[val, 1]) / (QA * QB)
    log(f"validation loss with integer weights: {bce(sigmoid(zq), t[val]):.4f}")
    net.save(args.out)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
