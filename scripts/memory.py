"""Memory benchmark: the peak resident size of the commands that grow with the work, each in a
process of its own (measured by wait4, as /usr/bin/time -v does), against its ceiling.

    python scripts/memory.py [--quick] [--json]

Jobs (ceilings from the memory issue, on a 2-core, 24 GB machine):
  memo 3x4x5    soma count tests/puzzles/solid-pentominoes-3x4x5.toml --method memo --max-memory 1G,
                to the end: peak < 1.3 GB, and exact (3,940 unique, the published count)
  memo L 4x4x4  soma count tests/puzzles/l-tetracubes-4x4x4.toml --max-memory 1G, its first 150 s
                (a count that may run for hours): peak < 1.3 GB
  trace 6x10    soma trace on the trace of soma solve pentominoes-6x10 --trace (unique):
                peak < 1.5 x the file's size + 150 MB
--quick skips the 3x4x5 count (about 100 s) and watches the 4x4x4 count for 30 s.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARD = ROOT / "tests" / "puzzles"
MB = 1 << 20


def peak_of(args: list[str], seconds: float | None = None) -> dict:
    """Run `python -m soma ARGS`; stop it with SIGTERM after `seconds` if given. Returns its exit
    status, wall time, peak resident size, standard output and standard error."""
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "soma", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    return {"status": proc.returncode, "seconds": time.monotonic() - start, "out": out, "err": err}


def measured(args: list[str], seconds: float | None = None) -> dict:
    """peak_of in a helper process of its own: the peak of the helper's children (RUSAGE_CHILDREN,
    what wait4 reports) is then this job's alone."""
    code = (f"import json, resource, sys; sys.path.insert(0, {str(ROOT / 'scripts')!r}); import memory; "
            f"r = memory.peak_of({args!r}, {seconds!r}); "
            "r['peak'] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024; print(json.dumps(r))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="skip the long 3x4x5 count; watch the 4x4x4 for 30 s")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args(argv)
    rows = []

    def row(job: str, r: dict, ceiling: int, note: str, exact: bool = True) -> None:
        rows.append({"job": job, "seconds": round(r["seconds"], 1), "peak_mb": round(r["peak"] / MB),
                     "ceiling_mb": round(ceiling / MB), "met": r["peak"] < ceiling and exact, "note": note})

    if not args.quick:
        r = measured(["count", str(HARD / "solid-pentominoes-3x4x5.toml"), "--method", "memo",
                      "--max-memory", "1G", "--json"])
        counts = json.loads(r["out"])
        exact = r["status"] == 0 and (counts["fixed"], counts["unique"]) == (31_520, 3_940)
        said = "memo reached the budget, finished by search" if "finishing by search" in r["err"] else "memo"
        row("memo 3x4x5, 1G, to the end", r, 1300 * MB,
            f"{said}; fixed {counts['fixed']:,}, unique {counts['unique']:,} (published 3,940)", exact)
    watch = 30 if args.quick else 150
    r = measured(["count", str(HARD / "l-tetracubes-4x4x4.toml"), "--max-memory", "1G"], watch)
    row(f"memo L 4x4x4, 1G, {watch} s", r, 1300 * MB,
        f"exit {r['status']}; " + ("memo reached the budget, searching" if "finishing by search" in r["err"]
                                   else "memo still filling"))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "u6x10.trace")
        subprocess.run([sys.executable, "-m", "soma", "solve", "pentominoes-6x10", "--trace", path],
                       cwd=ROOT, check=True, capture_output=True)
        size = os.path.getsize(path)
        r = measured(["trace", path, "--json"])
        steps = json.loads(r["out"])["steps"]
        row("soma trace, 6x10 unique", r, int(1.5 * size) + 150 * MB,
            f"{steps:,} events, a {size / MB:.0f} MB file")
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'job':32s} {'time':>7s} {'peak':>9s} {'ceiling':>9s}  met")
    for r in rows:
        print(f"{r['job']:32s} {r['seconds']:6.1f}s {r['peak_mb']:6d} MB {r['ceiling_mb']:6d} MB  "
              f"{'yes' if r['met'] else 'NO':3s}  {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
