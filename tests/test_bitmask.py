"""Cell <-> bit round trips, the readable forms, and the 688 placements of the Soma pieces."""
import pytest
from bitarray import frozenbitarray
from hypothesis import given, strategies as st

from soma.bitmask import (CUBE, bits, cells_of, from_hex, indices_of, mask_of, picture,
                          piece_placements, placements, to_hex)
from soma.pieces import SOMA

index_sets = st.sets(st.integers(0, 26), max_size=27)


def test_cell_index_is_x_plus_3y_plus_9z():
    for (x, y, z), i in CUBE.index.items():
        assert i == x + 3 * y + 9 * z
    assert CUBE.size == 27


def test_seed_examples():
    s = from_hex("B4")
    assert indices_of(s) == (19, 21, 22, 24)
    assert bits(s) == "000000000000000000010110100"
    t = mask_of([0, 9, 10, 18])
    assert to_hex(s | t) == "40301B4"
    assert to_hex(from_hex("B")) == "B" and indices_of(from_hex("b")) == (23, 25, 26)


def test_picture_shows_layers():
    pic = picture(mask_of([0, 1, 3, 6]))
    assert pic.splitlines() == ["z=0  z=1  z=2", "##.  ...  ...", "#..  ...  ...", "#..  ...  ..."]


@given(index_sets)
def test_round_trips(idx):
    m = mask_of(idx)
    assert isinstance(m, frozenbitarray) and len(m) == 27
    assert set(indices_of(m)) == idx
    assert mask_of(cells_of(m)) == m
    assert from_hex(to_hex(m)) == m
    assert frozenbitarray(bits(m)) == m
    assert int(to_hex(m), 16) == int(bits(m), 2)


@pytest.mark.parametrize("bad", ["xyz", "", "8000000", "-1"])
def test_bad_hex_is_refused(bad):
    with pytest.raises(ValueError):
        from_hex(bad)


def test_placement_counts():
    counts = {k: len(v) for k, v in placements(SOMA).items()}
    assert counts == {"V": 144, "L": 144, "T": 72, "Z": 72, "A": 96, "B": 96, "P": 64}
    assert sum(counts.values()) == 688


def test_placements_are_distinct_valid_masks():
    for piece in SOMA:
        pls = piece_placements(piece)
        assert len({p.mask for p in pls}) == len(pls)
        for n, p in enumerate(pls):
            assert p.number == n and p.piece == piece.name
            assert p.mask.count() == piece.size
            assert indices_of(p.mask) == p.cells
