"""The compiled kernel (numba) finds exactly the bitarray engine's solutions, in its order."""
import json
import sys

import pytest

from soma.problem import SOMA_CUBE, soma_problem
from soma.puzzle import load_puzzle, parse_puzzle
from soma.solutions import solve
from soma.solver import CellSearch
from tests.helpers import one_line_error, run, run_child

kernel = pytest.importorskip("soma.kernel")
pytest.importorskip("numba")


@pytest.mark.parametrize("name, convention", [("soma", "unique"), ("soma", "all"), ("bathtub", "all"),
                                              ("eight-6x6", "all"), ("pentominoes-3x20", "all"),
                                              ("pentominoes-8x8-hole", "unique")])
def test_same_solutions_in_the_same_order(name, convention, check_puzzle):
    puzzle = load_puzzle(name)
    problem = soma_problem(convention, puzzle)
    ours = [s.placements for s in CellSearch(problem.placements, puzzle.target, held=problem.held).solutions()]
    theirs, found, nodes = kernel.compiled_search(problem.placements, puzzle.size, held=problem.held)
    assert theirs == ours and found == len(ours) and nodes >= found
    compiled = solve("first-cell", convention, puzzle=puzzle, engine="compiled").solutions
    assert compiled == solve("first-cell", convention, puzzle=puzzle, engine="python").solutions
    check_puzzle(puzzle, compiled)


def test_copies_and_limits():
    text = ('name = "two P"\nmirror = true\nshape = """\n#####\n#####\n"""\n'
            '[[piece]]\nname = "P"\nshape = """\n##\n##\n#.\n"""\ncount = 2\n')
    puzzle = parse_puzzle(text, "p.toml")
    assert (solve("first-cell", "all", puzzle=puzzle, engine="compiled").solutions
            == solve("first-cell", "all", puzzle=puzzle, engine="python").solutions)
    problem = soma_problem("all")
    sols, found, _ = kernel.compiled_search(problem.placements, 27, limit=5)
    assert found == 5 and len(sols) == 5


def test_count_only_and_big_targets():
    problem = soma_problem("all")
    sols, found, _ = kernel.compiled_search(problem.placements, 27, record=False)
    assert sols == [] and found == 11_520
    with pytest.raises(ValueError, match="up to 64 cells"):
        kernel.compiled_search(problem.placements, 65)


def test_small_soma_solve_does_not_import_numba():
    code = "import sys, soma.cli; soma.cli.main(['solve', '--json']); print('numba' in sys.modules)"
    r = run_child([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip().splitlines()[-1] == "False"


def test_cli_engine_choice():
    data = json.loads(run("solve", "--engine", "compiled", "--json").stdout)
    assert data["solutions"] == 240 and data["engine"] == "compiled"
    assert "first-cell" in one_line_error(run("solve", "--engine", "compiled", "--strategy", "fixed-order"))
    assert SOMA_CUBE.size == 27


def test_with_the_dead_cell_check_it_makes_the_same_placements():
    from soma.solver import SearchStats
    problem = soma_problem("unique")
    stats = SearchStats()
    ours = [s.placements for s in CellSearch(problem.placements, SOMA_CUBE.target, held=problem.held)
            .solutions(stats=stats)]
    theirs, found, nodes = kernel.compiled_search(problem.placements, 27, held=problem.held,
                                                  neighbours_of=SOMA_CUBE.target.neighbours)
    assert theirs == ours and nodes == stats.placements
