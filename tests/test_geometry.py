"""The rotations are generated, and the Soma pieces have their known orientation counts."""
from hypothesis import given, strategies as st

from soma.geometry import (ROTATIONS, SYMMETRIES, apply, compose, determinant, is_connected,
                           mirror, normalize, orientations)
from soma.pieces import SOMA, by_name

cells = st.tuples(st.integers(-4, 4), st.integers(-4, 4), st.integers(-4, 4))


def test_24_rotations_48_symmetries():
    assert len(set(ROTATIONS)) == 24
    assert len(set(SYMMETRIES)) == 48
    assert all(determinant(m) == 1 for m in ROTATIONS)
    assert all(determinant(m) == -1 for m in SYMMETRIES[24:])


def test_rotations_form_a_group():
    rs = set(ROTATIONS)
    assert all(compose(a, b) in rs for a in ROTATIONS for b in ROTATIONS)


def test_orientation_counts():
    counts = {p.name: len(orientations(p.cells)) for p in SOMA}
    assert counts == {"V": 12, "L": 24, "T": 12, "Z": 12, "A": 12, "B": 12, "P": 8}


def test_screws_are_mirror_images_and_chiral():
    p = by_name(SOMA)
    screw = normalize(((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)))
    assert screw in orientations(p["A"].cells)
    assert normalize(mirror(p["A"].cells)) in orientations(p["B"].cells)
    assert p["B"].cells not in orientations(p["A"].cells)
    for name in "VLTZP":  # the others are their own mirror images
        assert mirror(p[name].cells) in orientations(p[name].cells)


def test_pieces_are_connected_and_sized():
    assert sorted(p.size for p in SOMA) == [3, 4, 4, 4, 4, 4, 4]
    assert all(is_connected(p.cells) for p in SOMA)
    assert sum(p.size for p in SOMA) == 27
    assert len({p.colour for p in SOMA}) == 7


@given(st.sets(cells, min_size=1, max_size=6), st.sampled_from(SYMMETRIES))
def test_normalize_is_translation_invariant(shape, m):
    moved = [(x + 3, y - 2, z + 1) for x, y, z in shape]
    assert normalize(moved) == normalize(shape)
    image = normalize(apply(m, c) for c in shape)
    assert len(image) == len(shape)
    assert min(c[0] for c in image) == 0
