"""Counting by memo: how many ways there are to finish depends only on the filled cells and the
pieces left, so the first-cell count is memoized on that state. Fixed solutions are counted over
every placement; the rotation and unique counts follow by Burnside's lemma, the number of classes
being the average, over the group, of the solutions each symmetry leaves unchanged. A symmetry g
leaves a solution unchanged exactly when g maps each of its pieces onto a piece of the solution
of the same kind, so Fix(g) is counted the same way over 'moves' that are g-closed sets of
placements. Exact for any target, also when solutions have symmetries of their own."""
from __future__ import annotations

import sys

from .budget import Budget, BudgetExceeded, current
from .problem import Puzzle
from .symmetry import Counts, place_image, rotation_subgroup


def _moves(puzzle: Puzzle, g, stride: int) -> list[tuple[int, int, int]]:
    """(first cell, mask, piece-use vector as a number, `stride` bits a piece) of each move: a
    placement, or for a symmetry g the union of a placement's images under g's powers when they
    are disjoint. A move that takes more copies of a piece than there are is left out."""
    names = list(puzzle.placements)
    base = {n: 1 << (stride * k) for k, n in enumerate(names)}
    index = {(p.piece, p.cells): p for ps in puzzle.placements.values() for p in ps}
    moves, seen = [], set()
    for name, ps in puzzle.placements.items():
        for p in ps:
            orbit = [(p.piece, p.cells)]
            if g is not None:
                while True:
                    nxt = place_image(g, index[orbit[-1]])
                    if nxt == orbit[0]:
                        break
                    if nxt not in index:
                        orbit = None
                        break
                    orbit.append(nxt)
                if orbit is None:
                    continue
            cells = [c for _, cs in orbit for c in cs]
            if len(cells) != len(set(cells)):
                continue                              # the images overlap: no invariant use
            key = frozenset(orbit)
            if key in seen:
                continue
            seen.add(key)
            uses = [n for n, _ in orbit]
            if any(uses.count(n) > puzzle.count_of(n) for n in set(uses)):
                continue                              # more copies than the puzzle has
            mask = sum(1 << c for c in cells)
            use = sum(base[n] for n in uses)
            moves.append((min(cells), mask, use))
    return moves


CHECK_EVERY = 1 << 15          # new states between two looks at the memory budget


class MemoFull(BudgetExceeded):
    """The memo table reached the memory budget (the count can go on by search)."""


def count_with(puzzle: Puzzle, g=None, budget: Budget | None = None) -> int:
    """The number of fixed solutions (with g: of those that g leaves unchanged), an exact integer
    for any number of copies and any size. MemoFull when the table would pass the budget (the
    process's resident size, checked every CHECK_EVERY new states, with room for it to double)."""
    size = puzzle.size
    names = list(puzzle.placements)
    # the copies left of each piece, a field of `width` bits under a guard bit: a move that takes
    # more copies than are left clears a guard bit, so one subtraction and one AND test the vector
    width = max(puzzle.count_of(n) for n in names).bit_length() if names else 1
    stride = width + 1
    guards = sum(1 << (stride * k + width) for k in range(len(names)))
    room0 = guards | sum(puzzle.count_of(n) << (stride * k) for k, n in enumerate(names))
    by_cell: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for first, mask, use in _moves(puzzle, g, stride):
        by_cell[first].append((mask, use))
    full = (1 << size) - 1
    if full == 0:
        return 1
    memo: dict[int, int] = {}                  # (room << size | filled cells) -> ways to finish
    budget = budget or current()
    checks = 1                                 # the first look right away, then every CHECK_EVERY

    # depth first on an explicit stack, not Python's (a solution of 1,000 pieces is 1,000 deep):
    # a frame is [filled cells, copies left, its cell's moves, next move, ways so far]
    stack = [[0, room0, by_cell[0], 0, 0]]
    got = 0
    try:
        while True:
            frame = stack[-1]
            occ, room, moves, k, total = frame
            total += got
            got = 0
            for k in range(k, len(moves)):
                mask, use = moves[k]
                if occ & mask:
                    continue
                left = room - use
                if left & guards != guards:
                    continue
                nxt = occ | mask
                if nxt == full:
                    total += 1
                    continue
                known = memo.get(left << size | nxt)
                if known is None:                   # count the child first, then come back
                    frame[3], frame[4] = k + 1, total
                    stack.append([nxt, left, by_cell[(~nxt & (nxt + 1)).bit_length() - 1], 0, 0])
                    break
                total += known
            else:
                memo[room << size | occ] = got = total
                stack.pop()
                if not stack:
                    return total
                checks -= 1
                if not checks:
                    checks = CHECK_EVERY
                    if budget.over(2 * sys.getsizeof(memo)):   # room for the table's next doubling
                        raise MemoFull(f"the memo table reached the memory budget of {budget} at "
                                       f"{len(memo):,} states")
    finally:
        memo.clear()


def count_by_memo(puzzle: Puzzle, budget: Budget | None = None) -> Counts:
    """Fixed, rotation and unique counts: the memoized count and Burnside's lemma."""
    group = puzzle.group
    fix = {id(g): count_with(puzzle, None if _is_identity(g) else g, budget) for g in group}
    fixed = next(fix[id(g)] for g in group if _is_identity(g))
    rotations = rotation_subgroup(group)
    unique_sum, rot_sum = sum(fix.values()), sum(fix[id(g)] for g in rotations)
    assert unique_sum % len(group) == 0 and rot_sum % len(rotations) == 0, "Burnside's average is whole"
    return Counts(fixed, rot_sum // len(rotations), unique_sum // len(group))


def _is_identity(g) -> bool:
    return g.perm == tuple(range(len(g.perm))) and all(a == b for a, b in g.relabel)
