"""Benchmark: the bitarray first-cell search for the 240 against a plain Python-int search.

Both search the same problem (the same held piece at the same symmetry representatives, the same
cell order, the same tables built beforehand); the script prints both times (best of N,
interleaved) and their ratio. The target is a ratio of at most 1.5. It also times the whole
`soma solve --unique --json` process against a bare `python -c pass` (target: under 0.2 s).

    python scripts/bench_search.py [--repeat N] [--json]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from soma.problem import soma_problem
from soma.solver import CellSearch


def int_reference(problem):
    """A straightforward first-cell search on Python ints, tables built outside the timing."""
    held = problem.held
    names = [n for n in problem.placements if n != held]
    table = [[] for _ in range(problem.size)]
    for slot, name in enumerate(names):
        starts: dict[int, list[int]] = {}
        for p in problem.placements[name]:
            starts.setdefault(p.cells[0], []).append(sum(1 << i for i in p.cells))
        for c, ms in starts.items():
            table[c].append((slot, ms))
    roots = [sum(1 << i for i in p.cells) for p in problem.placements[held]]
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
        return found
    return run


def process_seconds(argv: list[str], repeat: int) -> float:
    """The best wall-clock time of a whole process."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        best = min(best, time.perf_counter() - t)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    problem = soma_problem("unique")
    search = CellSearch(problem.placements, problem.puzzle.target, held=problem.held)
    ref = int_reference(problem)
    best_ref = best_ours = float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        n_ref = len(ref())
        best_ref = min(best_ref, time.perf_counter() - t)
        t = time.perf_counter()
        n_ours = sum(1 for _ in search.solutions())
        best_ours = min(best_ours, time.perf_counter() - t)
    assert n_ref == n_ours, (n_ref, n_ours)
    ratio = best_ours / best_ref
    bare = process_seconds([sys.executable, "-c", "pass"], 5)
    whole = process_seconds([sys.executable, "-m", "soma", "solve", "--unique", "--json"], 5)
    result = {"solutions": n_ours, "reference_seconds": round(best_ref, 5),
              "bitarray_seconds": round(best_ours, 5), "ratio": round(ratio, 3), "target": 1.5,
              "python_start_seconds": round(bare, 3), "solve_process_seconds": round(whole, 3)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"first-cell search for the Soma 240 ({n_ours} raw solutions, best of {args.repeat})")
        print(f"  plain Python ints : {best_ref * 1000:7.2f} ms")
        print(f"  soma (bitarray)   : {best_ours * 1000:7.2f} ms")
        print(f"  ratio             : {ratio:7.2f}  (target <= 1.5)")
        print("whole process, best of 5")
        print(f"  python -c pass                     : {bare * 1000:7.1f} ms")
        print(f"  python -m soma solve --unique --json: {whole * 1000:7.1f} ms  (target < 200 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
