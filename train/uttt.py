"""Ultimate tic-tac-toe positions for the trainer: reading `noughts selfplay`
files, the network's input features (the same list as src/nnue.c), the
board's symmetries, and a little of the rules (to make test positions).

Move id = small board * 9 + cell, boards and cells numbered row by row.
Features of a position seen from side S (own = S):
    0..80     own marks          81..161   the other side's marks
    162..170  boards S has won   171..179  boards the other side has won
    180..188  boards full with no winner
    189       the mover may play in any board; 190 + b: sent to board b
    199..207  open boards where S can win the board in one move (a line of
              two and its third cell free)
    208..216  the same for the other side
"""
import numpy as np

FEATURES = 217
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def read_selfplay(paths, games=None):
    """Positions of selfplay files: (cells uint8 [N, 81] with 0 empty, 1 X,
    2 O; last int [N]; turn int [N] 0 for X, 1 for O; value float [N];
    result float [N], NaN for the children of --children), values and
    results for the side to move. If GAMES
    is a list, the number of the game each position is from (0, 1, ...
    over all the files) is appended to it."""
    rows = []
    game = 0
    for path in paths:
        with open(path, "rb") as f:
            for line in f:
                if line.startswith(b"# end"):
                    game += 1
                if line.startswith(b"#") or not line.strip():
                    continue
                rows.append(line.split())
                if games is not None:
                    games.append(game)
    n = len(rows)
    cells = np.zeros((n, 81), np.uint8)
    last = np.zeros(n, np.int64)
    turn = np.zeros(n, np.int64)
    value = np.zeros(n, np.float32)
    result = np.zeros(n, np.float32)  # NaN: a child's line, whose game is unknown
    if n == 0:
        return cells, last, turn, value, result
    raw = np.frombuffer(b"".join(r[0] for r in rows), np.uint8).reshape(n, 81)
    cells[raw == ord("X")] = 1
    cells[raw == ord("O")] = 2
    last[:] = [int(r[1]) for r in rows]
    turn[:] = [0 if r[2] == b"X" else 1 for r in rows]
    value[:] = [float(r[4]) for r in rows]
    result[:] = [np.nan if r[5] == b"-" else float(r[5]) for r in rows]
    return cells, last, turn, value, result


def held_out(games):
    """Which lines are held out for validation, given the game each is from
    (read_selfplay's GAMES): every twentieth game whole, since positions of
    one game are alike and a network that merely remembers games would look
    good on its own games' other positions."""
    return np.asarray(games) % 20 == 7


def sibling_groups(cells, last, games, mask, least=3):
    """The lines of MASK that are siblings (of one game, their positions
    differing from one parent's by the move last played), as arrays of
    indices, the groups of LEAST lines or more."""
    idx = np.flatnonzero(np.asarray(mask) & (last >= 0))
    if len(idx) == 0:
        return []
    parent = cells[idx].copy()
    parent[np.arange(len(idx)), last[idx]] = 0
    key = np.concatenate([np.asarray(games, np.int64)[idx, None].view(np.uint8), parent], axis=1)
    _, inverse, counts = np.unique(np.ascontiguousarray(key).view(f"V{key.shape[1]}").ravel(),
                                   return_inverse=True, return_counts=True)
    inverse = inverse.ravel()
    order = np.argsort(inverse, kind="stable")
    groups = np.split(idx[order], np.cumsum(counts)[:-1])
    return [g for g in groups if len(g) >= least]


def _boards(cells, last):
    """What both feature sets read of the small boards: the cells by board
    [N, 9, 9]; won [N, 2, 9] by each side; wins_here [N, 2, 9, 9], the empty
    cells where each side would win its board; full [N, 9]; and the board
    the mover is sent to [N] (-1: any)."""
    n = cells.shape[0]
    boards = cells.reshape(n, 9, 9)
    empty = boards == 0
    won = np.zeros((n, 2, 9), bool)
    wins_here = np.zeros((n, 2, 9, 9), bool)
    for s in range(2):
        mine = boards == s + 1
        for line in LINES:
            won[:, s] |= mine[:, :, line[0]] & mine[:, :, line[1]] & mine[:, :, line[2]]
            for k in range(3):
                a, b, c = line[k], line[(k + 1) % 3], line[(k + 2) % 3]
                wins_here[:, s, :, c] |= mine[:, :, a] & mine[:, :, b] & empty[:, :, c]
    full = (boards != 0).all(axis=2)
    closed = won[:, 0] | won[:, 1] | full
    nxt = np.full(n, -1, np.int64)
    has_last = last >= 0
    c = np.where(has_last, last % 9, 0)
    sent = has_last & ~closed[np.arange(n), c]
    nxt[sent] = c[sent]
    return boards, won, wins_here, full, nxt


def _over(won, full):
    """Which positions are over [N], from _boards()' WON and FULL: a line
    of won boards, or every board closed."""
    out = (won[:, 0] | won[:, 1] | full).all(axis=1)
    for s in range(2):
        for line in LINES:
            out |= won[:, s, line[0]] & won[:, s, line[1]] & won[:, s, line[2]]
    return out


def over(cells, last):
    """Which positions are over [N]."""
    _, won, _, full, _ = _boards(cells, last)
    return _over(won, full)


def children(cells, last, turn):
    """The positions one legal move from each of CELLS, LAST, TURN (none
    from a position that is over), as the arrays read_selfplay() gives:
    (cells, last, turn)."""
    n = cells.shape[0]
    _, won, _, full, nxt = _boards(cells, last)
    allowed = ~(won[:, 0] | won[:, 1] | full)
    sent = np.flatnonzero(nxt >= 0)
    allowed[sent] = False
    allowed[sent, nxt[sent]] = True
    legal = (cells.reshape(n, 9, 9) == 0) & allowed[:, :, None]
    legal[_over(won, full)] = False
    parent, move = np.nonzero(legal.reshape(n, 81))
    kids = cells[parent].copy()
    kids[np.arange(len(parent)), move] = (turn[parent] + 1).astype(np.uint8)
    return kids, move, 1 - turn[parent]


def features(cells, last, turn):
    """The binary features [N, 2, FEATURES] (uint8): [:, 0] seen from the
    side to move, [:, 1] from the other side."""
    n = cells.shape[0]
    _, won, wins_here, full, nxt = _boards(cells, last)
    anywon = won[:, 0] | won[:, 1]
    threat = wins_here.any(axis=3)
    out = np.zeros((n, 2, FEATURES), np.uint8)
    rows = np.arange(n)
    for p in range(2):
        side = turn if p == 0 else 1 - turn  # the perspective's side
        own = cells == (side + 1)[:, None]
        other = (cells != 0) & ~own
        out[:, p, 0:81] = own
        out[:, p, 81:162] = other
        out[:, p, 162:171] = won[rows, side]
        out[:, p, 171:180] = won[rows, 1 - side]
        out[:, p, 180:189] = full & ~anywon
        out[rows, p, 190 + nxt] = 1  # nxt = -1 gives 189, "any board"
        out[:, p, 199:208] = threat[rows, side] & ~anywon
        out[:, p, 208:217] = threat[rows, 1 - side] & ~anywon
    return out


def _sym9():
    """The 8 symmetries of a 3x3 grid as permutations of 0..8."""
    perms = []
    for k in range(8):
        p = []
        for i in range(9):
            r, c = divmod(i, 3)
            if k & 4:
                r, c = c, r
            if k & 1:
                c = 2 - c
            if k & 2:
                r = 2 - r
            p.append(r * 3 + c)
        perms.append(p)
    return perms


def feature_symmetries():
    """For each of the 8 symmetries, the permutation P of feature indices
    such that X[:, P] are the features of the transformed positions."""
    out = []
    for p in _sym9():
        g = np.arange(FEATURES)
        for base in (0, 81):
            for b in range(9):
                for c in range(9):
                    g[base + b * 9 + c] = base + p[b] * 9 + p[c]
        for base in (162, 171, 180, 190, 199, 208):
            for b in range(9):
                g[base + b] = base + p[b]
        inv = np.empty(FEATURES, np.int64)
        inv[g] = np.arange(FEATURES)
        out.append(inv)
    return out


# --- the per-cell features (format version 3) ----------------------------------
#
# Each of the 81 cells is in one of CELL_STATES states seen from side S (own
# = S), and feature cell * CELL_STATES + state is set for each cell; then, as
# in format 2, feature CELL_NEXT says the mover may play in any board and
# CELL_NEXT + 1 + b that it is sent to board b: 82 of CELLS_FEATURES set. A
# cell of a closed board says only how the board closed; on an open board
# the state says what is on the cell and, for an empty cell, who would win
# the small board by playing there, so that the first layer sees at once
# the cells that win boards, which the 217 features above leave it to work
# out from the marks.
#     0 board won by S     1 won by the other side     2 full, no winner
#     3 S's mark           4 the other side's mark
#     5 empty, neither side wins the board by playing here
#     6 only S would       7 only the other would      8 both would

CELL_STATES = 9
CELL_NEXT = 81 * CELL_STATES
CELLS_FEATURES = CELL_NEXT + 10


def cell_states(cells, last, turn):
    """The state of every cell and the board sent to [N, 2, 82] (uint8): in
    [:, p, :81] the cells' states, seen from the side to move (p = 0) and
    from the other side (p = 1); in [:, p, 81] 0 for any board, 1 + b for
    board b."""
    n = cells.shape[0]
    boards, won, wins_here, full, nxt = _boards(cells, last)
    anywon = won[:, 0] | won[:, 1]
    rows = np.arange(n)
    out = np.zeros((n, 2, 82), np.uint8)
    for p in range(2):
        side = turn if p == 0 else 1 - turn
        own = boards == (side + 1)[:, None, None]
        other = (boards != 0) & ~own
        mw = wins_here[rows, side]
        ow = wins_here[rows, 1 - side]
        st = np.where(own, 3, np.where(other, 4, np.where(mw & ow, 8, np.where(mw, 6,
                      np.where(ow, 7, 5)))))
        st = np.where((full & ~anywon)[:, :, None], 2, st)
        st = np.where(won[rows, 1 - side][:, :, None], 1, st)
        st = np.where(won[rows, side][:, :, None], 0, st)
        out[:, p, :81] = st.reshape(n, 81)
        out[:, p, 81] = nxt + 1
    return out


def cell_symmetries():
    """For each of the 8 symmetries, (P, B): the permutation P of the 81
    cells such that S[:, P] are the cell states of the transformed
    positions, and B the board sent to (0 any, 1 + b) of the transformed
    position, indexed by the original's."""
    out = []
    for p in _sym9():
        g = np.empty(81, np.int64)
        for b in range(9):
            for c in range(9):
                g[b * 9 + c] = p[b] * 9 + p[c]
        inv = np.empty(81, np.int64)
        inv[g] = np.arange(81)
        out.append((inv, np.array([0] + [1 + p[b] for b in range(9)])))
    return out


# --- a little of the rules, to make positions ---------------------------------

def _wins(cells9):
    return any(all(cells9[i] for i in line) for line in LINES)


class Game:
    """Ultimate tic-tac-toe with CodinGame's tie-break, as noughts plays it."""

    def __init__(self):
        self.cells = [0] * 81  # 0 empty, 1 X, 2 O
        self.won = [0] * 9     # 0 none, 1 X, 2 O
        self.closed = [False] * 9
        self.next = -1
        self.turn = 0
        self.last = -1
        self.result = None  # "X", "O", "draw"

    def legal(self):
        if self.result is not None:
            return []
        boards = [self.next] if self.next >= 0 else [b for b in range(9) if not self.closed[b]]
        return [b * 9 + c for b in boards for c in range(9) if self.cells[b * 9 + c] == 0]

    def play(self, m):
        b, c = divmod(m, 9)
        me = self.turn + 1
        self.cells[m] = me
        board = self.cells[b * 9:b * 9 + 9]
        if self.won[b] == 0 and _wins([v == me for v in board]):
            self.won[b] = me
            self.closed[b] = True
            if _wins([w == me for w in self.won]):
                self.result = "XO"[self.turn]
        if all(board):
            self.closed[b] = True
        if self.result is None and all(self.closed):
            x, o = self.won.count(1), self.won.count(2)
            self.result = "draw" if x == o else "X" if x > o else "O"
        self.next = -1 if self.closed[c] else c
        self.turn ^= 1
        self.last = m


def move_name(m):
    """The move text of a move id ("e5"): column letter, row number."""
    b, c = divmod(m, 9)
    col = (b % 3) * 3 + c % 3
    row = (b // 3) * 3 + c // 3
    return "abcdefghi"[col] + str(row + 1)
