"""Backtracking over placement masks: test with AND, place with OR, remove with AND-NOT.

Both searches are generators of `Solution`s with the same signature shape; they never print, open
files or read clocks. An optional `on_event(kind, placement)` callback sees every step
(`test`, `place`, `remove`, `solution`), and an optional `SearchStats` counts them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from bitarray import bitarray

from .bitmask import Placement, Target, letters_of

TEST, PLACE, REMOVE, SOLUTION = "test", "place", "remove", "solution"
EventCallback = Callable[[str, Placement | None], None]


@dataclass(frozen=True)
class Solution:
    """A filled target: the placements in the order the search put them down."""
    placements: tuple[Placement, ...]

    def letters(self, size: int, empty: str = ".") -> str:
        """One piece letter per target cell, in bit order ('.' for a cell left empty)."""
        return letters_of(self.placements, size, empty)


@dataclass
class SearchStats:
    """What a search did: placements (OR), removals (AND-NOT), overlap tests (AND), solutions."""
    placements: int = 0
    removals: int = 0
    tests: int = 0
    solutions: int = 0
    updates: int = 0            # dancing links: link updates (Knuth's mems-like count)

    def as_dict(self) -> dict[str, int]:
        out = {"placements": self.placements, "removals": self.removals,
               "tests": self.tests, "solutions": self.solutions}
        if self.updates:
            out["nodes"], out["updates"] = self.placements, self.updates
        return out


def _conflicts(flat: Sequence[Placement], size: int) -> list[bitarray]:
    """For each placement, the placements (as bits over `flat`) that share a cell with it."""
    n = len(flat)
    covering = [bitarray(n) for _ in range(size)]
    for i, p in enumerate(flat):
        for c in p.cells:
            covering[c][i] = 1
    out = []
    for p in flat:
        hit = bitarray(n)
        for c in p.cells:
            hit |= covering[c]
        out.append(hit)
    return out


def fixed_order(groups: Sequence[Sequence[Placement]], size: int,
                on_event: EventCallback | None = None,
                stats: SearchStats | None = None,
                emit_tests: bool = True) -> Iterator[Solution]:
    """The seed's search (Jahanbakhsh): piece k tries every placement of groups[k] in turn.

    With the Soma groups (L held at its two placements, then P A B Z T V) it finds the 240
    with 38,594 placements, 38,594 removals and 3,078,514 tests. Every placement of the level's
    piece is AND-tested against the board; the tests run in parallel on `alive`, a bit per
    placement cleared once the placement meets an occupied cell, so `alive & level[k]` is the
    list of those that pass, in order. `stats.tests` and the `test` events (unless
    `emit_tests` is false) count them one by one, as the seed does.
    """
    flat = [p for g in groups for p in g]
    n = len(flat)
    level = []
    for k, g in enumerate(groups):
        bits = bitarray(n)
        start = sum(len(x) for x in groups[:k])
        bits[start:start + len(g)] = 1
        level.append(bits)
    keep = [~hit for hit in _conflicts(flat, size)]
    masks = [p.mask for p in flat]
    complements = [~m for m in masks]
    sizes = [len(g) for g in groups]
    starts = [sum(sizes[:k]) for k in range(len(groups))]
    last = len(groups) - 1
    occupied = bitarray(size)
    chosen: list[Placement] = []
    st = stats if stats is not None else SearchStats()
    emit = on_event
    placed = removed = tests = found = 0

    def tested(k: int, alive: bitarray):
        for i in range(starts[k], starts[k] + sizes[k]):
            emit(TEST, flat[i])
            if alive[i]:
                yield i

    def backtrack(k: int, alive: bitarray) -> Iterator[Solution]:
        nonlocal occupied, placed, removed, tests, found
        tests += sizes[k]
        ids = tested(k, alive) if emit and emit_tests else (alive & level[k]).search(1)
        for i in ids:                            # those that pass the AND test
            occupied |= masks[i]                 # place with OR
            chosen.append(flat[i])
            placed += 1
            if emit:
                emit(PLACE, flat[i])
            if k == last:
                found += 1
                if emit:
                    emit(SOLUTION, None)
                yield Solution(tuple(chosen))
            else:
                yield from backtrack(k + 1, alive & keep[i])
            occupied &= complements[i]           # remove with AND-NOT
            chosen.pop()
            removed += 1
            if emit:
                emit(REMOVE, flat[i])

    try:
        if groups:
            yield from backtrack(0, ~bitarray(n))
    finally:
        st.placements += placed
        st.removals += removed
        st.tests += tests
        st.solutions += found


class _CellTable:
    """The first-cell search's tables, as bitarrays over all placements (numbered 0..n-1):
    which placements start at each cell, which cover it, and which stay possible once each one is
    placed; and the memo of a node's scalar test count, keyed by spent * size + cell."""

    def __init__(self, placements: Mapping[str, Sequence[Placement]], target: Target,
                 copies: Mapping[str, int] | None, held: str | None, regions: bool = False):
        self.tests: dict[int, int] = {}
        self._sums: dict[int, set[int]] = {}
        size = self.size = target.size
        self.neighbours = target.neighbours
        self.names = list(placements)
        self.flat = [p for name in self.names for p in placements[name]]
        self.slot = [self.names.index(p.piece) for p in self.flat]
        self.copies = [copies.get(n, 1) if copies else 1 for n in self.names]
        self.held = [i for i, p in enumerate(self.flat) if p.piece == held]
        n = len(self.flat)
        self.covering = [bitarray(n) for _ in range(size)]  # covering[cell]: placements on it
        self.starts = [bitarray(n) for _ in range(size)]    # starts[cell]: first cell is cell
        self.piece = [bitarray(n) for _ in self.names]      # piece[slot]: its placements
        for i, p in enumerate(self.flat):
            for c in p.cells:
                self.covering[c][i] = 1
            if p.piece != held:
                self.starts[p.cells[0]][i] = 1
            self.piece[self.slot[i]][i] = 1
        self.masks = [p.mask for p in self.flat]
        self.complements = [~m for m in self.masks]
        self.keep, self.keep_last, self.around = [], [], []
        for i, p in enumerate(self.flat):
            hit = bitarray(n)
            for c in p.cells:
                hit |= self.covering[c]
            self.keep.append(~hit)                                     # no shared cell
            self.keep_last.append(~(hit | self.piece[self.slot[i]]))   # ... and piece used up
            near = {j for c in p.cells for j in target.neighbours[c]} - set(p.cells)
            self.around.append(tuple(sorted(near)))
        self.all = ~bitarray(n)
        self._sizes = [len(placements[name][0].cells) if placements[name] else 0 for name in self.names]
        smallest = min((s for s in self._sizes if s), default=0)
        # with `regions`, closed regions below this size are checked against the sums of the
        # pieces left (seed 000's check); measured on 6x10 (unique): it cuts 0.7% of the
        # placements and costs 50% more time on top of the dead-cell check, so it is off unless asked
        self.hole_limit = 2 * smallest if regions and smallest > 1 else 0

    def unused(self, spent: int) -> bitarray:
        """The placements of pieces with copies left (`spent` has bit s set when slot s has none)."""
        u = self.all.copy()
        for s, bits in enumerate(self.piece):
            if spent >> s & 1:
                u &= ~bits
        return u

    def fillable(self, spent: int) -> set[int]:
        """The region sizes the pieces left can fill (sums of their sizes), memoized."""
        sums = self._sums.get(spent)
        if sums is None:
            sums = {0}
            for slot, name in enumerate(self.names):
                if spent >> slot & 1:
                    continue
                size = self._sizes[slot]
                for _ in range(self.copies[slot]):
                    sums |= {s + size for s in sums}
            self._sums[spent] = sums
        return sums

    def count_tests(self, key: int) -> int:
        """The scalar test count of a node (see `tests`), computed and remembered."""
        spent, cell = divmod(key, self.size)
        t = self.tests[key] = (self.unused(spent) & self.starts[cell]).count()
        return t


class CellSearch:
    """Always fill the lowest-numbered empty cell, trying only placements whose first cell it is.

    Over the Soma cube's 688 placements it finds the 11,520 fixed solutions. `copies` gives how
    many interchangeable copies of a piece there are (1 when absent). A `held` piece is put down
    first, at each of its placements in turn (one per symmetry class, say), before the search
    fills cells in order with the others.

    The AND tests of one node run in parallel: `alive` has a bit per placement, cleared when the
    placement meets an occupied cell or its piece is used up, so `alive & starts[cell]` is every
    candidate that passes the test `not (occupied & mask).any()`, in list order. After a
    placement, an empty cell beside it that no live placement covers ends the branch (a dead
    cell). With `regions`, a placement that closes off a small empty region whose size no
    combination of the pieces left can fill is refused too (seed 000's check; it does not pay
    on the shipped puzzles, see `_CellTable`). The `tests` in `stats` (and the `test` events)
    are those of testing each node's candidates one by one.

    The tables are built once, by the constructor; `solutions()` runs the search.
    """

    def __init__(self, placements: Mapping[str, Sequence[Placement]], target: Target,
                 copies: Mapping[str, int] | None = None, held: str | None = None, regions: bool = False):
        self.table = _CellTable(placements, target, copies, held, regions)

    def solutions(self, on_event: EventCallback | None = None, stats: SearchStats | None = None,
                  emit_tests: bool = True) -> Iterator[Solution]:
        """The solutions, one by one, in search order (`test` events only with `emit_tests`)."""
        return _cell_search(self.table, on_event, stats if stats is not None else SearchStats(), emit_tests)


def _cell_search(tab: _CellTable, emit: EventCallback | None, st: SearchStats,
                 emit_tests: bool = True) -> Iterator[Solution]:
    flat, slot_of, masks, complements = tab.flat, tab.slot, tab.masks, tab.complements
    keep, keep_last, starts, covering, around = tab.keep, tab.keep_last, tab.starts, tab.covering, tab.around
    size = tab.size
    left = list(tab.copies)
    single = all(c == 1 for c in left)         # no copies to count: every piece is used once
    bit = [1 << s for s in slot_of]
    occupied = bitarray(size)
    chosen: list[Placement] = []
    placed = removed = tests = found = 0
    tests_at, count_tests = tab.tests.get, tab.count_tests

    nbrs = tab.neighbours
    holes = tab.hole_limit > 0
    limit = tab.hole_limit

    def small_hole(i: int, spent: int) -> bool:
        """Seed 000's check: does placement i close off a small empty region that no
        combination of the pieces left can fill? (Regions of `limit` cells or more pass.)"""
        sums = tab.fillable(spent)
        seen = set()
        for j in around[i]:
            if occupied[j] or j in seen:
                continue
            region, todo = {j}, [j]
            while todo and len(region) < limit:
                c = todo.pop()
                for n in nbrs[c]:
                    if n not in region and not occupied[n]:
                        region.add(n)
                        todo.append(n)
            if not todo and len(region) < limit and len(region) not in sums:
                return True
            seen |= region
        return False

    def tested(ids, alive: bitarray):
        """The candidates one by one as `test` events, passing on those that fit."""
        for i in ids:
            emit(TEST, flat[i])
            if alive[i]:
                yield i

    def remove(i: int) -> None:
        nonlocal occupied, removed
        occupied &= complements[i]               # remove with AND-NOT
        chosen.pop()
        removed += 1
        if emit:
            emit(REMOVE, flat[i])

    def search(ids, alive: bitarray, spent: int) -> Iterator[Solution]:
        """Depth first on an explicit stack, not Python's (a target of 1,000 cells may be
        1,000 placements deep): a level is (its candidates, live placements, pieces spent)."""
        nonlocal occupied, placed, removed, tests, found
        levels = [(iter(ids), alive, spent)]
        down: list[int] = []                     # the placement each deeper level stands on
        while levels:
            ids, alive, spent = levels[-1]
            for i in ids:
                occupied |= masks[i]             # place with OR
                chosen.append(flat[i])
                placed += 1
                if emit:
                    emit(PLACE, flat[i])
                if occupied.all():
                    found += 1
                    if emit:
                        emit(SOLUTION, None)
                    yield Solution(tuple(chosen))
                    remove(i)
                    continue
                if single or left[slot_of[i]] == 1:  # its last copy: drop the piece too
                    nxt = alive & keep_last[i]
                    nspent = spent | bit[i]
                else:
                    nxt = alive & keep[i]
                    nspent = spent
                for j in around[i]:              # a dead cell beside it ends the branch
                    if not occupied[j] and not (nxt & covering[j]).any():
                        break
                else:
                    if holes and small_hole(i, nspent):
                        remove(i)
                        continue
                    cell = occupied.find(0)      # the lowest empty cell
                    key = nspent * size + cell
                    tests += tests_at(key) or count_tests(key)
                    if emit and emit_tests:
                        nids = tested((tab.unused(nspent) & starts[cell]).search(1), nxt)
                    else:                        # every candidate that passes the AND test
                        nids = (nxt & starts[cell]).search(1)
                    if not single:
                        left[slot_of[i]] -= 1
                    down.append(i)               # one level down; back here when it is done
                    levels.append((iter(nids), nxt, nspent))
                    break
                occupied &= complements[i]       # a dead cell: remove with AND-NOT (inline: hot)
                chosen.pop()
                removed += 1
                if emit:
                    emit(REMOVE, flat[i])
            else:                                # the level is done: back to the one above
                levels.pop()
                if down:
                    i = down.pop()
                    if not single:
                        left[slot_of[i]] += 1
                    remove(i)

    try:
        if tab.held:                             # the held piece first, at each placement
            tests += len(tab.held)
            yield from search(tested(tab.held, tab.all) if emit and emit_tests else tab.held, tab.all, 0)
        elif size:
            tests += tab.count_tests(0)
            ids = tested(starts[0].search(1), tab.all) if emit and emit_tests else starts[0].search(1)
            yield from search(ids, tab.all, 0)
    finally:
        st.placements += placed
        st.removals += removed
        st.tests += tests
        st.solutions += found


def first_cell(placements: Mapping[str, Sequence[Placement]], target: Target,
               on_event: EventCallback | None = None,
               stats: SearchStats | None = None,
               copies: Mapping[str, int] | None = None,
               held: str | None = None, emit_tests: bool = True) -> Iterator[Solution]:
    """The first-cell search (see `CellSearch`), tables and all, as one generator."""
    return CellSearch(placements, target, copies, held).solutions(on_event, stats, emit_tests)


def held_groups(placements: Mapping[str, Sequence[Placement]], order: str,
                held: Mapping[str, Sequence[Sequence[int]]] | None = None) -> list[list[Placement]]:
    """The fixed-order groups: the pieces in `order`, a held piece restricted to the given cells."""
    groups = []
    for name in order:
        ps = list(placements[name])
        if held and name in held:
            want = [tuple(sorted(c)) for c in held[name]]
            by_cells = {p.cells: p for p in ps}
            ps = [by_cells[c] for c in want]
        groups.append(ps)
    return groups
