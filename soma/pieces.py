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

PALETTE = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
           "#bfef45", "#469990", "#9a6324", "#800000", "#808000", "#000075", "#fabed4", "#aaffc3")


def flat_cells(text: str) -> tuple:
    """The cells of a one-layer picture: '#' is a cell, rows from y = 0 down, x to the right."""
    rows = [r for r in text.strip("\n").split("\n")]
    return normalize((x, y, 0) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#")


def _flat_set(spec) -> tuple[Piece, ...]:
    return tuple(Piece(name, long, flat_cells(text), PALETTE[k % len(PALETTE)])
                 for k, (name, long, text) in enumerate(spec))


PENTOMINOES = _flat_set([
    ("F", "F pentomino", ".##\n##.\n.#."), ("I", "I pentomino", "#####"),
    ("L", "L pentomino", "####\n#..."), ("N", "N pentomino", "##..\n.###"),
    ("P", "P pentomino", "##\n##\n#."), ("T", "T pentomino", "###\n.#.\n.#."),
    ("U", "U pentomino", "#.#\n###"), ("V", "V pentomino", "#..\n#..\n###"),
    ("W", "W pentomino", "#..\n##.\n.##"), ("X", "X pentomino", ".#.\n###\n.#."),
    ("Y", "Y pentomino", "####\n.#.."), ("Z", "Z pentomino", "##.\n.#.\n.##"),
])
"""The 12 pentominoes (use with mirror = true: they may be turned over)."""

TETROMINOES = _flat_set([
    ("I", "I tetromino", "####"), ("O", "O tetromino", "##\n##"), ("T", "T tetromino", "###\n.#."),
    ("S", "S tetromino", ".##\n##."), ("L", "L tetromino", "###\n#.."),
])
"""The 5 free tetrominoes."""

EIGHT = _flat_set([
    ("Z", "Z piece", "##.\n.##"), ("T", "T piece", "###\n.#."), ("O", "2x2 square", "##\n##"),
    ("L", "L piece", "###\n#.."), ("V", "short L", "##\n#."), ("D", "1x2 bar", "##"),
    ("I", "1x4 bar", "####"), ("E", "1x3 bar", "###"),
])
"""The eight pieces of seed 002's 6x6 puzzle; turned over they have 27 plane forms
(Z 4, T 4, square 1, L 8, short L 4, 1x2 2, 1x4 2, 1x3 2)."""

PIECE_SETS: dict[str, tuple[Piece, ...]] = {"soma": SOMA, "pentominoes": PENTOMINOES,
                                            "tetrominoes": TETROMINOES, "eight": EIGHT}


def by_name(pieces: tuple[Piece, ...]) -> dict[str, Piece]:
    """The pieces of a set, keyed by their letter."""
    return {p.name: p for p in pieces}
