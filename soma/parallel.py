"""Split a count across processes (or any concurrent.futures executor): the search tree's
subtrees under each held placement are independent work units; their unique solutions are
merged by canonical form, so the counts stay exact."""
from __future__ import annotations

import os
import signal
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from functools import lru_cache

from .problem import Problem, Puzzle, soma_problem
from .solutions import solution_key, use_compiled
from .solver import CellSearch, SearchStats, Solution
from .symmetry import Canonizer, Counts, count_classes


def units(puzzle: Puzzle) -> list[int]:
    """The work units: one per placement of the held piece (one per symmetry class). Splitting
    a level deeper balanced better but cost more in table building than it gained (6x10)."""
    problem = soma_problem("unique", puzzle)
    return list(range(len(problem.placements[problem.held]))) if problem.held else [-1]


@lru_cache(maxsize=4)
def _base(source: str):
    """The puzzle and its unique problem, built once per worker process."""
    from .puzzle import load_puzzle
    puzzle = load_puzzle(source)
    return puzzle, soma_problem("unique", puzzle)


def run_unit(source: str, unit: int, engine: str = "python") -> tuple[list[str], int]:
    """The canonical unique solutions found under one held placement, and the placements made,
    by the bitarray engine or (`engine` compiled, or auto where it pays) the compiled kernel.
    Takes the puzzle's source (a name or path) so that it travels to another process cheaply."""
    _check_parent()
    puzzle, problem = _base(source)
    table = dict(problem.placements)
    if unit >= 0:
        table[problem.held] = (table[problem.held][unit],)
    sub = Problem(puzzle, table, problem.held)
    canon = Canonizer(puzzle.group)
    if use_compiled(engine, "first-cell", "unique", puzzle, None, "bitarray"):
        from .kernel import compiled_search
        sols, _, made = compiled_search(sub.placements, puzzle.size, puzzle.copies_map, sub.held)
        return sorted({canon.canonical(solution_key(Solution(s), puzzle)) for s in sols}), made
    stats = SearchStats()
    found = {canon.canonical(solution_key(s, puzzle))
             for s in CellSearch(sub.placements, puzzle.target, puzzle.copies_map, sub.held).solutions(stats=stats)}
    return sorted(found), stats.placements


def count_parallel(puzzle: Puzzle, jobs: int = 2, executor: Executor | None = None,
                   progress=None, watchdog=None, engine: str = "python") -> tuple[Counts, int]:
    """The three counts, the units spread over `jobs` processes (or the given executor);
    `progress(done, total)` after each unit; `watchdog()`, if given, every second that no unit
    finishes (it raises to give up); `engine` as for `run_unit`. Returns (counts, placements).
    Interrupted (Ctrl-C, or an exception from a signal handler), it kills its own workers (the
    pool then fails the units left) or cancels what a given executor has not started, and
    raises again."""
    work = units(puzzle)
    source = puzzle.source or "soma"
    own = executor is None
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start, initargs=(os.getpid(),)) \
        if own else executor
    unique: set[str] = set()
    placements = 0
    futures = []
    try:
        futures = [pool.submit(run_unit, source, u, engine) for u in work]
        pending, done_count = set(futures), 0
        while pending:
            done, pending = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)
            if not done and watchdog:
                watchdog()
            for f in done:
                sols, made = f.result()
                unique.update(sols)
                placements += made
                done_count += 1
                if progress:
                    progress(done_count, len(work))
    except BaseException:
        if own:                     # the pool then fails what is left, itself (no cancel: a
            _kill_workers(pool)     # cancelled future makes its manager thread raise)
        else:
            for f in futures:
                f.cancel()
        raise
    finally:
        if own:
            pool.shutdown(wait=True)
    return count_classes(sorted(unique), puzzle.group), placements


_PARENT = 0


def _worker_start(parent: int) -> None:
    """In each worker: leave Ctrl-C to the parent (it stops the workers), die with the parent
    (Linux: PR_SET_PDEATHSIG; elsewhere a look at the parent between units)."""
    global _PARENT
    _PARENT = parent
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)     # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    _check_parent()


def _check_parent() -> None:
    if _PARENT and os.getppid() != _PARENT:        # the parent is gone: nobody wants the result
        os._exit(1)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's worker processes at once (the compiled kernel does not look at signals)."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            proc.kill()
        except (OSError, ValueError):
            pass
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.join(2)
