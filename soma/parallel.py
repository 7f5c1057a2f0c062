"""Split a count across processes (or any concurrent.futures executor): the search tree's
subtrees under each held placement are independent work units; their unique solutions are
merged by canonical form, so the counts stay exact."""
from __future__ import annotations

from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from functools import lru_cache

from .problem import Problem, Puzzle, soma_problem
from .solutions import solution_key
from .solver import CellSearch, SearchStats
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


def run_unit(source: str, unit: int) -> tuple[list[str], int]:
    """The canonical unique solutions found under one held placement, and the placements made.
    Takes the puzzle's source (a name or path) so that it travels to another process cheaply."""
    puzzle, problem = _base(source)
    table = dict(problem.placements)
    if unit >= 0:
        table[problem.held] = (table[problem.held][unit],)
    sub = Problem(puzzle, table, problem.held)
    stats = SearchStats()
    canon = Canonizer(puzzle.group)
    found = {canon.canonical(solution_key(s, puzzle))
             for s in CellSearch(sub.placements, puzzle.target, puzzle.copies_map, sub.held).solutions(stats=stats)}
    return sorted(found), stats.placements


def count_parallel(puzzle: Puzzle, jobs: int = 2, executor: Executor | None = None,
                   progress=None) -> tuple[Counts, int]:
    """The three counts, the units spread over `jobs` processes (or the given executor);
    `progress(done, total)` after each unit. Returns (counts, placements)."""
    work = units(puzzle)
    source = puzzle.source or "soma"
    own = executor is None
    pool = ProcessPoolExecutor(max_workers=jobs) if own else executor
    unique: set[str] = set()
    placements = 0
    try:
        futures = [pool.submit(run_unit, source, u) for u in work]
        for done, f in enumerate(as_completed(futures), 1):
            sols, made = f.result()
            unique.update(sols)
            placements += made
            if progress:
                progress(done, len(work))
    finally:
        if own:
            pool.shutdown()
    return count_classes(sorted(unique), puzzle.group), placements
