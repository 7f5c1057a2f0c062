"""The Soma cube as a search problem: its placements, its symmetry group, and the reductions
each counting convention and strategy searches."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .bitmask import CUBE, Placement, Target, placements
from .pieces import SEED_ORDER, SOMA, Piece
from .solver import held_groups
from .symmetry import Symmetry, orbit_representatives, reduce_by_symmetry, symmetry_group

SEED_HELD_L = ((0, 1, 2, 5), (3, 4, 5, 8))
"""The seed's two held placements of L: {(0,0,0),(1,0,0),(2,0,0),(2,1,0)} and
{(0,1,0),(1,1,0),(2,1,0),(2,2,0)}."""


@dataclass(frozen=True)
class Puzzle:
    """A target and the pieces that fill it."""
    name: str
    target: Target
    pieces: tuple[Piece, ...]

    @property
    def size(self) -> int:
        return self.target.size

    @cached_property
    def placements(self) -> dict[str, tuple[Placement, ...]]:
        """Every placement of every piece (688 for the Soma cube)."""
        return placements(self.pieces, self.target)

    @cached_property
    def group(self) -> tuple[Symmetry, ...]:
        """The puzzle's symmetries (48 for the Soma cube, 24 of them reflections that swap A, B)."""
        return symmetry_group(self.target, self.pieces)


SOMA_CUBE = Puzzle("Soma cube", CUBE, SOMA)


@dataclass(frozen=True)
class Problem:
    """What one search runs over: the placements per piece, and the piece put down first."""
    puzzle: Puzzle
    placements: dict[str, tuple[Placement, ...]] = field(repr=False)
    held: str | None = None

    @property
    def size(self) -> int:
        return self.puzzle.size


def soma_problem(convention: str = "unique", puzzle: Puzzle = SOMA_CUBE) -> Problem:
    """The first-cell problem for a convention: 'all' searches every placement; 'unique' and
    'rotations' hold one piece at one placement per symmetry class (then expand by the group)."""
    if convention == "all":
        return Problem(puzzle, puzzle.placements)
    table, held = reduce_by_symmetry(puzzle.placements, puzzle.group)
    return Problem(puzzle, table, held)


def seed_groups(puzzle: Puzzle = SOMA_CUBE) -> list[list[Placement]]:
    """The seed's fixed-order search: L held at its two placements, then P A B Z T V."""
    return held_groups(puzzle.placements, SEED_ORDER, {"L": SEED_HELD_L})


__all__ = ["Puzzle", "Problem", "SOMA_CUBE", "soma_problem", "seed_groups", "orbit_representatives"]
