"""An independent check of a solution, from the letters alone: no masks, placements or search."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from .geometry import Cell, normalize, orientations
from .pieces import Piece
from .symmetry import copy_numbers
from .words import plural


def is_solution(letters: str, pieces: Sequence[Piece], cells: Sequence[Cell], mirror: bool = False,
                flat: bool = False, copies: Mapping[str, int] | None = None, spare: bool = False) -> bool:
    """True when `letters` (one piece name per cell of `cells`, in that order) fills every cell
    and shows each piece (each copy) exactly once, as one of its orientations: proper rotations
    (on a flat board, in the plane), and turned over too with `mirror` (so A is not B)."""
    return not solution_errors(letters, pieces, cells, mirror, flat, copies, spare)


def solution_errors(letters: str, pieces: Sequence[Piece], cells: Sequence[Cell], mirror: bool = False,
                    flat: bool = False, copies: Mapping[str, int] | None = None,
                    spare: bool = False, ids: Sequence[str] | None = None) -> list[str]:
    """What is wrong with a solution, in words (empty when it is one). `ids`, when given, says
    which copy of its piece covers each cell; each copy must then be one orientation of it."""
    if len(letters) != len(cells) or (ids is not None and len(ids) != len(cells)):
        return [f"{plural(len(letters), 'letter')} for {plural(len(cells), 'cell')}"]
    names = {p.name for p in pieces}
    errors = [f"cell {c} holds {ch!r}, which is no piece" for c, ch in zip(cells, letters) if ch not in names]
    for p in pieces:
        mine = [c for c, ch in zip(cells, letters) if ch == p.name]
        n = (copies or {}).get(p.name, 1)
        if not mine and spare:
            continue
        if not mine:
            errors.append(f"piece {p.name} is missing")
        elif len(mine) != n * p.size and not (spare and len(mine) % p.size == 0 and len(mine) < n * p.size):
            errors.append(f"piece {p.name} covers {plural(len(mine), 'cell')}, not {n} x {p.size}")
        elif ids is not None:
            shapes = set(orientations(p.cells, mirror, flat))
            each: dict[str, list[Cell]] = {}
            for c, ch, i in zip(cells, letters, ids):
                if ch == p.name:
                    each.setdefault(i, []).append(c)
            errors += [f"copy {i} of {p.name} is not its shape: {sorted(cs)}"
                       for i, cs in each.items() if normalize(cs) not in shapes]
        elif not _tiles(set(mine), set(orientations(p.cells, mirror, flat))):
            errors.append(f"the cells of {p.name} ({len(mine)}) are not copies of its shape")
    return errors


def _tiles(cells: set, shapes: set) -> bool:
    """Can these cells be cut into copies of the shape (in the given orientations)?"""
    if not cells:
        return True
    first = min(cells, key=lambda c: (c[2], c[1], c[0]))
    for shape in shapes:
        anchor = min(shape, key=lambda c: (c[2], c[1], c[0]))
        placed = {(x - anchor[0] + first[0], y - anchor[1] + first[1], z - anchor[2] + first[2]) for x, y, z in shape}
        if placed <= cells and _tiles(cells - placed, shapes):
            return True
    return False


def check_puzzle_solution(letters: str, puzzle) -> list[str]:
    """`solution_errors` with the rules of a Puzzle (mirror, flat, copies, spare, pre-placed cells)."""
    letters, _, copies = letters.partition("|")
    ids = copy_numbers(copies) if copies else None
    errors = solution_errors(letters, puzzle.pieces, puzzle.target.cells, puzzle.mirror, puzzle.flat,
                             dict(puzzle.copies), puzzle.spare, ids)
    for name, cells in puzzle.preplaced:
        errors += [f"cell {i} is pre-placed for {name} but holds {letters[i]!r}" for i in cells if letters[i] != name]
    return errors
