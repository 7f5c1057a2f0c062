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


def test_a_dask_cluster_on_loopback():
    distributed = __import__("pytest").importorskip("distributed")
    puzzle = load_puzzle("pentominoes-4x15")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        with distributed.Client(cluster) as client:
            counts, _ = count_parallel(puzzle, executor=client.get_executor())
        assert counts == count(puzzle, engine="python")[0]
        data = json.loads(run("count", "pentominoes-3x20", "--scheduler", cluster.scheduler_address,
                              "--json").stdout)
        assert (data["fixed"], data["unique"]) == (8, 2)


def test_unreachable_scheduler_is_one_line():
    from tests.helpers import one_line_error
    err = one_line_error(run("count", "soma", "--scheduler", "tcp://127.0.0.1:9"))
    assert "cannot reach the scheduler" in err
