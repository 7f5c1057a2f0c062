"""A puzzle (a target, its pieces and their rules) as a search problem: its placements, its
symmetry group, and the reductions each counting convention and strategy searches. The Soma
cube is the default puzzle."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .bitmask import CUBE, Placement, Target, piece_placements
from .pieces import SEED_ORDER, SOMA, Piece
from .solver import held_groups
from .symmetry import Symmetry, orbit_representatives, reduce_by_symmetry, symmetry_group

SEED_HELD_L = ((0, 1, 2, 5), (3, 4, 5, 8))
"""The seed's two held placements of L: {(0,0,0),(1,0,0),(2,0,0),(2,1,0)} and
{(0,1,0),(1,1,0),(2,1,0),(2,2,0)}."""


@dataclass(frozen=True)
class Puzzle:
    """A target and the pieces that fill it: `mirror` lets pieces turn over, `copies` gives
    interchangeable copies of a piece, `preplaced` cells already belong to a piece, and with
    `spare` some pieces may stay unused. `source` is where it came from (a file or a name)."""
    name: str
    target: Target
    pieces: tuple[Piece, ...]
    mirror: bool = False
    copies: tuple[tuple[str, int], ...] = ()
    preplaced: tuple[tuple[str, tuple[int, ...]], ...] = ()
    spare: bool = False
    source: str = ""

    @property
    def size(self) -> int:
        return self.target.size

    @property
    def flat(self) -> bool:
        """A board: one layer, and every piece flat; pieces then turn in the plane."""
        return self.target.flat and all(len({c[2] for c in p.cells}) == 1 for p in self.pieces)

    def count_of(self, name: str) -> int:
        return dict(self.copies).get(name, 1)

    @property
    def piece_cells(self) -> int:
        return sum(p.size * self.count_of(p.name) for p in self.pieces)

    @cached_property
    def placements(self) -> dict[str, tuple[Placement, ...]]:
        """Every placement of every piece (688 for the Soma cube), keeping pre-placed cells:
        a piece with pre-placed cells covers them all, no other piece covers them."""
        out = {p.name: piece_placements(p, self.target, self.mirror, self.flat) for p in self.pieces}
        if not self.preplaced:
            return out
        owned = {c: name for name, cells in self.preplaced for c in cells}
        for name, ps in out.items():
            mine = {c for c, n in owned.items() if n == name}
            keep = [p for p in ps if mine <= set(p.cells) and not any(owned.get(c, name) != name for c in p.cells)]
            out[name] = tuple(Placement(p.piece, k, p.cells, p.mask) for k, p in enumerate(keep))
        return out

    @cached_property
    def group(self) -> tuple[Symmetry, ...]:
        """The puzzle's symmetries (48 for the Soma cube, 24 of them reflections that swap A, B;
        a flat board has the plane's), keeping pre-placed cells with their piece."""
        group = symmetry_group(self.target, self.pieces, self.mirror, self.flat)
        if self.preplaced:
            want = {(name, tuple(sorted(cells))) for name, cells in self.preplaced}
            group = tuple(g for g in group
                          if {(dict(g.relabel)[n], tuple(sorted(g.perm[c] for c in cells)))
                              for n, cells in self.preplaced} == want)
        return group

    @property
    def copies_map(self) -> dict[str, int] | None:
        return dict(self.copies) if self.copies else None


SOMA_CUBE = Puzzle("Soma cube", CUBE, SOMA, source="soma")


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
    singles = {n for n in puzzle.placements if puzzle.count_of(n) == 1}
    table, held = reduce_by_symmetry(puzzle.placements, puzzle.group, singles)
    return Problem(puzzle, table, held)


def seed_groups(puzzle: Puzzle = SOMA_CUBE) -> list[list[Placement]]:
    """The seed's fixed-order search: L held at its two placements, then P A B Z T V."""
    return held_groups(puzzle.placements, SEED_ORDER, {"L": SEED_HELD_L})


__all__ = ["Puzzle", "Problem", "SOMA_CUBE", "soma_problem", "seed_groups", "orbit_representatives"]
