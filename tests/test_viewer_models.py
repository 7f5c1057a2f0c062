"""The viewer's pure models, with no screen: replay cursor, solutions browser, display mesh."""
import random
from pathlib import Path

import numpy as np
import pytest

from soma.trace import Trace, read_events
from viewer.display import Display, build_mesh, centre, parse_layer
from viewer.replay import Replay, Solutions

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "data" / "fixed-order.trace.gz"
COLOURS = {"V": "#1f9fd0", "L": "#2e7d32", "T": "#f57c00", "Z": "#c62828", "A": "#fbc02d",
           "B": "#1e40c8", "P": "#e91e8c"}


@pytest.fixture(scope="module")
def replay():
    return Replay(Trace.open(str(SHIPPED)))


@pytest.fixture(scope="module")
def stacks():
    """The pieces on the board after every step, by replaying from step 0."""
    out, stack = [], []
    for e in read_events(str(SHIPPED)):
        if e.kind == "place":
            stack.append((e.placement.piece, e.placement.number))
        elif e.kind == "remove":
            stack.remove((e.placement.piece, e.placement.number))
        out.append(list(stack))
    return out


def test_random_steps_equal_replay_from_the_start(replay, stacks):
    rng = random.Random(3)
    for step in [rng.randrange(replay.count) for _ in range(400)]:
        replay.go(step)
        assert [(p.piece, p.number) for p in replay.state().placements] == stacks[step]


def test_navigation(replay):
    seen = []
    replay.subscribe(lambda: seen.append(replay.step))
    replay.first()
    assert replay.step == -1 and replay.state().occupied.count() == 0
    replay.next()
    replay.next()
    assert replay.step == 1
    replay.previous()
    assert replay.step == 0
    s = replay.next_solution()
    assert replay.event().kind == "solution" and replay.state().occupied.all()
    assert replay.solutions_so_far() == 1
    assert "solution 1" in replay.describe(s) and "step" in replay.status()
    replay.last()
    assert replay.step == replay.count - 1
    replay.next()
    assert replay.step == replay.count - 1          # clamped
    replay.go(-50)
    assert replay.step == -1
    assert seen[:3] == [-1, 0, 1]


def test_solutions_browser():
    sols = Solutions(["a", "b", "c"])
    sols.next()
    sols.next()
    sols.next()
    assert sols.index == 2 and sols.current() == "c"
    sols.previous()
    assert sols.status() == "solution 2 of 3"


def test_mesh_is_one_merged_mesh_with_flat_faces():
    letters = "AABABBLLLPVVABVLZZPPTPTTZZT"
    mesh = build_mesh(Display(letters, COLOURS, show_empty=False))
    assert mesh.vertices.shape == (27 * 8, 3) and mesh.faces.shape == (27 * 12, 3)
    assert len(mesh.edges) == 27 * 12 * 2
    assert len({tuple(np.round(c, 3)) for c in mesh.face_colors}) > 7      # pieces x shading


def test_hidden_layers_and_explode():
    letters = "AABABBLLLPVVABVLZZPPTPTTZZT"
    hidden = frozenset({parse_layer("z=2"), parse_layer("x=0")})
    mesh = build_mesh(Display(letters, COLOURS, hidden=hidden, show_empty=False))
    assert mesh.faces.shape[0] == 12 * 12          # 27 - 9 - 9 + 3 cells
    assert set(mesh.cells) <= {i for i in range(27) if i // 9 != 2 and i % 3 != 0}
    near, far = centre((0, 0, 0), 0.0, (3, 3, 3)), centre((0, 0, 0), 1.0, (3, 3, 3))
    assert np.allclose(far - near, [-1, -1, -1])
    assert np.allclose(centre((1, 1, 1), 1.0, (3, 3, 3)), [1.5, 1.5, 1.5])


def test_empty_cells_are_small_markers_and_highlight_outlines():
    mesh = build_mesh(Display("." * 27, COLOURS, highlight=(0, 1, 2), highlight_kind="remove"))
    assert (mesh.cells == -1).all() and len(mesh.edges) == 0
    assert len(mesh.outline) == 3 * 24


def test_bad_layer_names():
    for bad in ("w=1", "z", "z=x"):
        with pytest.raises(ValueError):
            parse_layer(bad)
