"""The `soma` command: argparse over the library; main(argv) -> exit status.

Heavy modules (tqdm, numpy) are imported only by the commands that use them, so that
`soma solve` as a whole process stays well under 0.2 s.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from .output import OutputError
from .words import plural

DESCRIPTION = """\
Solve, count and show the Soma cube: seven pieces (V L T Z A B P) in a 3x3x3 box, every
placement a 27-bit mask; the search tests with AND, places with OR and removes with AND-NOT.
It has 11,520 fixed solutions, 480 up to rotation and 240 up to rotation and reflection."""

EPILOG = """\
examples:
  soma solve --out data/solutions.txt    write the 240 (the shipped file, byte for byte)
  soma solve --strategy fixed-order --json
  soma count --json
  soma show 1
  python -m soma --help                  the same command"""


TRACE_SIZE = 1 << 30                # --max-trace-size by default
SCHEDULER_TIMEOUT = 60.0            # --timeout by default
MAX_EXPLODE = 1.5                   # render --explode: the most its help promises


class UserError(Exception):
    """A mistake of the user's: printed as one line, exit status 2, no traceback."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line instead of usage + message
        raise UserError(f"{self.prog}: {message} (see {self.prog} --help)")


def puzzle_of(spec):
    if spec in (None, "soma"):                  # the default needs no puzzle file machinery
        from .problem import SOMA_CUBE
        return SOMA_CUBE
    from .puzzle import PuzzleError, load_puzzle
    try:
        return load_puzzle(spec)
    except PuzzleError as e:
        raise UserError(str(e)) from None


def positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return n


def max_jobs() -> int:
    return 4 * (os.cpu_count() or 1)


def jobs_arg(text: str) -> int:
    n = positive_int(text)
    if n > max_jobs():
        raise argparse.ArgumentTypeError(f"{n} processes on a machine with {os.cpu_count()} processors: "
                                         f"use 1 to {max_jobs()}")
    return n


def size_arg(text: str) -> int:
    from .budget import parse_size
    try:
        return parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def positive_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < x < 1e9:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return x


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the program is, so that cleanup (`finally`, `with`) runs:
    temporary files are removed and worker processes stopped, as on Ctrl-C."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise_interrupted(signum, frame):
    raise Interrupted(signum)


def _catch_signals() -> dict:
    """Raise Interrupted on SIGTERM and SIGHUP; returns the handlers it replaced."""
    import signal
    return {sig: signal.signal(sig, _raise_interrupted) for sig in (signal.SIGTERM, signal.SIGHUP)}


def _restore_signals(previous: dict) -> None:
    import signal
    for sig, handler in previous.items():
        signal.signal(sig, handler)


def write_atomically(path: str, text: str) -> None:
    """Write text to path, never half a file (see soma.output: a device or FIFO is written to
    directly, a symbolic link's target is replaced and the link kept)."""
    from .output import write_text
    try:
        write_text(path, text)
    except OutputError as e:
        raise UserError(str(e)) from None


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n: int = 1) -> None:
        pass


def progress_bar(unit: str):
    """A tqdm counter on stderr that shows up after a second, and only on a terminal (tqdm is
    not even imported otherwise)."""
    if not sys.stderr.isatty():
        return _NoBar()
    from tqdm import tqdm
    return tqdm(unit=f" {unit}", delay=1.0, file=sys.stderr, leave=False)


def _solve_conflicts(args) -> None:
    """Options that cannot work together are refused, never quietly ignored."""
    if args.trace_tests and not args.trace:
        raise UserError("--trace-tests needs --trace FILE")
    if args.max_trace_size is not None and not args.trace:
        raise UserError("--max-trace-size needs --trace FILE")
    if args.strategy == "fixed-order" and args.algorithm == "dlx":
        raise UserError("--strategy fixed-order is the seed's bitarray search, --algorithm dlx chooses "
                        "its own columns: give one of them")
    if args.engine == "compiled":
        if args.algorithm == "dlx" or args.strategy == "fixed-order":
            raise UserError("--engine compiled runs the first-cell bitarray search: it cannot run "
                            + ("--algorithm dlx" if args.algorithm == "dlx" else "--strategy fixed-order"))
        if args.trace:
            raise UserError("--engine compiled writes no events: it cannot make a --trace "
                            "(leave --engine out, or use --engine python)")
    if args.format == "json" and args.json and not args.out:
        raise UserError("--format json formats the solutions and --json prints a summary instead of "
                        "them: give --out FILE for the solutions as well, or leave one out")
    if args.json and args.out in ("-", "/dev/stdout"):
        raise UserError("--json prints the summary on standard output, where --out also writes: "
                        "give --out a file")


def cmd_solve(args) -> int:
    from . import solutions as S
    convention = args.convention or "unique"
    _solve_conflicts(args)
    for path in (args.out, args.trace):
        if path:
            _check_writable(path)
    puzzle = puzzle_of(args.puzzle)
    try:
        if args.trace:
            from .trace import TraceWriter
            with progress_bar("events") as bar, TraceWriter(
                    args.trace, puzzle, args.strategy, convention, args.command_line,
                    tests=args.trace_tests, progress=bar.update, max_size=args.max_trace_size or TRACE_SIZE) as writer:
                result = S.solve(args.strategy, convention, args.limit, puzzle=puzzle, on_event=writer,
                                 emit_tests=args.trace_tests, algorithm=args.algorithm, engine=args.engine)
        else:
            with progress_bar("solutions") as bar:
                result = S.solve(args.strategy, convention, args.limit, puzzle=puzzle,
                                 on_solution=lambda s: bar.update(), algorithm=args.algorithm,
                                 engine=args.engine)
    except ValueError as e:
        raise UserError(str(e)) from None
    text = S.format_json(result) if args.format == "json" else S.format_text(result, args.out or "data/solutions.txt")
    if args.out:
        write_atomically(args.out, text)
    elif not args.json:
        sys.stdout.write(text)
    if args.json:
        summary = {"strategy": result.strategy, "algorithm": args.algorithm, "engine": args.engine,
                   "convention": result.convention,
                   "solutions": len(result.solutions), "complete": result.complete,
                   **{k: v for k, v in result.stats.as_dict().items() if k != "solutions"},
                   "raw_solutions": result.stats.solutions,
                   "seconds": round(result.seconds, 6), "search_seconds": round(result.search_seconds, 6)}
        if args.out:
            summary["out"] = args.out
        if args.trace:
            summary["trace"] = args.trace
            summary["events"] = writer.step
            summary["trace_cut"] = writer.cut_at is not None
        print(json.dumps(summary))
    elif args.out:
        print(f"wrote {len(result.solutions)} solutions ({convention}) to {args.out}", file=sys.stderr)
    if args.trace and writer.cut_at is not None:
        from .budget import describe
        print(f"soma solve: the trace {args.trace} stops at step {writer.cut_at:,}: it reached "
              f"--max-trace-size {describe(args.max_trace_size or TRACE_SIZE)}; the search went on without writing",
              file=sys.stderr)
    return 0


def _check_writable(path: str) -> None:
    from .output import check
    try:
        check(path)
    except OutputError as e:
        raise UserError(str(e)) from None


def _count_conflicts(args) -> None:
    """Options that cannot work together are refused, never quietly ignored."""
    split = "--jobs" if args.jobs > 1 else "--scheduler" if args.scheduler else None
    if args.jobs > 1 and args.scheduler:
        raise UserError("--jobs runs local processes, --scheduler a Dask cluster's workers: give one of them")
    if args.timeout is not None and not args.scheduler:
        raise UserError("--timeout is how long to wait for a --scheduler's workers: it needs --scheduler")
    if args.method == "memo":
        for given, what in ((split, split), (args.algorithm == "dlx", "--algorithm dlx"),
                            (args.engine != "auto", f"--engine {args.engine}")):
            if given:
                raise UserError(f"--method memo counts in one process with its own table: it cannot "
                                f"use {what} (use --method search)")
    if args.algorithm == "dlx":
        if split:
            raise UserError(f"{split} splits the bitarray search (or the compiled kernel): dancing links "
                            "runs in one process; leave out --algorithm dlx or " + split)
        if args.engine == "compiled":
            raise UserError("--engine compiled runs the first-cell bitarray search: it cannot run --algorithm dlx")


def cmd_count(args) -> int:
    from .solutions import count
    _count_conflicts(args)
    puzzle = puzzle_of(args.puzzle)
    start = time.perf_counter()
    from .solver import SearchStats
    method = args.method
    if method == "auto":                         # memo pays where copies make states coincide
        searching = args.algorithm != "bitarray" or args.engine != "auto" or args.jobs > 1 or args.scheduler
        method = "search" if searching or not puzzle.copies else "memo"
    try:
        if method == "memo":
            counts, stats, method = _count_by_memo(puzzle, args)
        elif args.scheduler:
            counts, stats = _count_on_cluster(puzzle, args), SearchStats()
        elif args.jobs > 1:
            from .parallel import count_parallel
            with progress_bar("units") as bar:
                counts, made = count_parallel(puzzle, args.jobs, progress=lambda done, total: bar.update(),
                                              engine=args.engine)
            stats = SearchStats(placements=made, removals=made)
        else:
            counts, stats = count(puzzle, args.algorithm, args.engine)
    except ValueError as e:
        raise UserError(str(e)) from None
    seconds = time.perf_counter() - start
    group = len(puzzle.group)
    if args.json:
        print(json.dumps({"puzzle": puzzle.name, "fixed": counts.fixed, "rotations": counts.rotations,
                          "unique": counts.unique, "placements": stats.placements, "removals": stats.removals,
                          "tests": stats.tests, "symmetries": group, "algorithm": args.algorithm,
                          "jobs": args.jobs,
                          **({"nodes": stats.placements, "updates": stats.updates} if stats.updates else {}),
                          "method": (f"memoized count on (filled cells, pieces left); rotation and unique "
                                     f"counts by Burnside's lemma over the {group} symmetries"
                                     if method == "memo" else
                                     f"unique search (one piece held at one placement per class), "
                                     f"expanded exactly by the {group} symmetries"),
                          "seconds": round(seconds, 6)}))
    else:
        print(f"{puzzle.name}: {plural(puzzle.size, 'cell')}, {plural(len(puzzle.pieces), 'piece')}, "
              f"{plural(group, 'symmetry', 'symmetries')}")
        print(f"fixed      {counts.fixed:>6,}  (every solution, pieces in place)")
        print(f"rotations  {counts.rotations:>6,}  (up to the target's rotations)")
        print(f"unique     {counts.unique:>6,}  (up to rotation and reflection)")
        if method == "memo":
            print(f"memo: a count memoized on (filled cells, pieces left) and Burnside's lemma, {seconds:.3f} s")
        else:
            print(f"search: {stats.placements:,} placements, {stats.tests:,} tests, {seconds:.3f} s")
    return 0


def _count_by_memo(puzzle, args):
    """The memo count; at the memory budget, says so and counts by search instead."""
    from .memo import MemoFull, count_by_memo
    from .solutions import count
    from .solver import SearchStats
    try:
        return count_by_memo(puzzle), SearchStats(), "memo"
    except MemoFull as e:
        print(f"soma count: {e}; finishing by search instead (exact, slower; "
              "--max-memory raises the budget)", file=sys.stderr)
    counts, stats = count(puzzle, args.algorithm, args.engine)
    return counts, stats, "search"


def _count_on_cluster(puzzle, args):
    """The work units on a Dask distributed scheduler (pip install '.[cluster]')."""
    address, timeout = args.scheduler, args.timeout or SCHEDULER_TIMEOUT
    try:
        from distributed import Client
    except ImportError:
        raise UserError("--scheduler needs dask distributed: python3 -m pip install '.[cluster]'") from None
    from .parallel import count_parallel
    try:
        client = Client(address, timeout="5s")
    except (OSError, TimeoutError) as e:
        raise UserError(f"cannot reach the scheduler at {address}: {e}") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise UserError(f"no worker joined the scheduler at {address} within {timeout:g} s "
                            "(--timeout); start workers with: dask worker " + address) from None
        with progress_bar("units") as bar:
            counts, _ = count_parallel(puzzle, executor=client.get_executor(), engine=args.engine,
                                       progress=lambda done, total: bar.update(),
                                       watchdog=_no_worker_watch(client, address, timeout))
    return counts


def _no_worker_watch(client, address: str, timeout: float):
    """A watchdog that gives up once the scheduler has had no worker for `timeout` seconds."""
    since = [None]

    def watch():
        if client.scheduler_info().get("workers"):
            since[0] = None
            return
        since[0] = since[0] or time.monotonic()
        if time.monotonic() - since[0] > timeout:
            raise UserError(f"the scheduler at {address} has had no worker for {timeout:g} s "
                            "(--timeout): the count cannot go on")
    return watch


def _use_colour(mode: str | None) -> bool:
    if mode not in (None, "auto"):
        return mode == "always"
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def cmd_show(args) -> int:
    from .bitmask import layers
    from . import solutions as S
    if args.json and args.color:
        raise UserError("--color colours the layers, --json prints none: give one of them")
    puzzle = puzzle_of(args.puzzle)
    if args.file:
        try:
            sols = S.read_text(args.file, puzzle.size)
        except OSError as e:
            raise UserError(f"cannot read {args.file}: {e.strerror}") from None
        except S.SolutionsFileError as e:
            raise UserError(str(e)) from None
        where = args.file
    else:
        sols = S.solve(puzzle=puzzle).solutions
        where = "the unique solutions"
    if not 1 <= args.number <= len(sols):
        raise UserError(f"solution {args.number} is out of range: {where} number 1 to {len(sols)}")
    letters = sols[args.number - 1]
    if args.json:
        print(json.dumps(S.solution_record(args.number, letters, puzzle)))
        return 0
    paint = _painter(args.color, puzzle)
    print(f"{puzzle.name}: solution {args.number} of {len(sols)}: {letters}")
    print(layers(letters, puzzle.target, paint))
    print("  ".join(f"{p.name}={p.long_name}" for p in puzzle.pieces))
    return 0


def _open_trace(path: str):
    import warnings
    from .trace import Trace, TraceError, TraceWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", TraceWarning)
        try:
            trace = Trace.open(path)
        except TraceError as e:
            raise UserError(str(e)) from None
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    return trace


def cmd_trace(args) -> int:
    if args.format == "steps" and (args.step is not None or args.json):
        raise UserError(f"--format steps prints the seed's step list: it cannot take "
                        f"{'--step' if args.step is not None else '--json'}")
    if args.color and (args.step is None or args.json):
        raise UserError("--color colours the board of --step N (not with --json)")
    trace = _open_trace(args.file)
    if args.format == "steps":
        return _print_steps(trace)
    if args.step is not None:
        return _print_step(trace, args)
    counts = trace.counts()
    summary = {"file": args.file, "format": "soma-trace", "version": trace.header.version,
               "puzzle": trace.puzzle.name, "strategy": trace.header.strategy,
               "command": trace.header.command, "steps": len(trace),
               "events": {k: counts.get(k, 0) for k in ("place", "remove", "solution", "test")},
               "solutions": counts.get("solution", 0), "complete": not trace.truncated,
               "cut": trace.cut,
               "first_solution_step": trace.next_solution(-1)}
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{args.file}: soma-trace {trace.header.version}, {trace.puzzle.name}, strategy {trace.header.strategy}")
    print(f"  made by: {trace.header.command}")
    print(f"  steps: {len(trace):,}" + (" (cut at its size limit)" if trace.cut else
                                        " (cut short)" if trace.truncated else ""))
    for kind, n in summary["events"].items():
        print(f"  {kind:9s} {n:>10,}")
    if summary["first_solution_step"] is not None:
        print(f"  first solution at step {summary['first_solution_step']:,}")
    return 0


def _print_steps(trace) -> int:
    names = {p.name: p.long_name for p in trace.puzzle.pieces}
    from .trace import PLACE
    out = [f"{n}. {names[trace.event(int(step)).placement.piece]}"
           for n, step in enumerate((trace.kinds == PLACE).nonzero()[0])]
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))
    return 0


def _print_step(trace, args) -> int:
    from .bitmask import layers, to_hex
    if not -1 <= args.step < len(trace):
        raise UserError(f"step {args.step} is out of range: {args.file} has steps 0 to {len(trace) - 1}")
    state = trace.state(args.step)
    event = trace.event(args.step) if args.step >= 0 else None
    if args.json:
        print(json.dumps({"step": args.step, "kind": event.kind if event else None,
                          "placement": ({"piece": event.placement.piece, "number": event.placement.number}
                                        if event and event.placement else None),
                          "occupied": sorted(state.occupied.search(1)),
                          "hex": to_hex(state.occupied), "pieces": state.pieces(),
                          "next_solution": trace.next_solution(args.step),
                          "previous_solution": trace.previous_solution(args.step)}))
        return 0
    print(event.describe() if event else "before step 0: the empty board")
    print(layers(state.letters(trace.puzzle.size), trace.puzzle.target, _painter(args.color, trace.puzzle)))
    print(f"occupied: {state.occupied.count()} of {plural(trace.puzzle.size, 'cell')}, hex {to_hex(state.occupied)}")
    return 0


def _painter(mode: str, puzzle):
    if not _use_colour(mode):
        return None
    colours = {p.name: p.colour for p in puzzle.pieces}

    def paint(mark: str) -> str:
        if mark not in colours:
            return mark
        r, g, b = (int(colours[mark][k:k + 2], 16) for k in (1, 3, 5))
        return f"\x1b[48;2;{r};{g};{b}m\x1b[1;97m{mark}\x1b[0m"
    return paint


def _viewer_missing(e: ImportError, what: str) -> UserError:
    return UserError(f"{what} needs the viewer: {e.name or e} is not installed; "
                     "install it with: python3 -m pip install '.[viewer]'")


def cmd_puzzles(args) -> int:
    from .puzzle import PuzzleError, load_puzzle, shipped
    rows = []
    for name in shipped():
        try:
            p = load_puzzle(name)
            rows.append({"name": name, "title": p.name, "cells": p.size, "pieces": len(p.pieces),
                         "mirror": p.mirror, "flat": p.flat})
        except PuzzleError as e:
            rows.append({"name": name, "error": str(e)})
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(f"{r['name']:24s} {r.get('title', r.get('error'))}"
                  + (f"  ({plural(r['cells'], 'cell')}, {plural(r['pieces'], 'piece')})" if "cells" in r else ""))
    return 0


def cmd_view(args) -> int:
    try:
        from viewer.app import main as view_main
    except ImportError as e:
        raise _viewer_missing(e, "soma view") from None
    return view_main(args.rest)


def _view(argv: list[str]) -> int:
    """`soma view ...`: every argument goes to the viewer's own parser."""
    return cmd_view(argparse.Namespace(rest=argv))


def _parse_size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or not (16 <= int(w) <= 8192 and 16 <= int(h) <= 8192):
        raise UserError(f"--size {text!r}: write WIDTHxHEIGHT, for example 800x600 (16 to 8192 each)")
    return int(w), int(h)


def _render_conflicts(args) -> None:
    """Options that cannot work together, or out of their range, are refused."""
    if not 0 <= args.explode <= MAX_EXPLODE:
        raise UserError(f"--explode {args.explode:g}: give 0 to {MAX_EXPLODE} (cells between layers)")
    if args.step is not None and not args.trace:
        raise UserError("--step N is a step of a trace: it needs --trace FILE")
    if args.file and args.trace:
        raise UserError("--file gives solutions, --trace a trace: give one of them")
    if args.trace and args.puzzle:
        raise UserError(f"--trace {args.trace} names its own puzzle: leave out {args.puzzle}")
    suffix = os.path.splitext(args.out)[1].lower()
    if suffix != ".png" and (suffix or os.path.isfile(args.out) or not os.path.exists(args.out)):
        raise UserError(f"--out {args.out}: soma render writes PNG pictures; give a name ending in .png")


def cmd_render(args) -> int:
    _render_conflicts(args)
    size = _parse_size(args.size)
    try:
        from viewer.display import Display, parse_layer
        from viewer.render import RenderUnavailable, colours, render_png
        from viewer.scene import VIEWS
    except ImportError as e:
        raise _viewer_missing(e, "soma render") from None
    view = args.view
    if args.trace:
        trace = _open_trace(args.trace)
        puzzle = trace.puzzle
    else:
        puzzle = puzzle_of(args.puzzle)
    if view is None:
        view = "top" if puzzle.flat else "iso"
    if view not in VIEWS:
        raise UserError(f"--view {args.view!r}: use one of {', '.join(VIEWS)}")
    try:
        hidden = frozenset(parse_layer(h) for h in args.hide)
    except ValueError as e:
        raise UserError(f"--hide: {e}") from None
    extent = [max(c[a] for c in puzzle.target.cells) + 1 for a in range(3)]
    for axis, index in sorted(hidden):
        if index >= extent[axis]:
            raise UserError(f"--hide {'xyz'[axis]}={index}: the {puzzle.name} has layers "
                            f"{'xyz'[axis]}=0 to {'xyz'[axis]}={extent[axis] - 1}")
    _check_writable(args.out)
    if args.trace:
        step = len(trace) - 1 if args.step is None else args.step
        if not -1 <= step < len(trace):
            raise UserError(f"step {step} is out of range: {args.trace} has steps 0 to {len(trace) - 1}")
        state = trace.state(step)
        event = trace.event(step) if step >= 0 else None
        cells = event.placement.cells if event and event.placement else ()
        display = Display(state.letters(puzzle.size), colours(puzzle), hidden, args.explode, cells,
                          event.kind if event else "place")
        what = f"step {step} of {args.trace}"
    else:
        from . import solutions as S
        sols = S.read_text(args.file, puzzle.size) if args.file else S.solve(puzzle=puzzle).solutions
        n = args.solution or 1
        if not 1 <= n <= len(sols):
            raise UserError(f"solution {n} is out of range: there are {len(sols)} (1..{len(sols)})")
        display = Display(sols[n - 1].split("|")[0], colours(puzzle), hidden, args.explode)
        what = f"solution {n}"
    try:
        render_png(display, args.out, size, view, puzzle.target)
    except RenderUnavailable as e:
        raise UserError(str(e)) from None
    print(f"wrote {args.out}: {puzzle.name}, {what}, {size[0]}x{size[1]}, view {view}", file=sys.stderr)
    return 0


def cmd_placements(args) -> int:
    puzzle = puzzle_of(args.puzzle)
    counts = {name: len(p) for name, p in puzzle.placements.items()}
    if args.json:
        print(json.dumps({"placements": counts, "total": sum(counts.values())}))
    else:
        for name, n in counts.items():
            print(f"{name} {n}")
        print(f"total {sum(counts.values())}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="soma", description=DESCRIPTION, epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--max-memory", type=size_arg, metavar="SIZE",
                        help="the memory budget, e.g. 4G or 500M (default: $SOMA_MAX_MEMORY if set, else "
                             "half the physical memory); a count by memo that reaches it goes on by search, "
                             "other work stops with a one-line error")

    sp = sub.add_parser("solve", parents=[common], help="find the solutions and print or write them",
                        description="Search the Soma cube and write its solutions, sorted, one per line "
                                    "(see the README for the file format).")
    sp.add_argument("puzzle", nargs="?", metavar="PUZZLE",
                    help="a puzzle file or a shipped name (soma puzzles lists them); default: the Soma cube")
    sp.add_argument("--strategy", choices=("first-cell", "fixed-order"), default="first-cell",
                    help="first-cell (default): always fill the lowest empty cell; fixed-order: "
                         "the seed's search, L held at two placements, then P A B Z T V")
    conv = sp.add_mutually_exclusive_group()
    conv.add_argument("--unique", dest="convention", action="store_const", const="unique",
                      help="up to rotation and reflection: 240 (the default)")
    conv.add_argument("--rotations", dest="convention", action="store_const", const="rotations",
                      help="up to rotation: 480")
    conv.add_argument("--all", dest="convention", action="store_const", const="all",
                      help="every fixed solution: 11,520")
    sp.add_argument("--limit", type=positive_int, metavar="N", help="stop after N solutions")
    sp.add_argument("--out", metavar="FILE", help="write the solutions to FILE (atomically) "
                                                  "instead of standard output")
    sp.add_argument("--format", choices=("text", "json"), default="text",
                    help="text (default): '#' header, then 'number letters' lines; json: for programs")
    sp.add_argument("--json", action="store_true",
                    help="print a JSON summary (solutions, placements, removals, tests, seconds, "
                         "search_seconds) instead of the solutions")
    sp.add_argument("--algorithm", choices=("bitarray", "dlx"), default="bitarray",
                    help="bitarray (default): the AND / OR / AND-NOT search; dlx: Knuth's dancing links "
                         "(Algorithm X, column with the fewest rows first) over the same placements")
    sp.add_argument("--engine", choices=("auto", "python", "compiled"), default="auto",
                    help="auto (default): the numba kernel where it pays and numba is installed "
                         "(pip install '.[fast]'); python: the bitarray engine; compiled: the kernel")
    sp.add_argument("--trace", metavar="FILE", help="write every place / remove / solution event to "
                    "FILE as the search runs (gzip-compressed if FILE ends in .gz)")
    sp.add_argument("--max-trace-size", type=size_arg, metavar="SIZE",
                    help="stop writing the trace at this size, e.g. 200M (default 1G): the search "
                         "goes on and the trace ends with a line saying where it was cut")
    sp.add_argument("--trace-tests", action="store_true",
                    help="with --trace, also write every AND test (rejected candidates too)")
    sp.set_defaults(func=cmd_solve)

    st = sub.add_parser("trace", parents=[common], help="summarize a trace, or show the board at one of its steps",
                        description="Read a trace written by 'soma solve --trace' (plain or .gz): print "
                                    "a summary, the board after step N, or the seed's step list.")
    st.add_argument("file", metavar="FILE", help="the trace file")
    st.add_argument("--step", type=int, metavar="N", help="print the board after step N (from 0)")
    st.add_argument("--format", choices=("summary", "steps"), default="summary",
                    help="summary (default); steps: the seed's step list, '0. L Tetra Cube', one "
                         "line per placement")
    st.add_argument("--color", "--colour", choices=("auto", "always", "never"),
                    help="colour the pieces of --step (auto: on a terminal)")
    st.add_argument("--json", action="store_true", help="print one JSON object")
    st.set_defaults(func=cmd_trace)

    sc = sub.add_parser("count", parents=[common], help="the three counts: fixed, up to rotation, unique",
                        description="Count the solutions under the three conventions: a search for the "
                                    "unique ones, expanded exactly by the cube's 48 symmetries.")
    sc.add_argument("puzzle", nargs="?", metavar="PUZZLE", help="a puzzle file or shipped name (default: Soma)")
    sc.add_argument("--algorithm", choices=("bitarray", "dlx"), default="bitarray", help="the search to count with")
    sc.add_argument("--method", choices=("auto", "search", "memo"), default="auto",
                    help="search: the unique solutions, expanded by the group; memo: a count memoized "
                         "on (filled cells, pieces left) with Burnside's lemma; auto (default): memo "
                         "for puzzles with copies of a piece, where it pays, search otherwise")
    sc.add_argument("--engine", choices=("auto", "python", "compiled"), default="auto",
                    help="auto (default), python or compiled (numba, pip install '.[fast]')")
    sc.add_argument("--scheduler", metavar="ADDRESS", help="run the work units on a Dask distributed "
                    "cluster, e.g. tcp://host:8786 (pip install '.[cluster]')")
    sc.add_argument("--timeout", type=positive_float, metavar="SECONDS",
                    help="with --scheduler: give up when no worker takes the work for this long "
                         "(default 60)")
    sc.add_argument("--jobs", type=jobs_arg, default=1, metavar="N",
                    help=f"split the search over N processes (one unit per held placement; 1 to {max_jobs()}, "
                         "four per processor); the merged counts are exact")
    sc.add_argument("--json", action="store_true", help="print one JSON object")
    sc.set_defaults(func=cmd_count)

    pz = sub.add_parser("puzzles", parents=[common], help="list the shipped puzzles (data/puzzles)")
    pz.add_argument("--json", action="store_true", help="print a JSON list")
    pz.set_defaults(func=cmd_puzzles)

    sh = sub.add_parser("show", parents=[common], help="print solution N as three layers",
                        description="Print one of the 240 unique solutions (numbered as in "
                                    "data/solutions.txt) as its three layers, z = 0 on the left.")
    sh.add_argument("number", type=int, metavar="N", help="the solution's number, from 1")
    sh.add_argument("puzzle", nargs="?", metavar="PUZZLE", help="a puzzle file or shipped name (default: Soma)")
    sh.add_argument("--file", metavar="FILE", help="read the solutions from FILE instead of solving")
    sh.add_argument("--color", "--colour", choices=("auto", "always", "never"),
                    help="colour the pieces (auto: when standard output is a terminal)")
    sh.add_argument("--json", action="store_true", help="print number, letters and each piece's cells")
    sh.set_defaults(func=cmd_show)

    vw = sub.add_parser("view", help="the 3D viewer: replay a trace, browse solutions (needs '.[viewer]')",
                        description="Open the 3D viewer (PyQt5 + vispy). All arguments go to the viewer: "
                                    "soma view [TRACE|SOLUTIONS ...] [--screenshot FILE.png] [--step N] [--solution N]. "
                                    "With no file it opens the shipped trace and the 240 solutions.",
                        add_help=False)
    vw.add_argument("rest", nargs=argparse.REMAINDER)
    vw.set_defaults(func=cmd_view)

    rd = sub.add_parser("render", parents=[common], help="draw a solution or a trace step to a PNG, with no X server",
                        description="Render with vispy's EGL backend (no display needed): a solution (default "
                                    "1) or the board after a step of a trace.")
    src = rd.add_mutually_exclusive_group()
    src.add_argument("--solution", type=positive_int, metavar="N", help="solution N of the 240 (default 1)")
    src.add_argument("--trace", metavar="FILE", help="a trace; with --step N the board after step N "
                     "(default: the last step)")
    rd.add_argument("puzzle", nargs="?", metavar="PUZZLE", help="a puzzle file or shipped name (default: Soma)")
    rd.add_argument("--step", type=int, metavar="N", help="the trace step to draw")
    rd.add_argument("--file", metavar="FILE", help="take the solutions from FILE instead of solving")
    rd.add_argument("--hide", action="append", default=[], metavar="AXIS=I",
                    help="hide a layer, for example --hide z=2 (repeatable)")
    rd.add_argument("--view", default=None, help="iso (the default in space), top (the default for a "
                    "flat board), front, back, left, right, bottom")
    rd.add_argument("--explode", type=float, default=0.0, metavar="F",
                    help="pull the layers apart by F cells (0 to 1.5)")
    rd.add_argument("--size", default="800x600", metavar="WxH", help="picture size (default 800x600)")
    rd.add_argument("--out", required=True, metavar="FILE.png", help="the PNG to write")
    rd.set_defaults(func=cmd_render)

    pl = sub.add_parser("placements", parents=[common], help="count every placement of every piece in the target")
    pl.add_argument("puzzle", nargs="?", metavar="PUZZLE", help="a puzzle file or shipped name (default: Soma)")
    pl.add_argument("--json", action="store_true", help="print one JSON object")
    pl.set_defaults(func=cmd_placements)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    previous = _catch_signals() if argv[:1] != ["view"] and threading_is_main() else {}
    try:
        if argv[:1] == ["view"]:
            return _view(argv[1:])
        args = parser.parse_args(argv)
        import shlex
        args.command_line = shlex.join(["soma", *argv])
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        _use_budget(args.max_memory)
        return args.func(args)
    except (UserError, OutputError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except MemoryError as e:
        print(f"error: {_out_of_memory(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        print("interrupted", file=sys.stderr)
        return 128 + getattr(e, "signum", 2)         # 130 on Ctrl-C, 143 on SIGTERM, 129 on SIGHUP
    except BrokenPipeError:  # `soma solve | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        _restore_signals(previous)


def _use_budget(limit: int | None) -> None:
    """This process's memory budget, and a hard ceiling just above it."""
    from . import budget
    try:
        budget.backstop(budget.use(limit))
    except ValueError as e:
        raise UserError(str(e)) from None


def _out_of_memory(e: MemoryError) -> str:
    from .budget import ENV, BudgetExceeded, current
    what = str(e) if isinstance(e, BudgetExceeded) and str(e) else f"out of memory (the budget is {current()})"
    return f"{what}; give more with --max-memory SIZE (or ${ENV}), or try a smaller job"


def threading_is_main() -> bool:
    import threading
    return threading.current_thread() is threading.main_thread()
