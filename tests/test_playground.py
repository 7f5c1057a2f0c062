"""The playground and assembly models, with no screen: every operation is bitarray's own."""
import pytest
from bitarray import bitarray
from hypothesis import given, strategies as st

from soma.bitmask import from_hex, to_hex
from viewer.assembly import Assembly
from viewer.playground import OPERATIONS, Playground

masks = st.lists(st.booleans(), min_size=27, max_size=27).map(bitarray)


@given(masks, masks, st.sampled_from(OPERATIONS))
def test_every_operation_is_the_bitarray_operation(cube, aux, op):
    pg = Playground()
    pg.cube = cube.copy()
    pg.aux = aux.copy()
    record = pg.apply(op)
    expected = {"OR": cube | aux, "AND": cube & aux, "AND-NOT": cube & ~aux, "XOR": cube ^ aux}[op]
    assert pg.cube == expected
    assert record.cube == cube and record.aux == aux and record.result == expected
    assert all((m != ".") == bool(b) for m, b in zip(pg.letters(), pg.cube))
    assert f"hex {to_hex(expected)}" in record.lines()[2]


def test_seed_walkthrough():
    pg = Playground()
    pg.set_aux_hex("B4")                 # the S tetracube on the +Z face
    pg.paint = "Z"
    pg.apply("OR")
    assert to_hex(pg.cube) == "B4" and pg.letters()[19] == "Z"
    pg.set_aux_cells([0, 9, 10, 18])     # the T tetracube
    pg.paint = "T"
    assert pg.overlap() == ()
    pg.apply("OR")
    assert to_hex(pg.cube) == "40301B4"
    pg.set_aux_hex("B")                  # test cells 23, 25, 26: nothing there
    pg.apply("AND")
    assert not pg.cube.any()


def test_and_not_removes_a_piece_and_overlap_is_reported():
    pg = Playground()
    pg.set_aux_hex("B4")
    pg.apply("OR")
    pg.set_aux_cells([19, 20])
    assert pg.overlap() == (19,)
    pg.set_aux_hex("B4")
    pg.apply("AND-NOT")
    assert not pg.cube.any() and pg.letters() == "." * 27


def test_bad_hex_changes_nothing():
    pg = Playground()
    pg.set_aux_hex("1F")
    before = pg.aux.copy()
    for bad in ("xyz", "8000000", ""):
        with pytest.raises(ValueError):
            pg.set_aux_hex(bad)
        assert pg.aux == before
    assert pg.aux == from_hex("1F")


def test_assembly_brings_pieces_in_one_by_one():
    letters = "AABABBLLLPVVABVLZZPPTPTTZZT"
    a = Assembly(letters)
    assert a.order == ["A", "B", "L", "P", "V", "Z", "T"] and a.duration == 7
    assert a.visible_letters() == "." * 27
    a.set_time(0.5)
    moving = a.offsets()
    assert set(moving) == {i for i, ch in enumerate(letters) if ch == "A"}
    assert set(a.visible_letters()) == {"A", "."}
    a.set_time(1.0)
    assert a.offsets() == {} and set(a.visible_letters()) == {"A", "."}
    while a.step(0.25):
        pass
    assert a.visible_letters() == letters and a.offsets() == {}
