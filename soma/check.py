"""An independent check of a solution, from the letters alone: no masks, placements or search."""
from __future__ import annotations

from collections.abc import Sequence

from .geometry import Cell, normalize, orientations
from .pieces import Piece


def is_solution(letters: str, pieces: Sequence[Piece], cells: Sequence[Cell]) -> bool:
    """True when `letters` (one piece name per cell of `cells`, in that order) fills every cell
    and shows each piece exactly once, as a proper rotation of its shape (so A is not B)."""
    return not solution_errors(letters, pieces, cells)


def solution_errors(letters: str, pieces: Sequence[Piece], cells: Sequence[Cell]) -> list[str]:
    """What is wrong with a solution, in words (empty when it is one)."""
    if len(letters) != len(cells):
        return [f"{len(letters)} letters for {len(cells)} cells"]
    names = {p.name for p in pieces}
    errors = [f"cell {c} holds {ch!r}, which is no piece" for c, ch in zip(cells, letters) if ch not in names]
    for p in pieces:
        mine = [c for c, ch in zip(cells, letters) if ch == p.name]
        if not mine:
            errors.append(f"piece {p.name} is missing")
        elif normalize(mine) not in set(orientations(p.cells)):
            errors.append(f"the cells of {p.name} ({len(mine)}) are not a rotation of its shape")
    return errors
