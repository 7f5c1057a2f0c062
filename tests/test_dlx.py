"""Dancing links returns exactly the bitarray search's solutions, with the same events."""
import json
import sys
from collections import Counter

import pytest

from soma.problem import soma_problem
from soma.puzzle import load_puzzle
from soma.solutions import solve
from soma.solver import SearchStats
from soma.dlx import dancing_links
from tests.helpers import run_child

SMALL = ["soma", "bathtub", "pyramid", "steps", "tower", "eight-6x6", "pentominoes-3x20"]


@pytest.mark.parametrize("name", SMALL)
def test_identical_solution_sets(name, check_puzzle):
    puzzle = load_puzzle(name)
    for convention in ("unique", "all") if puzzle.size <= 28 and name != "soma" else ("unique",):
        ours = solve("first-cell", convention, puzzle=puzzle).solutions
        theirs = solve("first-cell", convention, puzzle=puzzle, algorithm="dlx").solutions
        assert ours == theirs, (name, convention)
        check_puzzle(puzzle, theirs)


def test_events_match_stats():
    problem = soma_problem("unique")
    events = Counter()
    stats = SearchStats()
    sols = list(dancing_links(problem.placements, 27, lambda k, p: events.update([k]), stats, held=problem.held))
    assert events == {"place": stats.placements, "remove": stats.removals, "solution": len(sols)}
    assert stats.updates > stats.placements > 0


def test_cli_reports_nodes_and_updates(tmp_path):
    r = run_child([sys.executable, "-m", "soma", "solve", "--algorithm", "dlx", "--json",
                        "--trace", str(tmp_path / "dlx.trace")], capture_output=True, text=True)
    data = json.loads(r.stdout)
    assert data["solutions"] == 240 and data["nodes"] > 0 and data["updates"] > 0
    from soma.trace import Trace
    trace = Trace.open(str(tmp_path / "dlx.trace"))
    assert trace.counts()["place"] == data["placements"]


def test_copies_counted_once_each(tmp_path, check_puzzle):
    """A piece with copies is a counted column: each filling once, whatever copy sits where."""
    from soma.puzzle import parse_puzzle
    from tests.test_puzzles import COPIES
    puzzle = parse_puzzle(COPIES, "four.toml")
    for convention in ("unique", "all"):
        ours = solve("first-cell", convention, puzzle=puzzle).solutions
        theirs = solve("first-cell", convention, puzzle=puzzle, algorithm="dlx").solutions
        assert ours == theirs and theirs, convention
        check_puzzle(puzzle, theirs)
    path = tmp_path / "c.toml"
    path.write_text('shape = "##"\n[[piece]]\nname = "m"\nshape = "#"\ncount = 2\n')
    r = run_child([sys.executable, "-m", "soma", "count", str(path), "--algorithm", "dlx", "--json"],
                  capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (json.loads(r.stdout)["fixed"], json.loads(r.stdout)["unique"]) == (1, 1)
