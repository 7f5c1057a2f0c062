"""The target's symmetry group acting on placements and solutions; canonical forms and counts.

A symmetry is one of the cube's 48 matrices that maps the target onto itself and every piece onto
a piece of the set (a reflection swaps the Soma screws A and B). Solutions are handled as letter
strings, one piece letter per target cell in bit order.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter

from .bitmask import Placement, Target
from .geometry import Matrix, apply, is_proper, normalize, orientations
from .geometry import group as group_of
from .pieces import Piece


@dataclass(frozen=True)
class Symmetry:
    """A symmetry of a puzzle: `perm[i]` is the bit that cell i goes to, `relabel` maps piece
    names (identity for a rotation, A <-> B for a Soma reflection)."""
    matrix: Matrix
    perm: tuple[int, ...]
    relabel: tuple[tuple[str, str], ...]
    proper: bool

    def letters(self, s: str) -> str:
        """The image of a solution given as letters."""
        out = [""] * len(s)
        rel = dict(self.relabel)
        for i, ch in enumerate(s):
            out[self.perm[i]] = rel.get(ch, ch)
        return "".join(out)


def _relabel(m: Matrix, pieces: Sequence[Piece], shapes: Mapping[tuple, str]) -> dict[str, str] | None:
    """Where each piece goes under a matrix, or None if some image is not a piece of the set."""
    out = {}
    for p in pieces:
        name = shapes.get(normalize(apply(m, c) for c in p.cells))
        if name is None:
            return None
        out[p.name] = name
    return out


def symmetry_group(target: Target, pieces: Sequence[Piece], mirrored: bool = False,
                   flat: bool = False) -> tuple[Symmetry, ...]:
    """The symmetries of the target that map the piece set onto itself (mirrored pieces: all of
    the target's symmetries; a flat board: the plane's). The Soma cube has 48: 24 rotations,
    24 that swap A and B."""
    cells = target.cells
    base = normalize(cells)
    shift = tuple(min(c[i] for c in cells) for i in range(3))
    shapes = {shape: p.name for p in reversed(pieces) for shape in orientations(p.cells, flat=flat)}
    group = []
    for m in group_of(flat, True):
        if set(normalize(apply(m, c) for c in cells)) != set(base):
            continue
        rel = {p.name: p.name for p in pieces} if mirrored else _relabel(m, pieces, shapes)
        if rel is None:
            continue
        image = [apply(m, c) for c in cells]
        lo = tuple(min(c[i] for c in image) for i in range(3))
        perm = tuple(target.index[tuple(c[i] - lo[i] + shift[i] for i in range(3))] for c in image)
        group.append(Symmetry(m, perm, tuple(sorted(rel.items())), is_proper(m)))
    return tuple(group)


class Canonizer:
    """Fast images and canonical forms of letter strings under a group."""

    def __init__(self, group: Iterable[Symmetry]):
        self.group = tuple(group)
        self._maps = []
        for g in self.group:
            inv = [0] * len(g.perm)
            for i, j in enumerate(g.perm):
                inv[j] = i
            table = str.maketrans(dict(g.relabel)) if any(a != b for a, b in g.relabel) else None
            self._maps.append((itemgetter(*inv), table))

    def images(self, s: str) -> list[str]:
        """The image of s under every group element, in the group's order. A solution of a puzzle
        with copies is 'letters|copies' (see `copy_key`); its copies are renumbered after the move."""
        if "|" in s:
            letters, copies = s.split("|")
            return [copy_key(a, b) for a, b in zip(self.images(letters), self._moved(copy_numbers(copies)))]
        out = []
        for pick, table in self._maps:
            t = "".join(pick(s))
            out.append(t.translate(table) if table else t)
        return out

    def _moved(self, ids: list[str]) -> list[tuple[str, ...]]:
        if len(ids) == 1:                        # itemgetter of one index gives the item itself
            return [tuple(ids)] * len(self._maps)
        return [pick(ids) for pick, _ in self._maps]

    def canonical(self, s: str) -> str:
        """The least image of s: one representative per class."""
        return min(self.images(s))


def copy_key(letters: str, copies: Sequence[Hashable]) -> str:
    """'letters|copies': which copy covers each cell (`copies`, one id a cell, any values), the
    copies of each piece numbered 0, 1, ... in the order of their first cell, so that fillings
    differing only in which copy sits where are one key. The numbers run together when all are
    below 10 ('0101'), and are separated by dots otherwise ('0.1.10.10'), so no two keys collide."""
    seen: dict[tuple[str, Hashable], int] = {}
    per: dict[str, int] = {}
    out = []
    for ch, c in zip(letters, copies):
        key = (ch, c)
        if key not in seen:
            seen[key] = per.get(ch, 0)
            per[ch] = seen[key] + 1
        out.append(seen[key])
    sep = "." if out and max(out) > 9 else ""
    return f"{letters}|{sep.join(map(str, out))}"


def copy_numbers(copies: str) -> list[str]:
    """The per-cell copy numbers of the part of a key after '|' (see `copy_key`)."""
    return copies.split(".") if "." in copies else list(copies)


def rotation_subgroup(group: Iterable[Symmetry]) -> tuple[Symmetry, ...]:
    return tuple(g for g in group if g.proper)


@dataclass(frozen=True)
class Counts:
    fixed: int
    rotations: int
    unique: int


def count_classes(unique: Iterable[str], group: Sequence[Symmetry]) -> Counts:
    """Expand unique solutions (one per class under `group`) into the three counts, exactly:
    a class holds |G| / |Stab(s)| fixed solutions, and |G.s| / |R.s| classes under rotations."""
    full = Canonizer(group)
    rots = Canonizer(rotation_subgroup(group))
    fixed = rotations = n = 0
    for s in unique:
        orbit = len(set(full.images(s)))
        fixed += orbit
        rotations += orbit // len(set(rots.images(s)))
        n += 1
    return Counts(fixed, rotations, n)


def place_image(g: Symmetry, p: Placement) -> tuple[str, tuple[int, ...]]:
    """Piece name and cells of a placement's image."""
    return dict(g.relabel)[p.piece], tuple(sorted(g.perm[i] for i in p.cells))


def orbit_representatives(placements: Sequence[Placement], group: Sequence[Symmetry]) -> list[Placement]:
    """The first placement (in list order) of each orbit of a piece's placements under the group.
    The piece must be mapped to itself by every element."""
    by_cells = {p.cells: p for p in placements}
    seen: set[tuple[int, ...]] = set()
    reps = []
    for p in placements:
        if p.cells in seen:
            continue
        reps.append(p)
        for g in group:
            seen.add(place_image(g, p)[1])
    assert seen <= set(by_cells)
    return reps


def reduce_by_symmetry(placements: Mapping[str, Sequence[Placement]], group: Sequence[Symmetry],
                       allowed: set[str] | None = None) -> tuple[dict[str, tuple[Placement, ...]], str | None]:
    """Restrict one piece to a representative of each orbit of its placements, so that every
    class of solutions is still found at least once (duplicates, if a representative has
    symmetries of its own, are removed by canonical form). Picks the piece mapped to itself by
    every symmetry with the fewest representatives; returns the new table and that piece."""
    best = None
    for name, ps in placements.items():
        if not ps or any(dict(g.relabel)[name] != name for g in group) or (allowed is not None and name not in allowed):
            continue
        reps = orbit_representatives(ps, group)
        if best is None or len(reps) < len(best[1]):
            best = (name, reps)
    if best is None:
        return dict(placements), None
    out = dict(placements)
    out[best[0]] = tuple(best[1])
    return out, best[0]
