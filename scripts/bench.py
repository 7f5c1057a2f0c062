"""Speed benchmark: soma's searches and trace reader against plain Python-int references
written here, measured side by side in one run. Prints each time, the reference's, the ratio
and the target; `--json` prints the same as one object.

    python scripts/bench.py [--repeat N] [--json] [--quick]

Jobs (targets for a 2-core machine):
  unique      the 240 with first-cell, search only              < 30 ms, and <= 1.5x the int search
  all         the 11,520 with first-cell, search only           < 1 s
  fixed       the seed's fixed-order search for the 240          < 0.4 s (the seed's Java: ~0.6 s)
  fixed+trace the same, writing its trace to a temporary file    (no target)
  open        open a trace of over a million events              < 2 s
  seek        the board at a random step of it (mean of 1,000)   < 50 ms
  process     `python -m soma solve --unique --json`, whole      < 0.2 s
  6x10 unique the 2,339 pentomino 6x10 solutions, first-cell     <= 1.5x the int search
  6x10 all    all 9,356 of them (skipped with --quick)           (no target; ORACLES: ints 33-50 s)
  dlx         dancing links on the Soma 240 and the 3x20 board  (against the same int search)
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from soma.dlx import dancing_links
from soma.problem import SOMA_CUBE, seed_groups, soma_problem
from soma.puzzle import load_puzzle
from soma.solver import CellSearch, fixed_order
from soma.trace import Trace, TraceWriter


def int_mask(p) -> int:
    return sum(1 << i for i in p.cells)


def int_first_cell(problem):
    """A straightforward first-cell search on Python ints (tables built here, outside the
    timing): fill the lowest empty cell with each unused piece's placements that start there."""
    held = problem.held
    names = [n for n in problem.placements if n != held]
    table = [[] for _ in range(problem.size)]
    for slot, name in enumerate(names):
        starts: dict[int, list[int]] = {}
        for p in problem.placements[name]:
            starts.setdefault(p.cells[0], []).append(int_mask(p))
        for c, ms in starts.items():
            table[c].append((slot, ms))
    roots = [int_mask(p) for p in problem.placements[held]] if held else [0]
    full = (1 << problem.size) - 1

    def run():
        found = []
        used = [False] * len(names)
        chosen = []

        def search(occ):
            c = (~occ & (occ + 1)).bit_length() - 1      # the lowest empty cell
            for slot, ms in table[c]:
                if used[slot]:
                    continue
                used[slot] = True
                for m in ms:
                    if occ & m:
                        continue
                    chosen.append(m)
                    if occ | m == full:
                        found.append(tuple(chosen))
                    else:
                        search(occ | m)
                    chosen.pop()
                used[slot] = False

        for r in roots:
            chosen.append(r)
            search(r)
            chosen.pop()
        return len(found)
    return run


def int_fixed_order(groups):
    """The seed's fixed-order search on Python ints: piece k tries every placement in turn."""
    levels = [[int_mask(p) for p in g] for g in groups]
    last = len(levels) - 1

    def run():
        found = []
        chosen = []

        def backtrack(k, occ):
            for m in levels[k]:
                if occ & m:
                    continue
                chosen.append(m)
                if k == last:
                    found.append(tuple(chosen))
                else:
                    backtrack(k + 1, occ | m)
                chosen.pop()
        backtrack(0, 0)
        return len(found)
    return run


def best_of(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def side_by_side(ours, ref, repeat: int) -> tuple[float, float, object, object]:
    """Best times of both, interleaved so that both see the same machine."""
    bo = br = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        a = ours()
        bo = min(bo, time.perf_counter() - t)
        t = time.perf_counter()
        b = ref()
        br = min(br, time.perf_counter() - t)
    return bo, br, a, b


def count(gen) -> int:
    return sum(1 for _ in gen)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=25, help="runs of each short job (best counts)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quick", action="store_true", help="skip the million-event trace and 6x10 all")
    ap.add_argument("--slow", action="store_true", help="also dancing links on 6x10 unique (about 2 minutes)")
    args = ap.parse_args(argv)
    rows = []

    def row(job, ours, ref, target, note=""):
        rows.append({"job": job, "soma_s": ours, "reference_s": ref,
                     "ratio": None if ref is None else ours / ref, "target_s": target,
                     "met": None if target is None else ours <= target, "note": note})

    unique = soma_problem("unique")
    search = CellSearch(unique.placements, SOMA_CUBE.target, held=unique.held)
    ours, ref, a, b = side_by_side(lambda: count(search.solutions()), int_first_cell(unique), args.repeat)
    assert a == b, (a, b)
    row("unique 240, first-cell", ours, ref, 0.030, f"{a} raw solutions; ratio target 1.5")

    every = soma_problem("all")
    search_all = CellSearch(every.placements, SOMA_CUBE.target)
    ours, ref, a, b = side_by_side(lambda: count(search_all.solutions()), int_first_cell(every), 3)
    assert a == b == 11_520, (a, b)
    row("all 11,520, first-cell", ours, ref, 1.0)

    groups = seed_groups()
    ours, ref, a, b = side_by_side(lambda: count(fixed_order(groups, 27)), int_fixed_order(groups), 5)
    assert a == b == 240, (a, b)
    row("fixed-order 240", ours, ref, 0.4, "the seed's Java: about 0.6 s")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fixed.trace")

        def traced():
            with TraceWriter(path, SOMA_CUBE, "fixed-order", "unique", "bench", tests=False) as w:
                return count(fixed_order(groups, 27, on_event=w, emit_tests=False))
        ours, _ = best_of(traced, 3)
        row("fixed-order 240, traced", ours, ref, None, "77,428 events to a file")

        if not args.quick:
            big = os.path.join(tmp, "all.trace")
            subprocess.run([sys.executable, "-m", "soma", "solve", "--all", "--trace", big, "--json"],
                           check=True, capture_output=True)
            opened, trace = best_of(lambda: Trace.open(big), 1)
            row("open a trace", opened, None, 2.0, f"{len(trace):,} events, {os.path.getsize(big) / 2**20:.0f} MB")
            rng = random.Random(7)
            steps = [rng.randrange(len(trace)) for _ in range(1000)]
            t = time.perf_counter()
            for s in steps:
                trace.state(s)
            row("seek a step", (time.perf_counter() - t) / len(steps), None, 0.050, "mean of 1,000 random steps")

    board = load_puzzle("pentominoes-6x10")
    p6 = soma_problem("unique", board)
    s6 = CellSearch(p6.placements, board.target, held=p6.held)
    ours, ref, a, b = side_by_side(lambda: count(s6.solutions()), int_first_cell(p6), 1 if args.quick else 3)
    assert a == b, (a, b)
    row("6x10 unique 2,339, first-cell", ours, ref, None, f"{a} raw solutions (X held); ratio target 1.5")
    if not args.quick:
        pa = soma_problem("all", board)
        sa = CellSearch(pa.placements, board.target)
        ours, ref, a, b = side_by_side(lambda: count(sa.solutions()), int_first_cell(pa), 1)
        assert a == b == 9356, (a, b)
        row("6x10 all 9,356, first-cell", ours, ref, None, "ORACLES: CPython ints 33-50 s")
    ours, ref, a, b = side_by_side(lambda: count(dancing_links(unique.placements, 27, held=unique.held)),
                                   int_first_cell(unique), 3)
    row("unique 240, dlx", ours, ref, None, "dancing links against the int first-cell search")
    strip = load_puzzle("pentominoes-3x20")
    p3 = soma_problem("unique", strip)
    ours, ref, a, b = side_by_side(lambda: count(dancing_links(p3.placements, 60, held=p3.held)),
                                   int_first_cell(p3), 1)
    row("3x20 unique, dlx", ours, ref, None, "dancing links against the int first-cell search")
    if args.slow:
        ours, ref, a, b = side_by_side(lambda: count(dancing_links(p6.placements, 60, held=p6.held)),
                                       int_first_cell(p6), 1)
        row("6x10 unique, dlx", ours, ref, None, f"{a} solutions; dancing links in pure Python")

    try:
        from soma.kernel import compiled_search
        import numba  # noqa: F401
    except ImportError:
        compiled_search = None
    if compiled_search is not None:                  # the numba kernel (pip install '.[fast]')
        compiled_search(unique.placements, 27, held=unique.held)          # compile or load once
        for label, prob, size, n, target in (("unique 240, compiled", unique, 27, None, 0.005),
                                             ("all 11,520, compiled", every, 27, 11_520, 0.050),
                                             ("6x10 unique, compiled", p6, 60, None, 0.25)):
            t, (_, found, _) = best_of(lambda: compiled_search(prob.placements, size, held=prob.held,
                                                               record=False), 3)
            assert n is None or found == n
            row(label, t, None, target, f"{found} raw solutions, count only")
        if not args.quick:
            pa = soma_problem("all", board)
            t, (_, found, _) = best_of(lambda: compiled_search(pa.placements, 60, record=False), 1)
            assert found == 9356
            row("6x10 all, compiled", t, None, 2.0, "ORACLES: numba first-cell 1.65 s, C 1.5 s")

    bare, _ = best_of(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 5)
    whole, _ = best_of(lambda: subprocess.run([sys.executable, "-m", "soma", "solve", "--unique", "--json"],
                                              check=True, capture_output=True), 5)
    row("soma solve, whole process", whole, bare, 0.2, "reference: python -c pass")

    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'job':30s} {'soma':>10s} {'reference':>10s} {'ratio':>7s} {'target':>9s}  met")
    for r in rows:
        ref = "" if r["reference_s"] is None else f"{r['reference_s'] * 1000:8.1f}ms"
        ratio = "" if r["ratio"] is None else f"{r['ratio']:6.2f}x"
        target = "" if r["target_s"] is None else f"<{r['target_s'] * 1000:g}ms"
        met = "" if r["met"] is None else ("yes" if r["met"] else "NO")
        print(f"{r['job']:30s} {r['soma_s'] * 1000:8.1f}ms {ref:>10s} {ratio:>7s} {target:>9s}  {met:3s}  {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
