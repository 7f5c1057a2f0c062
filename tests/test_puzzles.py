"""Any packing puzzle: puzzle files, the pentomino boards and the seed-002 set against
ORACLES.md, copies, pre-placed cells, and every kind of bad file."""
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from soma.geometry import orientations
from soma.pieces import EIGHT
from soma.puzzle import PuzzleError, load_puzzle, parse_puzzle, shipped
from soma.solutions import count, solve
from soma.symmetry import count_classes
from tests.helpers import run_child

ROOT = Path(__file__).resolve().parent.parent

PENTOMINO_BOARDS = {          # placements, fixed, unique (ORACLES.md)
    "pentominoes-6x10": (2056, 9356, 2339),
    "pentominoes-5x12": (1936, 4040, 1010),
    "pentominoes-4x15": (1696, 1472, 368),
    "pentominoes-3x20": (1236, 8, 2),
    "pentominoes-8x8-hole": (1568, 520, 65),
}


@pytest.mark.parametrize("name", sorted(PENTOMINO_BOARDS))
def test_pentomino_boards(name, check_puzzle):
    placements, fixed, unique = PENTOMINO_BOARDS[name]
    puzzle = load_puzzle(name)
    assert sum(len(p) for p in puzzle.placements.values()) == placements
    result = solve("first-cell", "unique", puzzle=puzzle)
    assert len(result.solutions) == unique
    check_puzzle(puzzle, result.solutions)
    counts = count_classes(result.solutions, puzzle.group)
    assert (counts.fixed, counts.unique) == (fixed, unique)


@pytest.mark.parametrize("name", ["pentominoes-3x20", "pentominoes-4x15", "pentominoes-8x8-hole"])
def test_expansion_equals_enumeration(name, check_puzzle):
    puzzle = load_puzzle(name)
    everything = solve("first-cell", "all", puzzle=puzzle).solutions
    assert len(everything) == PENTOMINO_BOARDS[name][1]
    check_puzzle(puzzle, everything[::7])
    from soma.symmetry import Canonizer
    canon = Canonizer(puzzle.group)
    assert sorted({canon.canonical(s) for s in everything}) == solve("first-cell", "unique", puzzle=puzzle).solutions


def test_scan_runs_along_the_short_side():
    puzzle = load_puzzle("pentominoes-4x15")
    first, second = puzzle.target.cells[:2]
    assert first[0] == second[0] and second[1] == first[1] + 1      # down the 4-cell side first


def test_seed_002_set_has_27_plane_forms(check_puzzle):
    forms = {p.name: len(orientations(p.cells, True, True)) for p in EIGHT}
    assert forms == {"Z": 4, "T": 4, "O": 1, "L": 8, "V": 4, "D": 2, "I": 2, "E": 2}
    assert sum(forms.values()) == 27
    puzzle = load_puzzle("eight-6x6")
    result = solve("first-cell", "unique", puzzle=puzzle)
    assert result.solutions
    check_puzzle(puzzle, result.solutions)


def test_soma_figures_solve(check_puzzle):
    for name in ("bathtub", "pyramid", "steps", "tower"):
        puzzle = load_puzzle(name)
        result = solve("first-cell", "unique", puzzle=puzzle)
        assert result.solutions, name
        check_puzzle(puzzle, result.solutions)
        everything = solve("first-cell", "all", puzzle=puzzle).solutions
        assert count_classes(result.solutions, puzzle.group).fixed == len(everything)


COPIES = """
name = "four L tetrominoes"
mirror = true
shape = \"\"\"
####
####
####
####
\"\"\"
[[piece]]
name = "L"
shape = \"\"\"
###
#..
\"\"\"
count = 4
"""

LABELLED = """
name = "four labelled L tetrominoes"
mirror = true
shape = \"\"\"
####
####
####
####
\"\"\"
""" + "".join(f'''
[[piece]]
name = "{n}"
shape = \"\"\"
###
#..
\"\"\"
''' for n in "LMNO")


def test_copies_are_interchangeable(check_puzzle):
    puzzle = parse_puzzle(COPIES, "copies.toml")
    labelled = parse_puzzle(LABELLED, "labelled.toml")
    fixed = solve("first-cell", "all", puzzle=puzzle).solutions
    fixed_labelled = solve("first-cell", "all", puzzle=labelled).solutions
    assert len(fixed) * 24 == len(fixed_labelled) > 0
    check_puzzle(puzzle, fixed)
    counts, _ = count(puzzle)
    assert counts.fixed == len(fixed)


def test_nine_identical_pieces_count_once():
    text = 'name = "monominoes"\nshape = """\n###\n###\n###\n"""\n[[piece]]\nname = "m"\nshape = "#"\ncount = 9\n'
    puzzle = parse_puzzle(text, "mono.toml")
    assert len(solve("first-cell", "all", puzzle=puzzle).solutions) == 1


def test_preplaced_cells(check_puzzle):
    text = (ROOT / "data" / "puzzles" / "pentominoes-3x20.toml").read_text()
    free = load_puzzle("pentominoes-3x20")
    sols = solve("first-cell", "all", puzzle=free).solutions
    x_at = sols[0].index("X")
    rows = text.split('"""')[1].strip("\n").split("\n")
    cell = free.target.cells[x_at]
    rows[cell[1]] = rows[cell[1]][:cell[0]] + "X" + rows[cell[1]][cell[0] + 1:]
    fixed_text = text.split('"""')[0] + '"""\n' + "\n".join(rows) + '\n"""\n'
    puzzle = parse_puzzle(fixed_text, "pre.toml")
    pre = solve("first-cell", "all", puzzle=puzzle).solutions
    assert pre and len(pre) < len(sols)
    assert all(s[x_at] == "X" for s in pre)
    assert set(pre) == {s for s in sols if s[x_at] == "X"}
    check_puzzle(puzzle, pre)


def test_every_shipped_puzzle_counts_on_the_command_line():
    names = shipped()
    assert {"soma", "bathtub", "pentominoes-6x10", "pentominoes-8x8-hole", "eight-6x6"} <= set(names)
    for name in names:
        r = run_child([sys.executable, "-m", "soma", "count", name, "--json"], capture_output=True,
                           text=True, cwd=ROOT)
        assert r.returncode == 0, (name, r.stderr)
        data = json.loads(r.stdout)
        assert data["fixed"] >= data["rotations"] >= data["unique"] > 0


def test_someone_elses_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('name = "a 2x5 of two P pentominoes"\nmirror = true\nshape = """\n#####\n#####\n"""\n'
                    '[[piece]]\nname = "P"\nshape = """\n##\n##\n#.\n"""\ncount = 2\n')
    r = run_child([sys.executable, "-m", "soma", "count", str(path), "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["fixed"] > 0 and data["unique"] >= 1


BAD = {
    "toml": ('name = "x\n', r"bad.toml:1: not valid TOML"),
    "unknown key": ('name = "x"\nmirorr = true\nshape = "#"\npieces = "soma"\n', r"bad.toml:2: unknown key 'mirorr'"),
    "no shape": ('name = "x"\npieces = "soma"\n', r"bad.toml:1: no 'shape'"),
    "unknown set": ('pieces = "hexominoes"\nshape = "#"\n', r"bad.toml:1: unknown piece set 'hexominoes'"),
    "ragged": ('pieces = "soma"\nshape = """\n###\n##\n"""\n', r"bad.toml:4: ragged rows"),
    "unknown character": ('pieces = "soma"\nshape = """\n###\n#?#\n"""\n', r"bad.toml:4: unknown character '\?'"),
    "letter not a piece": ('pieces = "soma"\nshape = """\n###\n#Q#\n"""\n', r"bad.toml:4: .*no such piece"),
    "counts": ('pieces = "soma"\nshape = """\n###\n###\n"""\n', r"bad.toml:2: the counts do not add up: the target has 6 cells, the pieces 27"),
    "disconnected": ('shape = "##"\n[[piece]]\nname = "a"\nshape = "#.#"\n', r"bad.toml:4: piece a is not connected"),
    "fits nowhere": ('shape = "####"\n[[piece]]\nname = "a"\nshape = """\n##\n##\n"""\n', r"bad.toml:1: piece a fits nowhere"),
    "bad count": ('shape = "##"\n[[piece]]\nname = "a"\nshape = "#"\ncount = 0\n', r"bad.toml:5: piece a: count must be"),
    "bad name": ('shape = "##"\n[[piece]]\nname = "long"\nshape = "##"\n', r"bad.toml:3: a piece's name is one letter"),
    "same name": ('shape = "##"\n[[piece]]\nname = "a"\nshape = "#"\n[[piece]]\nname = "a"\nshape = "#"\n',
                  r"bad.toml:\d+: two pieces are named 'a'"),
    "both": ('pieces = "soma"\nshape = "#"\n[[piece]]\nname = "a"\nshape = "#"\n', r"bad.toml:1: give one of"),
    "mirror type": ('pieces = "soma"\nmirror = "yes"\nshape = "#"\n', r"bad.toml:2: 'mirror' must be true or false"),
    "preplaced mismatch": ('shape = """\na.a\n"""\n[[piece]]\nname = "a"\nshape = "##"\n[[piece]]\nname = "b"\nshape = "#"\n',
                           r"bad.toml:1: the counts do not add up|pre-placed for a do not match"),
    "no pieces": ('shape = "#"\n', r"bad.toml:1: no pieces"),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_bad_puzzle_files(kind, tmp_path):
    text, pattern = BAD[kind]
    with pytest.raises(PuzzleError, match=pattern):
        parse_puzzle(text, "bad.toml")
    path = tmp_path / "bad.toml"
    path.write_text(text)
    r = run_child([sys.executable, "-m", "soma", "count", str(path)], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_preplaced_cells_that_do_not_match_the_shape():
    text = 'shape = """\naa.\n.a.\n"""\n[[piece]]\nname = "a"\nshape = """\n###\n"""\n'
    with pytest.raises(PuzzleError, match="pre-placed for a do not match its shape"):
        parse_puzzle(text, "bad.toml")


def test_binary_puzzle_file(tmp_path):
    path = tmp_path / "bin.toml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PuzzleError, match="bin.toml:1: not UTF-8"):
        load_puzzle(str(path))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('#.\n "=[]abcdefghijklmnopqrstuvwxyz0123456789_-{},XVLTZ')), max_size=200))
def test_random_text_never_raises_anything_else(text):
    try:
        parse_puzzle(text, "random.toml")
    except PuzzleError as e:
        assert str(e).startswith("random.toml:")


def test_pieces_from_seed_001s_xml_file():
    puzzle = load_puzzle("pentominoes-5x12-xml")
    assert [p.name for p in puzzle.pieces] == list("FILNPTUVWXYZ")
    assert sum(len(p) for p in puzzle.placements.values()) == 1936
    assert len(solve("first-cell", "unique", puzzle=puzzle).solutions) == 1010


@pytest.mark.parametrize("xml, message", [
    ("<PIEZAS><PIEZA Nombre='A' Ancho='2' Alto='1' Contenido='1'/></PIEZAS>", "Contenido must be 2"),
    ("<PIECES/>", "expected PIEZAS"),
    ("<PIEZAS><PIEZA Nombre='A' Ancho='x' Alto='1' Contenido='1'/></PIEZAS>", "whole numbers"),
    ("<PIEZAS>", "cannot be read"),
    ('<!DOCTYPE x [<!ENTITY e "boom">]><PIEZAS>&e;</PIEZAS>', "cannot be read"),
])
def test_bad_xml_piece_files(tmp_path, xml, message):
    (tmp_path / "p.xml").write_text(xml)
    text = 'pieces_xml = "p.xml"\nshape = "##"\n'
    (tmp_path / "x.toml").write_text(text)
    with pytest.raises(PuzzleError, match=message):
        load_puzzle(str(tmp_path / "x.toml"))
