"""Solving under a counting convention, and the solutions file (text and JSON).

Conventions: `unique` (up to rotation and reflection, 240 for Soma), `rotations` (up to rotation,
480) and `all` (every fixed solution, 11,520). A solution is written as its letters: one piece
name per cell, in bit order. Unique and rotation solutions are written in canonical form, the
least image in string order, and every list is sorted, so a file is the same whatever the
strategy that found it.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from .budget import BudgetExceeded, current
from .problem import SOMA_CUBE, Puzzle, seed_groups, soma_problem
from .solver import CellSearch, EventCallback, SearchStats, Solution, fixed_order
from .symmetry import Canonizer, Counts, copy_key, count_classes, rotation_subgroup
from .words import plural

STRATEGIES = ("first-cell", "fixed-order")
CONVENTIONS = ("unique", "rotations", "all")
FORMAT_NAME, FORMAT_VERSION = "soma-solutions", 1

CONVENTION_WORDS = {
    "unique": "unique up to rotation and reflection (each line is the least of its images under "
              "the 48 symmetries of the cube, a reflection swapping A and B)",
    "rotations": "unique up to rotation (each line is the least of its images under the 24 rotations)",
    "all": "every fixed solution (pieces in place, no symmetry applied)",
}


@dataclass
class SolveResult:
    """What `solve` found: sorted letter strings, the search's counts and its times."""
    strategy: str
    convention: str
    solutions: list[str]
    stats: SearchStats
    seconds: float = 0.0
    search_seconds: float = 0.0
    complete: bool = True
    puzzle: Puzzle = field(default=SOMA_CUBE, repr=False)


ALGORITHMS = ("bitarray", "dlx")
BUDGET_EVERY = 1 << 16          # solutions between two looks at the memory budget
ENGINES = ("auto", "python", "compiled")


def use_compiled(engine: str, strategy: str, convention: str, puzzle: Puzzle, on_event, algorithm: str) -> bool:
    """The compiled kernel runs first-cell searches without events on targets of up to 64
    cells; `auto` takes it only where it pays (not the small Soma searches: numba's import alone
    costs more than they take) and when numba is installed."""
    if engine == "python" or algorithm != "bitarray" or strategy != "first-cell" or on_event is not None:
        if engine == "compiled" and (algorithm != "bitarray" or strategy != "first-cell" or on_event is not None):
            raise ValueError("the compiled engine runs the first-cell search without a trace; "
                             "use --engine python for this")
        return False
    if engine == "auto" and puzzle.size <= 27:
        return False                            # small: the pure engine is faster than numba's import
    from .kernel import MAX_CELLS, available
    if puzzle.size > MAX_CELLS:
        if engine == "compiled":
            raise ValueError(f"the compiled engine handles targets of up to {MAX_CELLS} cells")
        return False
    if engine == "compiled":
        if not available():
            raise ValueError("the compiled engine needs numba: python3 -m pip install '.[fast]'")
        return True
    return available()


def _compiled(convention: str, puzzle: Puzzle, stats: SearchStats | None, limit: int | None):
    from .kernel import compiled_search
    problem = soma_problem(convention, puzzle)
    # without the dead-cell check: in compiled code it costs more than it saves (Soma all: 0.2 s
    # with it, 0.09 s without; 6x10 unique: 1.0 s against 0.36 s)
    sols, found, nodes = compiled_search(problem.placements, puzzle.size, puzzle.copies_map, problem.held,
                                         limit=limit)
    if stats is not None:
        stats.placements += nodes
        stats.removals += nodes
        stats.solutions += found
    return iter([Solution(s) for s in sols])


def raw_solutions(strategy: str, convention: str, puzzle: Puzzle = SOMA_CUBE,
                  on_event: EventCallback | None = None, stats: SearchStats | None = None,
                  emit_tests: bool = True, algorithm: str = "bitarray", engine: str = "python",
                  limit: int | None = None) -> Iterator[Solution]:
    """The search itself: fixed-order runs the seed's search; first-cell searches every
    placement for `all`, and one piece held at its symmetry representatives otherwise;
    `algorithm='dlx'` runs dancing links over the same placements instead. `limit` is a hint
    (the compiled kernel stops there for `all`); the caller stops taking solutions itself."""
    if use_compiled(engine, strategy, convention, puzzle, on_event, algorithm):
        return _compiled(convention, puzzle, stats, limit if convention == "all" else None)
    if algorithm == "dlx":
        from .dlx import dancing_links
        problem = soma_problem(convention, puzzle)
        return dancing_links(problem.placements, puzzle.size, on_event, stats, puzzle.spare, problem.held,
                             puzzle.copies_map)
    if strategy == "fixed-order":
        if puzzle.pieces != SOMA_CUBE.pieces or puzzle.target != SOMA_CUBE.target:
            raise ValueError("the fixed-order strategy is the seed's Soma cube search; use first-cell")
        return fixed_order(seed_groups(puzzle), puzzle.size, on_event, stats, emit_tests)
    problem = soma_problem(convention, puzzle)
    search = CellSearch(problem.placements, puzzle.target, copies=puzzle.copies_map, held=problem.held)
    return search.solutions(on_event, stats, emit_tests)


def solution_key(solution: Solution, puzzle: Puzzle) -> str:
    """A solution as a string: its letters, and for a puzzle with copies '|' and which copy
    covers each cell (copies numbered by their first cell)."""
    letters = solution.letters(puzzle.size)
    if not puzzle.copies:
        return letters
    ids = [-1] * puzzle.size
    for k, p in enumerate(solution.placements):
        for i in p.cells:
            ids[i] = k
    return copy_key(letters, ids)


def _distinct(letters: Iterable[str], key: Callable[[str], str] | None) -> Iterator[str]:
    seen: set[str] = set()
    for s in letters:
        k = key(s) if key else s
        if k not in seen:
            seen.add(k)
            yield k


def _expand(unique: Iterable[str], canonizer: Canonizer, rotations: Canonizer | None) -> Iterator[str]:
    """Every fixed solution (or rotation class) of each unique class, class by class."""
    for s in unique:
        images = dict.fromkeys(canonizer.images(s))
        if rotations is None:
            yield from images
            continue
        covered: set[str] = set()
        for t in images:                 # the orbit splits into one or two rotation classes
            if t not in covered:
                turned = rotations.images(t)
                covered.update(turned)
                yield min(turned)


def solve(strategy: str = "first-cell", convention: str = "unique", limit: int | None = None,
          puzzle: Puzzle = SOMA_CUBE, on_event: EventCallback | None = None,
          on_solution: Callable[[str], None] | None = None, emit_tests: bool = True,
          algorithm: str = "bitarray", engine: str = "auto") -> SolveResult:
    """Search and collect the solutions of a convention, sorted (the first `limit` found)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}: use one of {', '.join(STRATEGIES)}")
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown convention {convention!r}: use one of {', '.join(CONVENTIONS)}")
    start = time.perf_counter()
    full = Canonizer(puzzle.group)
    stats = SearchStats()
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}: use one of {', '.join(ALGORITHMS)}")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: use one of {', '.join(ENGINES)}")
    search = raw_solutions(strategy, convention, puzzle, on_event, stats, emit_tests, algorithm, engine, limit)
    letters = (solution_key(s, puzzle) for s in search)
    search_time = [0.0]

    def timed(it: Iterator[str]) -> Iterator[str]:
        t = time.perf_counter()
        for s in it:
            search_time[0] += time.perf_counter() - t
            yield s
            t = time.perf_counter()
        search_time[0] += time.perf_counter() - t

    letters = timed(letters)
    if convention == "all" and (strategy == "first-cell" or algorithm == "dlx"):
        found: Iterator[str] = _distinct(letters, None)
    else:
        found = _distinct(letters, full.canonical)
        if convention != "unique":
            rots = None if convention == "all" else Canonizer(rotation_subgroup(puzzle.group))
            found = _expand(found, full, rots)
    out: list[str] = []
    complete = True
    budget = current()
    for s in found:
        out.append(s)
        if on_solution:
            on_solution(s)
        if len(out) % BUDGET_EVERY == 0 and budget.over():
            raise BudgetExceeded(f"the {len(out):,} solutions held reached the memory budget of {budget}; "
                                 "--limit N keeps fewer")
        if limit is not None and len(out) >= limit:
            complete = False                     # stopped by the limit, not by running out
            break
    getattr(search, "close", lambda: None)()
    out.sort()
    return SolveResult(strategy, convention, out, stats, time.perf_counter() - start,
                       search_time[0], complete, puzzle)


def count(puzzle: Puzzle = SOMA_CUBE, algorithm: str = "bitarray", engine: str = "auto") -> tuple[Counts, SearchStats]:
    """The three counts from the unique search, expanded exactly by the symmetry group."""
    result = solve("first-cell", "unique", puzzle=puzzle, algorithm=algorithm, engine=engine)
    return count_classes(result.solutions, puzzle.group), result.stats


def regenerate_command(convention: str, path: str = "data/solutions.txt", puzzle: Puzzle = SOMA_CUBE) -> str:
    flag = {"unique": "--unique", "rotations": "--rotations", "all": "--all"}[convention]
    which = "" if puzzle.source in ("", "soma") else f"{puzzle.source} "
    return f"soma solve {which}{flag} --out {path}"


def cells_words(puzzle: Puzzle) -> str:
    if puzzle.target == SOMA_CUBE.target:
        return ("one piece letter per cell, cell (x, y, z) at position x + 3y + 9z "
                "(x, y, z in 0..2; z is the layer)")
    cells = " ".join(f"{x},{y},{z}" for x, y, z in puzzle.target.cells)
    return (f"one piece letter per cell of the target, {plural(puzzle.size, 'cell')} {puzzle.target.order_words()} "
            f"(x, y, z): {cells}")


def format_text(result: SolveResult, out_path: str = "data/solutions.txt") -> str:
    """The solutions file: '#' header lines, then 'number letters' per line."""
    puzzle = result.puzzle
    names = " ".join(f"{p.name}={p.long_name}" for p in puzzle.pieces)
    convention = CONVENTION_WORDS[result.convention]
    if puzzle.target != SOMA_CUBE.target or puzzle.pieces != SOMA_CUBE.pieces:
        convention = {"unique": "unique up to the target's symmetries (each line the least of its images)",
                      "rotations": "unique up to the target's rotations (each line the least of its images)",
                      "all": CONVENTION_WORDS["all"]}[result.convention]
    head = [
        f"# {FORMAT_NAME} {FORMAT_VERSION}: {len(result.solutions)} solutions of the {puzzle.name}",
        f"# convention: {convention}",
        f"# cells: {cells_words(puzzle)}",
        f"# pieces: {names}",
        "# order: lines sorted as strings; numbers count from 1",
        f"# regenerate: {regenerate_command(result.convention, out_path, puzzle)}",
    ]
    body = [f"{n} {s}" for n, s in enumerate(result.solutions, 1)]
    return "\n".join(head + body) + "\n"


def solution_record(number: int, letters: str, puzzle: Puzzle = SOMA_CUBE) -> dict:
    pieces = {p.name: [i for i, ch in enumerate(letters) if ch == p.name] for p in puzzle.pieces}
    return {"number": number, "letters": letters, "pieces": pieces}


def format_json(result: SolveResult) -> str:
    """The same solutions for programs: number, letters and each piece's cell indices."""
    puzzle = result.puzzle
    doc = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION, "puzzle": puzzle.name,
        "convention": result.convention, "cell_index": "x + 3y + 9z",
        "pieces": {p.name: {"name": p.long_name, "colour": p.colour} for p in puzzle.pieces},
        "count": len(result.solutions),
        "solutions": [solution_record(n, s, puzzle) for n, s in enumerate(result.solutions, 1)],
    }
    return json.dumps(doc, indent=1) + "\n"


class SolutionsFileError(ValueError):
    """A solutions file that cannot be read: the message names the file and line."""


def read_text(path: str, size: int = 27) -> list[str]:
    """The letter strings of a solutions file, in its order (numbers must run 1, 2, ...)."""
    out = []
    try:
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                parts = line.split()
                if len(parts) != 2 or not parts[0].isdigit() or len(parts[1].split("|")[0]) != size:
                    raise SolutionsFileError(f"{path}:{lineno}: expected 'number letters' with "
                                             f"{size} letters, got {line[:60]!r}")
                if int(parts[0]) != len(out) + 1:
                    raise SolutionsFileError(f"{path}:{lineno}: solution number {parts[0]}, "
                                             f"expected {len(out) + 1}")
                out.append(parts[1])
    except UnicodeDecodeError:
        raise SolutionsFileError(f"{path}: not a text file (expected UTF-8 solutions)") from None
    return out
