"""The pieces as data: the seven Soma pieces with the seed's long names and a fixed colour each."""
from __future__ import annotations

from dataclasses import dataclass

from .geometry import Shape, mirror, normalize


@dataclass(frozen=True)
class Piece:
    """A named polycube: `name` is one letter, `cells` its normalized shape, `colour` a hex RGB."""
    name: str
    long_name: str
    cells: Shape
    colour: str

    @property
    def size(self) -> int:
        return len(self.cells)


def _piece(name: str, long_name: str, cells, colour: str) -> Piece:
    return Piece(name, long_name, normalize(cells), colour)


_SCREW = ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1))

SOMA: tuple[Piece, ...] = (
    _piece("V", "L Tri Cube", ((0, 0, 0), (1, 0, 0), (0, 1, 0)), "#1f9fd0"),
    _piece("L", "L Tetra Cube", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)), "#2e7d32"),
    _piece("T", "T Tetra Cube", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)), "#f57c00"),
    _piece("Z", "S Tetra Cube", ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)), "#c62828"),
    _piece("A", "Right Screw Tetra Cube", _SCREW, "#fbc02d"),
    _piece("B", "Left Screw Tetra Cube", mirror(_SCREW), "#1e40c8"),
    _piece("P", "Branch Tetra Cube", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)), "#e91e8c"),
)
"""The Soma set: V (3 cells) and six tetracubes; A is the screw {(0,0,0),(1,0,0),(0,1,0),(0,1,1)},
B its mirror image. Orientations under the 24 rotations: V 12, L 24, T 12, Z 12, A 12, B 12, P 8."""

SEED_ORDER = "LPABZTV"
"""The order in which the seed's fixed-order search tries the pieces."""

PIECE_SETS: dict[str, tuple[Piece, ...]] = {"soma": SOMA}


def by_name(pieces: tuple[Piece, ...]) -> dict[str, Piece]:
    """The pieces of a set, keyed by their letter."""
    return {p.name: p for p in pieces}
