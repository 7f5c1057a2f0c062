"""Cells, shapes and the symmetries of the cube: 24 proper rotations generated, 24 mirrored."""
from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int, int]
Shape = tuple[Cell, ...]
Matrix = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]

IDENTITY: Matrix = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
QUARTER_X: Matrix = ((1, 0, 0), (0, 0, -1), (0, 1, 0))   # (x, y, z) -> (x, -z, y)
QUARTER_Z: Matrix = ((0, -1, 0), (1, 0, 0), (0, 0, 1))   # (x, y, z) -> (-y, x, z)
MIRROR_X: Matrix = ((-1, 0, 0), (0, 1, 0), (0, 0, 1))    # (x, y, z) -> (-x, y, z)


def apply(m: Matrix, cell: Cell) -> Cell:
    """The image of one cell under a matrix."""
    x, y, z = cell
    (a, b, c), (d, e, f), (g, h, i) = m
    return a * x + b * y + c * z, d * x + e * y + f * z, g * x + h * y + i * z


def compose(a: Matrix, b: Matrix) -> Matrix:
    """The matrix of 'first b, then a'."""
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3))
                 for i in range(3))  # type: ignore[return-value]


def determinant(m: Matrix) -> int:
    (a, b, c), (d, e, f), (g, h, i) = m
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def closure(generators: Iterable[Matrix]) -> tuple[Matrix, ...]:
    """Every product of the generators, breadth first from the identity (a stable order)."""
    gens = tuple(generators)
    seen = [IDENTITY]
    known = {IDENTITY}
    for m in seen:                      # `seen` grows while we walk it
        for g in gens:
            p = compose(g, m)
            if p not in known:
                known.add(p)
                seen.append(p)
    return tuple(seen)


ROTATIONS: tuple[Matrix, ...] = closure((QUARTER_X, QUARTER_Z))
"""The 24 proper rotations of the cube, the closure of two quarter turns."""

SYMMETRIES: tuple[Matrix, ...] = ROTATIONS + tuple(compose(r, MIRROR_X) for r in ROTATIONS)
"""All 48 symmetries of the cube: the 24 rotations, then the 24 rotations after a mirror."""


PLANE_ROTATIONS: tuple[Matrix, ...] = closure((QUARTER_Z,))
"""The 4 rotations of the plane z = 0 (about the z axis): a flat board's proper symmetries."""

PLANE_SYMMETRIES: tuple[Matrix, ...] = PLANE_ROTATIONS + tuple(compose(r, MIRROR_X) for r in PLANE_ROTATIONS)
"""The plane's 8 symmetries: 4 rotations, then 4 reflections (a piece turned over)."""


def group(flat: bool, mirrored: bool) -> tuple[Matrix, ...]:
    """The matrices that move pieces: in space 24 rotations (48 with mirrors), on a flat
    board the plane's 4 rotations (8 with reflections)."""
    if flat:
        return PLANE_SYMMETRIES if mirrored else PLANE_ROTATIONS
    return SYMMETRIES if mirrored else ROTATIONS


def is_proper(m: Matrix) -> bool:
    """True for a rotation, False for a symmetry that mirrors."""
    return determinant(m) == 1


def normalize(cells: Iterable[Cell]) -> Shape:
    """The cells moved so that their smallest x, y and z are 0, sorted by (z, y, x)."""
    cells = list(cells)
    xs, ys, zs = zip(*cells)
    mx, my, mz = min(xs), min(ys), min(zs)
    return tuple(sorted([(x - mx, y - my, z - mz) for x, y, z in cells], key=zyx))


def zyx(cell: Cell) -> tuple[int, int, int]:
    """Sort key of the project's cell order: z first, then y, then x (cell index x + 3y + 9z)."""
    return cell[2], cell[1], cell[0]


def transform(m: Matrix, cells: Iterable[Cell]) -> Shape:
    """The normalized image of a shape under a matrix."""
    return normalize(apply(m, c) for c in cells)


def mirror(cells: Iterable[Cell]) -> Shape:
    """The mirror image of a shape (x negated), normalized."""
    return transform(MIRROR_X, cells)


def orientations(cells: Iterable[Cell], mirrored: bool = False, flat: bool = False) -> tuple[Shape, ...]:
    """The distinct normalized images of a shape under the 24 rotations (48 with `mirrored`);
    with `flat`, under the plane's 4 rotations (8 with `mirrored`)."""
    cells = tuple(cells)
    out: dict[Shape, None] = {}
    for m in group(flat, mirrored):
        out.setdefault(transform(m, cells), None)
    return tuple(out)


def is_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one face-connected polycube."""
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    todo, seen = [start], {start}
    while todo:
        x, y, z = todo.pop()
        for n in ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1), (x, y, z - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)
