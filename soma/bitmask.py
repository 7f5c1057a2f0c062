"""The one owner of cell <-> bit: targets, masks and their readable forms, and every placement.

A target's cells are numbered in (z, y, x) order, so in the 3x3x3 box cell (x, y, z) is bit
x + 3y + 9z. A mask is a `frozenbitarray` with one bit per target cell, bit 0 first. Its hex form
reads the bit string as a binary number with cell 0 most significant, as the seed's playground
does: hex ``B4`` is cells 19, 21, 22 and 24 (the S tetracube on the +Z face).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from bitarray import bitarray, frozenbitarray
from bitarray.util import ba2int, int2ba

from .geometry import Cell, Shape, orientations
from .pieces import Piece


@dataclass(frozen=True)
class Target:
    """The shape to fill: its cells in bit order. `order` names the axes from the slowest to the
    fastest: (2, 1, 0), the default, sorts by z, then y, then x (x + 3y + 9z in the 3x3x3 box)."""
    cells: Shape
    order: tuple[int, int, int] = (2, 1, 0)
    index: dict[Cell, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self):
        o = self.order
        cells = tuple(sorted(set(self.cells), key=lambda c: (c[o[0]], c[o[1]], c[o[2]])))
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "index", {c: i for i, c in enumerate(cells)})

    @classmethod
    def box(cls, nx: int, ny: int, nz: int) -> "Target":
        return cls(tuple((x, y, z) for z in range(nz) for y in range(ny) for x in range(nx)))

    @classmethod
    def scanning_short_side(cls, cells) -> "Target":
        """Cells ordered so that the fastest axis is the shortest one: the first-cell search
        then runs along the short side (4x15: 0.09 s where the long side takes 83 s in C)."""
        cells = tuple(cells)
        span = [max(c[a] for c in cells) - min(c[a] for c in cells) + 1 for a in range(3)]
        order = tuple(sorted((2, 1, 0), key=lambda a: -span[a]))    # ties keep z, y, x
        return cls(cells, order)  # type: ignore[arg-type]

    @property
    def flat(self) -> bool:
        """One layer only: a board."""
        return len({c[2] for c in self.cells}) == 1

    def order_words(self) -> str:
        a = "xyz"
        return f"sorted by {a[self.order[0]]}, then {a[self.order[1]]}, then {a[self.order[2]]}"

    @property
    def size(self) -> int:
        return len(self.cells)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell index, the indices of the target cells that share a face with it."""
        out = []
        for x, y, z in self.cells:
            near = ((x - 1, y, z), (x + 1, y, z), (x, y - 1, z), (x, y + 1, z), (x, y, z - 1), (x, y, z + 1))
            out.append(tuple(sorted(self.index[n] for n in near if n in self.index)))
        return tuple(out)

    @property
    def dims(self) -> tuple[int, int, int]:
        """The extent of the bounding box along x, y and z."""
        return tuple(max(c[i] for c in self.cells) + 1 for i in range(3))  # type: ignore[return-value]


CUBE = Target.box(3, 3, 3)
"""The Soma cube's target: the 3x3x3 box, 27 cells."""


def empty(target: Target = CUBE) -> bitarray:
    """A fresh all-zero mutable register for the target."""
    return bitarray(target.size)  # bitarray >= 3 starts zeroed


def mask_of(cells: Iterable[Cell | int], target: Target = CUBE) -> frozenbitarray:
    """The mask of some cells, given as (x, y, z) tuples or as bit indices."""
    a = empty(target)
    for c in cells:
        i = c if isinstance(c, int) else target.index.get(c)
        if i is None or not 0 <= i < target.size:
            raise ValueError(f"cell {c} is not in the target")
        a[i] = 1
    return frozenbitarray(a)


def indices_of(mask: bitarray) -> tuple[int, ...]:
    """The bit indices that are set, ascending."""
    return tuple(mask.search(1))


def cells_of(mask: bitarray, target: Target = CUBE) -> Shape:
    """The (x, y, z) cells of a mask, in bit order."""
    return tuple(target.cells[i] for i in mask.search(1))


def bits(mask: bitarray) -> str:
    """The bit string, cell 0 first: '000000000000000000010110100' for hex B4."""
    return mask.to01()


def grouped_bits(mask: bitarray, group: int = 9) -> str:
    """The bit string in groups (layers of the box by default): '000000000 000000000 010110100'."""
    s = mask.to01()
    return " ".join(s[i:i + group] for i in range(0, len(s), group))


def to_hex(mask: bitarray) -> str:
    """The mask as hex, the bit string read as a binary number with cell 0 most significant."""
    return f"{ba2int(bitarray(mask)):X}" if mask.any() else "0"


def from_hex(text: str, target: Target = CUBE) -> frozenbitarray:
    """The mask written as hex (see `to_hex`); ValueError names what is wrong."""
    t = text.strip().removeprefix("0x").removeprefix("0X")
    try:
        value = int(t, 16)
    except ValueError:
        raise ValueError(f"{text!r} is not a hex number") from None
    if value < 0 or value.bit_length() > target.size:
        raise ValueError(f"hex {text!r} needs more than {target.size} bits")
    return frozenbitarray(int2ba(value, length=target.size))


def picture(mask: bitarray, target: Target = CUBE, on: str = "#", off: str = ".") -> str:
    """The layers z = 0, 1, ... side by side, row y = 0 on top, x left to right; ' ' for no cell."""
    return layers([on if b else off for b in mask], target)


def layers(marks, target: Target = CUBE, paint=None) -> str:
    """One mark per cell (in bit order) drawn as the target's layers side by side: z = 0 on the
    left, row y = 0 on top, x left to right. `paint(mark)` may wrap a mark (colour, say)."""
    nx, ny, nz = target.dims
    rows = []
    for y in range(ny):
        layer_rows = []
        for z in range(nz):
            row = ""
            for x in range(nx):
                i = target.index.get((x, y, z))
                mark = " " if i is None else marks[i]
                row += paint(mark) if paint and i is not None else mark
            layer_rows.append(row)
        rows.append("  ".join(layer_rows))
    header = "  ".join(f"z={z}".ljust(nx) for z in range(nz))
    return "\n".join([header.rstrip()] + rows)


@dataclass(frozen=True)
class Placement:
    """One way to put a piece in the target: the piece's name, its number in that piece's list,
    the bit indices it covers and its mask."""
    piece: str
    number: int
    cells: tuple[int, ...]
    mask: frozenbitarray

    def __str__(self) -> str:
        return f"{self.piece}#{self.number} {list(self.cells)}"


def letters_of(placements, size: int, empty: str = ".") -> str:
    """One piece letter per target cell, in bit order, for some placements ('.' elsewhere)."""
    marks = [empty] * size
    for p in placements:
        for i in p.cells:
            marks[i] = p.piece
    return "".join(marks)


def piece_placements(piece: Piece, target: Target = CUBE, mirrored: bool = False,
                     flat: bool | None = None) -> tuple[Placement, ...]:
    """Every placement of a piece in the target: each orientation, moved so that its first cell
    lands on each target cell in turn. The 3x3x3 box has V 144, L 144, T 72, Z 72, A 96, B 96, P 64.
    On a flat target (unless `flat` is False) pieces turn in the plane only."""
    out: list[Placement] = []
    seen: set[tuple[int, ...]] = set()
    flat = target.flat and len({c[2] for c in piece.cells}) == 1 if flat is None else flat
    for shape in orientations(piece.cells, mirrored, flat):
        ax, ay, az = shape[0]
        for tx, ty, tz in target.cells:
            idx = [target.index.get((x - ax + tx, y - ay + ty, z - az + tz)) for x, y, z in shape]
            if None in idx:
                continue
            key = tuple(sorted(idx))
            if key not in seen:
                seen.add(key)
                out.append(Placement(piece.name, len(out), key, mask_of(key, target)))
    return tuple(out)


def placements(pieces: Iterable[Piece], target: Target = CUBE, mirrored: bool = False) -> dict[str, tuple[Placement, ...]]:
    """The placements of every piece, keyed by piece name, in the pieces' order."""
    return {p.name: piece_placements(p, target, mirrored) for p in pieces}
