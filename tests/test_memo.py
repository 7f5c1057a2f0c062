"""Counting by memo and Burnside's lemma equals counting by enumeration."""
import json

import pytest

from soma.memo import count_by_memo, count_with
from soma.puzzle import load_puzzle, parse_puzzle
from soma.solutions import solve
from soma.symmetry import Canonizer, rotation_subgroup
from tests.helpers import run
from tests.test_puzzles import COPIES


def enumerated(puzzle):
    everything = solve("first-cell", "all", puzzle=puzzle, engine="python").solutions
    rots = Canonizer(rotation_subgroup(puzzle.group))
    full = Canonizer(puzzle.group)
    return (len(everything), len({rots.canonical(s) for s in everything}),
            len({full.canonical(s) for s in everything}))


@pytest.mark.parametrize("name", ["soma", "bathtub", "pyramid", "eight-6x6", "pentominoes-3x20"])
def test_memo_equals_enumeration(name):
    puzzle = load_puzzle(name)
    counts = count_by_memo(puzzle)
    assert (counts.fixed, counts.rotations, counts.unique) == enumerated(puzzle)


SYMMETRIC = COPIES          # four interchangeable L tetrominoes in a 4x4 square


def test_copies_and_self_symmetric_solutions():
    puzzle = parse_puzzle(SYMMETRIC, "four.toml")
    counts = count_by_memo(puzzle)
    assert (counts.fixed, counts.rotations, counts.unique) == enumerated(puzzle)
    canon = Canonizer(puzzle.group)
    sols = solve("first-cell", "all", puzzle=puzzle, engine="python").solutions
    assert any(len(set(canon.images(s))) < len(puzzle.group) for s in sols)   # some have symmetries


def test_nine_monominoes():
    text = 'shape = """\n###\n###\n###\n"""\n[[piece]]\nname = "m"\nshape = "#"\ncount = 9\n'
    assert count_with(parse_puzzle(text, "m.toml")) == 1


def test_count_method_on_the_command_line(tmp_path):
    (tmp_path / "four.toml").write_text(SYMMETRIC)
    data = json.loads(run("count", str(tmp_path / "four.toml"), "--json").stdout)
    assert "memoized" in data["method"]
    data = json.loads(run("count", "bathtub", "--method", "memo", "--json").stdout)
    assert (data["fixed"], data["rotations"], data["unique"]) == (316, 158, 79)
