#!/usr/bin/env python3
"""Train a policy head for a value network of Ultimate tic-tac-toe: a
linear layer over the network's hidden units (both perspectives, clipped,
as src/nnue.c computes them) that scores each legal move, fitted to the
moves `noughts selfplay`'s searches chose or (--target visits, files of
`selfplay --visits`) to the share of each move in their visits.

    policy.py --net FILE [--out FILE] [--epochs E] [--seed S] [--target move|visits]
              [--prior V] DATA_FILE...

The value network is not changed: the head reads its hidden units as they
are (the integer path of src/nnue.c), so the search gets a move order for
the price of one output per legal move. Loss: cross-entropy of the softmax
over the legal moves (of the visit shares with --target visits). Every
twentieth game is held out; top-1 agreement with the searches' moves (the
most visited with --target visits) is reported there, beside the
agreement of the order by the network's value of each child (the order the
head replaces), and with --target visits the cross-entropy of the shares
under the head, a uniform choice and softmaxes of the children's values.
"""
import argparse
import struct
import sys
import time

import numpy as np

import uttt
from train import QA, QB, Net, fnv1a

P_MAX = 32.0  # as W2_MAX: 512 * 127 * 32 * 256 < 2^31


def read_moves(paths, games):
    """The game positions of selfplay files (not the children's lines):
    cells, last, turn as uttt.read_selfplay(), the move chosen, and the
    visits field of `selfplay --visits` (b"" where a line has none)."""
    cells, last, turn, value, result = uttt.read_selfplay(paths, games)
    keep = ~np.isnan(result)
    moves, visits = [], []
    for path in paths:
        with open(path, "rb") as f:
            for line in f:
                if line.startswith(b"#") or not line.strip():
                    continue
                r = line.split()
                if r[5] != b"-":
                    moves.append(int(r[3]))
                    visits.append(r[6] if len(r) > 6 else b"")
    return (cells[keep], last[keep], turn[keep], np.asarray(moves, np.int64),
            np.flatnonzero(keep), visits)


def visit_shares(visits, moves, prior):
    """[N, 81] float32: each position's share of its search's visits by move,
    PRIOR visits taken from each listed move (what order=net's priors
    count as); the chosen move alone where a line has no visits left."""
    t = np.zeros((len(moves), 81), np.float32)
    for i, field in enumerate(visits):
        for pair in field.split(b","):
            if pair and pair != b"-":
                m, n = pair.split(b":")
                t[i, int(m)] = max(0, int(n) - prior)
    total = t.sum(1)
    none = total == 0
    t[none, moves[none]] = 1
    total[none] = 1
    return t / total[:, None]


def legal_mask(cells, last):
    """[N, 81] bool: the legal moves."""
    n = cells.shape[0]
    boards, won, _, full, nxt = uttt._boards(cells, last)
    closed = won[:, 0] | won[:, 1] | full
    empty = boards == 0
    allowed = np.where(nxt[:, None] >= 0, np.arange(9)[None, :] == nxt[:, None], ~closed)
    return (empty & allowed[:, :, None]).reshape(n, 81)


def hidden(net, x, chunk=65536):
    """The clipped hidden units [N, 2H] (mover's, then the other side's) of
    src/nnue.c's integer path, as floats on [0, 1]."""
    b1, w1, _, _ = net.quantized()
    out = []
    for i in range(0, len(x), chunk):
        hs = []
        for p in range(2):
            a = net.fs.dense(x[i:i + chunk], p).astype(np.float32) @ w1.astype(np.float32)
            hs.append(np.clip(a + b1, 0, QA) / QA)
        out.append(np.concatenate(hs, axis=1).astype(np.float32))
    return np.concatenate(out)


def softmax_masked(z, mask):
    z = np.where(mask, z, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z) * mask
    return e / e.sum(axis=1, keepdims=True)


def fit(h, mask, y, h_val, mask_val, y_val, epochs, lr, rng, log, batch=4096, soft=None, soft_val=None):
    n, d = h.shape
    w = np.zeros((d, 81), np.float32)
    b = np.zeros(81, np.float32)
    mw, vw, mb, vb = np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)
    step = 0
    for epoch in range(epochs):
        t0 = time.time()
        rate = lr * (0.5 ** (epoch // max(1, epochs // 3)))
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n - batch + 1, batch):
            idx = order[s:s + batch]
            p = softmax_masked(h[idx] @ w + b, mask[idx])
            t = soft[idx] if soft is not None else np.eye(81, dtype=np.float32)[y[idx]]
            total += float(-(t * np.log(p + 1e-12)).sum())
            dz = (p - t) / len(idx)
            gw, gb = h[idx].T @ dz, dz.sum(0)
            step += 1
            for par, g, m, v in ((w, gw, mw, vw), (b, gb, mb, vb)):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                par -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
            np.clip(w, -P_MAX, P_MAX, out=w)
        z_val = h_val @ w + b
        acc = agreement(z_val, mask_val, y_val)
        ce = "" if soft_val is None else f", held-out cross-entropy {cross_entropy(z_val, mask_val, soft_val):.4f}"
        log(f"epoch {epoch + 1}/{epochs}: train loss {total / max(1, n - n % batch):.4f}, "
            f"held-out top-1 {acc:.3f}{ce}, {time.time() - t0:.0f} s")
    return w, b


def agreement(z, mask, y):
    return float(np.mean(np.argmax(np.where(mask, z, -1e9), axis=1) == y))


def cross_entropy(z, mask, t, chunk=65536):
    """Mean cross-entropy of the visit shares T under the softmax of logits Z
    over the legal moves: how well Z predicts where the search's effort went."""
    total = 0.0
    for i in range(0, len(z), chunk):
        p = softmax_masked(z[i:i + chunk], mask[i:i + chunk])
        total += float(-(t[i:i + chunk] * np.log(p + 1e-12)).sum())
    return total / len(z)


def child_value_order(net, cells, last, turn, mask):
    """The network's value of each legal move's position for the mover
    ([N, 81], -inf where illegal): the order the head replaces."""
    n = cells.shape[0]
    out = np.full((n, 81), -np.inf, np.float32)
    rows, cols = np.nonzero(mask)
    c2 = cells[rows].copy()
    c2[np.arange(len(rows)), cols] = (turn[rows] + 1).astype(np.uint8)
    x = net.fs.compute(c2, cols, 1 - turn[rows])
    z = np.concatenate([net.forward_int(net.fs.dense(x[i:i + 65536], 0), net.fs.dense(x[i:i + 65536], 1))
                        for i in range(0, len(x), 65536)])
    out[rows, cols] = -z  # the child's mover is the opponent
    return out


def save(path, w, b, hidden_units):
    wq = np.round(w.T * QB).astype("<i2")  # [81][2H]
    bq = np.round(b * QA * QB).astype("<i4")
    body = b"noughtsP" + struct.pack("<I16sII", 1, b"uttt", 81, hidden_units)
    body += wq.tobytes() + bq.tobytes()
    body += struct.pack("<I", fnv1a(body))
    with open(path, "wb") as f:
        f.write(body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--net", required=True)
    ap.add_argument("--out")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="use at most this many positions")
    ap.add_argument("--target", choices=("move", "visits"), default="move",
                    help="fit the move chosen, or the share of the search's visits of each move "
                    "(files of selfplay --visits)")
    ap.add_argument("--prior", type=int, default=25,
                    help="--target visits: the visits a move's prior counts as (eval=mix with "
                    "order=net: 25, but for moves that end the game; taken from every listed "
                    "move, those included)")
    args = ap.parse_args()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    rng = np.random.default_rng(args.seed)
    net = Net.load(args.net)
    games = []
    cells, last, turn, y, kept, visits = read_moves(args.data, games)
    games = np.asarray(games)[kept]
    if args.limit and len(y) > args.limit:
        cells, last, turn, y, games = cells[:args.limit], last[:args.limit], turn[:args.limit], y[:args.limit], games[:args.limit]
        visits = visits[:args.limit]
    if args.target == "visits" and not any(visits):
        sys.exit("policy.py: --target visits needs files of `noughts selfplay --visits`; "
                 "these have no visits field")
    soft = visit_shares(visits, y, args.prior) if args.target == "visits" else None
    if soft is not None:
        y = np.argmax(soft, axis=1)  # top-1 then means the most visited move
    mask = legal_mask(cells, last)
    assert mask[np.arange(len(y)), y].all(), "a chosen move is not legal"
    t0 = time.time()
    h = hidden(net, net.fs.compute(cells, last, turn))
    held = uttt.held_out(games)
    va, tr = np.flatnonzero(held), np.flatnonzero(~held)
    log(f"{len(y)} positions ({len(tr)} to train, {len(va)} held out), hidden units in "
        f"{time.time() - t0:.0f} s; legal moves {mask.sum(1).mean():.1f} on average")
    log(f"held-out top-1 of a uniform choice {np.mean(1 / mask[va].sum(1)):.3f}")
    sub = va[:20000]
    cv = child_value_order(net, cells[sub], last[sub], turn[sub], mask[sub])
    log(f"held-out top-1 of the best child by the network's value: {agreement(cv, mask[sub], y[sub]):.3f}")
    if soft is not None:
        log(f"held-out cross-entropy of a uniform choice: "
            f"{cross_entropy(np.zeros((len(sub), 81), np.float32), mask[sub], soft[sub]):.4f}")
        v = 1 / (1 + np.exp(-np.where(mask[sub], cv, 0) / (QA * QB)))  # each child's value for the mover
        for temp in (0.01, 0.02, 0.05, 0.1, 0.2):
            log(f"held-out cross-entropy of a softmax of the children's values at T = {temp}: "
                f"{cross_entropy(v / temp, mask[sub], soft[sub]):.4f}")
    w, b = fit(h[tr], mask[tr], y[tr], h[va], mask[va], y[va], args.epochs, args.lr, rng, log,
               soft=None if soft is None else soft[tr], soft_val=None if soft is None else soft[va])
    z = h[sub] @ w + b
    log(f"the head on the same held-out positions: top-1 {agreement(z, mask[sub], y[sub]):.3f}"
        + ("" if soft is None else f", cross-entropy {cross_entropy(z, mask[sub], soft[sub]):.4f}"))
    if args.out:
        save(args.out, w, b, net.w1.shape[1])
        log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
