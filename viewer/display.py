"""What the 3D view draws, as plain data and numpy arrays (no Qt, no vispy): which cells hold
which piece, which layers are hidden, how far the layers are pulled apart, which piece stands
out; and the one merged mesh (plus edge segments) that draws it."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from soma.bitmask import CUBE, Target

GAP = 0.1                 # between neighbouring cubes
EMPTY_SIZE = 0.22         # the small marker drawn in an empty cell
EDGE_COLOUR = (0.1, 0.1, 0.12, 1.0)
EMPTY_COLOUR = "#c8ccd2"
PLAIN_COLOUR = "#8a8f98"      # a set cell with no piece colour (the playground's plain OR)
LIGHT = np.array([0.35, -0.45, 0.82]) / np.linalg.norm([0.35, -0.45, 0.82])
HIGHLIGHT = {"place": (1.0, 1.0, 1.0, 1.0), "remove": (0.95, 0.1, 0.1, 1.0),
             "test": (0.55, 0.55, 0.6, 1.0), "solution": (1.0, 0.85, 0.1, 1.0),
             "aux": (0.55, 0.15, 0.85, 1.0)}
AXES = "xyz"


@dataclass(frozen=True)
class Display:
    """One picture's worth of state."""
    letters: str                                     # one mark per target cell, '.' for empty
    colours: dict[str, str] = field(default_factory=dict, compare=False)
    hidden: frozenset[tuple[int, int]] = frozenset()  # (axis, index): axis 0 x, 1 y, 2 z
    explode: float = 0.0                             # 0: packed; 1: layers a whole cell apart
    highlight: tuple[int, ...] = ()                  # cells to outline
    highlight_kind: str = "place"
    show_empty: bool = True
    offsets: dict[int, tuple[float, float, float]] = field(default_factory=dict, compare=False)
    empty_size: float = EMPTY_SIZE                   # the marker of an empty cell

    def with_(self, **changes) -> "Display":
        return replace(self, **changes)


def layer_name(axis: int, index: int) -> str:
    return f"{AXES[axis]}={index}"


def parse_layer(text: str) -> tuple[int, int]:
    """'z=2' -> (2, 2); ValueError with what is expected."""
    axis, sep, index = text.strip().partition("=")
    if not sep or axis not in AXES or not index.isdigit():
        raise ValueError(f"{text!r} is not a layer: write x=0, y=1, z=2 and so on")
    return AXES.index(axis), int(index)


def visible(cell: tuple[int, int, int], hidden: frozenset[tuple[int, int]]) -> bool:
    return not any((axis, cell[axis]) in hidden for axis in range(3))


def centre(cell, explode: float, dims) -> np.ndarray:
    """Where a cell's cube sits: its centre, pushed out from the middle by `explode`."""
    c = np.asarray(cell, dtype=float)
    middle = (np.asarray(dims, dtype=float) - 1) / 2
    return c + 0.5 + explode * (c - middle)


def hex_rgba(colour: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    return (int(colour[1:3], 16) / 255, int(colour[3:5], 16) / 255, int(colour[5:7], 16) / 255, alpha)


def _cube_template():
    corners = np.array([[(i >> 0) & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=float) - 0.5
    quads, normals = [], []
    for axis in range(3):
        for side in (0, 1):
            ids = [i for i in range(8) if (i >> axis) & 1 == side]
            a, b, c, d = ids                        # a square in binary order: a b / c d
            quad = [a, b, d, c]
            n = np.zeros(3)
            n[axis] = 1 if side else -1
            if np.dot(np.cross(corners[quad[1]] - corners[quad[0]], corners[quad[2]] - corners[quad[0]]), n) < 0:
                quad.reverse()                      # counter-clockwise seen from outside
            quads.append(quad)
            normals.append(n)
    faces = np.array([[q[0], q[1], q[2]] for q in quads] + [[q[0], q[2], q[3]] for q in quads])
    face_normals = np.array(normals + normals)
    edges = np.array([(i, j) for i in range(8) for j in range(i + 1, 8)
                      if bin(i ^ j).count("1") == 1])
    return corners, faces, face_normals, edges


CORNERS, FACES, FACE_NORMALS, EDGES = _cube_template()
SHADE = 0.5 + 0.5 * np.clip(FACE_NORMALS @ LIGHT, 0, 1)      # flat light, one value per face


@dataclass
class Mesh:
    vertices: np.ndarray        # (V, 3) float32
    faces: np.ndarray           # (F, 3) uint32
    face_colors: np.ndarray     # (F, 4) float32
    edges: np.ndarray           # (2E, 3) float32, segment end points
    outline: np.ndarray         # (2K, 3) float32, the highlighted piece's edges
    cells: np.ndarray           # (F,) the cell index each face belongs to (-1: marker)
    picks: np.ndarray           # (F,) the cell index of every face, markers included


def build_mesh(display: Display, target: Target = CUBE) -> Mesh:
    """One merged mesh for every visible cube (faces coloured and flat-lit), their edges as
    segments, and the outline of the highlighted cells."""
    dims = target.dims
    verts, faces, colours, edges, owners, outline, picks = [], [], [], [], [], [], []
    nverts = 0
    for i, cell in enumerate(target.cells):
        if not visible(cell, display.hidden):
            continue
        mark = display.letters[i] if i < len(display.letters) else "."
        c = centre(cell, display.explode, dims)
        if i in display.offsets:
            c = c + np.asarray(display.offsets[i])
        if mark in display.colours:
            size, rgba, owner = 1 - GAP, hex_rgba(display.colours[mark]), i
        elif mark != ".":
            size, rgba, owner = 1 - GAP, hex_rgba(PLAIN_COLOUR), i
        elif display.show_empty:
            size, rgba, owner = display.empty_size, hex_rgba(EMPTY_COLOUR), -1
        else:
            continue
        corners = c + CORNERS * size
        verts.append(corners)
        faces.append(FACES + nverts)
        shaded = np.array(rgba)[None, :].repeat(len(FACES), 0)
        shaded[:, :3] *= SHADE[:, None]
        colours.append(shaded)
        owners.append(np.full(len(FACES), owner))
        picks.append(np.full(len(FACES), i))
        if owner >= 0:
            edges.append(corners[EDGES].reshape(-1, 3))
        nverts += 8
    for i in display.highlight:
        cell = target.cells[i]
        if visible(cell, display.hidden):
            corners = centre(cell, display.explode, dims) + CORNERS * (1 - GAP / 3)
            outline.append(corners[EDGES].reshape(-1, 3))

    def stack(parts, width, dtype):
        return np.concatenate(parts).astype(dtype) if parts else np.zeros((0, width), dtype)
    return Mesh(stack(verts, 3, np.float32), stack(faces, 3, np.uint32), stack(colours, 4, np.float32),
                stack(edges, 3, np.float32), stack(outline, 3, np.float32),
                np.concatenate(owners) if owners else np.zeros(0, int),
                np.concatenate(picks) if picks else np.zeros(0, int))
