"""Splitting a count over processes, or any concurrent.futures executor, keeps it exact."""
import json
from concurrent.futures import ThreadPoolExecutor

from soma.parallel import count_parallel, units
from soma.puzzle import load_puzzle
from soma.solutions import count
from tests.helpers import run


def test_two_processes_give_the_one_process_counts():
    puzzle = load_puzzle("pentominoes-4x15")
    one, _ = count(puzzle, engine="python")
    two, placements = count_parallel(puzzle, jobs=2)
    assert two == one and placements > 0
    assert len(units(puzzle)) > 1


def test_any_executor_and_progress():
    puzzle = load_puzzle("soma")
    seen = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        counts, _ = count_parallel(puzzle, executor=pool, progress=lambda done, total: seen.append((done, total)))
    assert (counts.fixed, counts.rotations, counts.unique) == (11_520, 480, 240)
    assert seen[-1][0] == seen[-1][1] == len(units(puzzle))


def test_cli_jobs():
    data = json.loads(run("count", "pentominoes-3x20", "--jobs", "2", "--json").stdout)
    assert (data["fixed"], data["unique"], data["jobs"]) == (8, 2, 2)
