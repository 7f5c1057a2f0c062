"""Knuth's Algorithm X with dancing links (seed 001), behind the same generator of solutions and
the same place / remove / solution events as the bitarray search.

Columns are the target's cells (primary) and the pieces (primary; secondary with `spare`);
rows are placements. Steps are named as in Knuth's "Dancing links" (X1..X8) and `dlx1.w`.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from .bitmask import Placement
from .solver import PLACE, REMOVE, SOLUTION, EventCallback, SearchStats, Solution


class DancingLinks:
    """The exact cover matrix as doubly linked lists in flat arrays (node 0 is the root)."""

    def __init__(self, placements: Mapping[str, Sequence[Placement]], size: int, spare: bool = False):
        names = list(placements)
        self.ncols = size + len(names)
        n = self.ncols + 1
        self.L = list(range(-1, n - 1))
        self.R = list(range(1, n + 1))
        self.L[0], self.R[n - 1] = n - 1, 0
        self.U = list(range(n))
        self.D = list(range(n))
        self.C = list(range(n))
        self.LEN = [0] * n
        self.row: list[int] = [-1] * n
        if spare:                                # piece columns secondary: out of the header list
            for c in range(size + 1, n):
                self.L[c] = self.R[c] = c
            self.R[size] = 0
            self.L[0] = size
        self.rows: list[Placement] = []
        for piece_col, name in enumerate(names, size + 1):
            for p in placements[name]:
                self._add_row([c + 1 for c in p.cells] + [piece_col], p)

    def _add_row(self, cols: list[int], p: Placement) -> None:
        r = len(self.rows)
        self.rows.append(p)
        first = len(self.C)
        for k, c in enumerate(cols):
            x = first + k
            self.C.append(c)
            self.row.append(r)
            self.U.append(self.U[c])
            self.D.append(c)
            self.D[self.U[c]] = x
            self.U[c] = x
            self.LEN[c] += 1
            self.L.append(x - 1 if k else first + len(cols) - 1)
            self.R.append(x + 1 if k < len(cols) - 1 else first)


def dancing_links(placements: Mapping[str, Sequence[Placement]], size: int,
                  on_event: EventCallback | None = None, stats: SearchStats | None = None,
                  spare: bool = False, held: str | None = None) -> Iterator[Solution]:
    """Every exact cover, as `Solution`s. A `held` piece goes first (its column is chosen first),
    like the bitarray search's held piece; otherwise the column with the fewest rows."""
    m = DancingLinks(placements, size, spare)
    L, R, U, D, C, LEN, ROW = m.L, m.R, m.U, m.D, m.C, m.LEN, m.row
    st = stats if stats is not None else SearchStats()
    emit = on_event
    chosen: list[Placement] = []
    updates = 0
    names = list(placements)
    held_col = size + 1 + names.index(held) if held is not None else None

    def cover(c: int) -> None:
        nonlocal updates
        L[R[c]], R[L[c]] = L[c], R[c]
        i = D[c]
        while i != c:
            j = R[i]
            while j != i:
                U[D[j]], D[U[j]] = U[j], D[j]
                LEN[C[j]] -= 1
                updates += 1
                j = R[j]
            i = D[i]

    def uncover(c: int) -> None:
        i = U[c]
        while i != c:
            j = L[i]
            while j != i:
                LEN[C[j]] += 1
                U[D[j]] = D[U[j]] = j
                j = L[j]
            i = U[i]
        L[R[c]] = R[L[c]] = c

    def search() -> Iterator[Solution]:
        if R[0] == 0:                            # X2: every primary column covered
            st.solutions += 1
            if emit:
                emit(SOLUTION, None)
            yield Solution(tuple(chosen))
            return
        if held_col is not None and not chosen:  # X3: choose a column
            c = held_col
        else:
            c, best, j = 0, 1 << 30, R[0]
            while j != 0:
                if LEN[j] < best:
                    c, best = j, LEN[j]
                    if best <= 1:
                        break
                j = R[j]
        if LEN[c] == 0:
            return
        cover(c)                                 # X4: cover c
        r = D[c]
        while r != c:                            # X5: try each row r of c
            p = m.rows[ROW[r]]
            chosen.append(p)
            st.placements += 1
            if emit:
                emit(PLACE, p)
            j = R[r]
            while j != r:
                cover(C[j])
                j = R[j]
            yield from search()
            j = L[r]                             # X6: undo, in reverse
            while j != r:
                uncover(C[j])
                j = L[j]
            chosen.pop()
            st.removals += 1
            if emit:
                emit(REMOVE, p)
            r = D[r]
        uncover(c)                               # X7

    try:
        yield from search()
    finally:
        st.updates += updates
