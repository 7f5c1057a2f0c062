"""Knuth's Algorithm X with dancing links (seed 001), behind the same generator of solutions and
the same place / remove / solution events as the bitarray search.

Columns are the target's cells (primary) and the pieces (primary; secondary with `spare`);
rows are placements. A piece with several interchangeable copies has a counted column instead:
out of the header list, its copies left counted down as its rows are chosen, and covered (its
other rows hidden) when none is left, so each filling is found once, whatever copy sits where.
Steps are named as in Knuth's "Dancing links" (X1..X8) and `dlx1.w`.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from .bitmask import Placement
from .solver import PLACE, REMOVE, SOLUTION, EventCallback, SearchStats, Solution


class DancingLinks:
    """The exact cover matrix as doubly linked lists in flat arrays (node 0 is the root)."""

    def __init__(self, placements: Mapping[str, Sequence[Placement]], size: int, spare: bool = False,
                 copies: Mapping[str, int] | None = None):
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
        # copies left of each piece column (0 for a column covered like any primary one)
        self.left = [0] * n
        for c, name in enumerate(names, size + 1):
            if copies and copies.get(name, 1) > 1:
                self.left[c] = copies[name]
        for c in range(size + 1, n):             # secondary and counted columns: out of the list
            if spare or self.left[c]:
                self.L[self.R[c]], self.R[self.L[c]] = self.L[c], self.R[c]
                self.L[c] = self.R[c] = c
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
                  spare: bool = False, held: str | None = None,
                  copies: Mapping[str, int] | None = None) -> Iterator[Solution]:
    """Every exact cover, as `Solution`s. A `held` piece goes first (its column is chosen first),
    like the bitarray search's held piece; otherwise the column with the fewest rows. `copies`
    gives how many interchangeable copies of a piece there are (1 when absent)."""
    m = DancingLinks(placements, size, spare, copies)
    L, R, U, D, C, LEN, ROW, LEFT = m.L, m.R, m.U, m.D, m.C, m.LEN, m.row, m.left
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

    counted = [bool(x) for x in LEFT]

    def take(c: int) -> None:
        """Cover a column of a chosen row; a counted one only once its last copy is taken."""
        if counted[c]:
            LEFT[c] -= 1
            if LEFT[c]:
                return
        cover(c)

    def give_back(c: int) -> None:
        """Undo `take`."""
        if counted[c]:
            LEFT[c] += 1
            if LEFT[c] > 1:
                return
        uncover(c)

    def choose() -> int:
        """X3: the held piece's column first, then the column with the fewest rows."""
        if held_col is not None and not chosen:
            return held_col
        c, best, j = 0, 1 << 30, R[0]
        while j != 0:
            if LEN[j] < best:
                c, best = j, LEN[j]
                if best <= 1:
                    break
            j = R[j]
        return c

    def search() -> Iterator[Solution]:
        """X1..X8 as in Knuth's dlx1, the levels on a list rather than Python's stack."""
        rows: list[int] = []                     # x_0 .. x_l: the row tried at each level
        while True:
            if R[0] == 0:                        # X2: every primary column covered: visit
                st.solutions += 1
                if emit:
                    emit(SOLUTION, None)
                yield Solution(tuple(chosen))
                r = None                         # then X8
            else:
                c = choose()                     # X3: choose a column
                cover(c)                         # X4: cover it
                r = D[c]
            while True:
                if r is not None:
                    if C[r] != r:                # X5: try row r (not back at the column's head)
                        p = m.rows[ROW[r]]
                        chosen.append(p)
                        st.placements += 1
                        if emit:
                            emit(PLACE, p)
                        j = R[r]
                        while j != r:
                            take(C[j])
                            j = R[j]
                        rows.append(r)
                        break                    # one level down: X2
                    uncover(r)                   # X7: every row tried: uncover the column
                if not rows:                     # X8: leave the level; level 0 ends the search
                    return
                r = rows.pop()
                j = L[r]                         # X6: undo row r, in reverse, and try the next
                while j != r:
                    give_back(C[j])
                    j = L[j]
                p = chosen.pop()
                st.removals += 1
                if emit:
                    emit(REMOVE, p)
                r = D[r]

    try:
        yield from search()
    finally:
        st.updates += updates
