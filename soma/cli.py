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


class UserError(Exception):
    """A mistake of the user's: printed as one line, exit status 2, no traceback."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line instead of usage + message
        raise UserError(f"{self.prog}: {message} (see {self.prog} --help)")


def positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return n


def write_atomically(path: str, text: str) -> None:
    """Write text to path through a temporary file and a rename: never a half-written file."""
    import tempfile
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UserError(f"cannot write {path}: folder {folder} does not exist")
    if os.path.isdir(path):
        raise UserError(f"cannot write {path}: it is a folder; give a file name")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".soma-", suffix=".tmp", dir=folder)
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


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


def cmd_solve(args) -> int:
    from . import solutions as S
    convention = args.convention or "unique"
    if args.out:
        _check_writable(args.out)
    with progress_bar("solutions") as bar:
        result = S.solve(args.strategy, convention, args.limit, on_solution=lambda s: bar.update())
    text = S.format_json(result) if args.format == "json" else S.format_text(result, args.out or "data/solutions.txt")
    if args.out:
        write_atomically(args.out, text)
    elif not args.json:
        sys.stdout.write(text)
    if args.json:
        summary = {"strategy": result.strategy, "convention": result.convention,
                   "solutions": len(result.solutions), "complete": result.complete,
                   **{k: v for k, v in result.stats.as_dict().items() if k != "solutions"},
                   "raw_solutions": result.stats.solutions,
                   "seconds": round(result.seconds, 6), "search_seconds": round(result.search_seconds, 6)}
        if args.out:
            summary["out"] = args.out
        print(json.dumps(summary))
    elif args.out:
        print(f"wrote {len(result.solutions)} solutions ({convention}) to {args.out}", file=sys.stderr)
    return 0


def _check_writable(path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UserError(f"cannot write {path}: folder {folder} does not exist")
    if os.path.isdir(path):
        raise UserError(f"cannot write {path}: it is a folder; give a file name")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UserError(f"cannot write {path}: permission denied")


def cmd_count(args) -> int:
    from .solutions import count
    start = time.perf_counter()
    counts, stats = count()
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"fixed": counts.fixed, "rotations": counts.rotations, "unique": counts.unique,
                          "placements": stats.placements, "removals": stats.removals,
                          "tests": stats.tests, "method": "unique search, expanded by the 48 symmetries",
                          "seconds": round(seconds, 6)}))
    else:
        print(f"fixed      {counts.fixed:>6,}  (every solution, pieces in place)")
        print(f"rotations  {counts.rotations:>6,}  (up to the 24 rotations)")
        print(f"unique     {counts.unique:>6,}  (up to rotation and reflection)")
        print(f"search: {stats.placements:,} placements, {stats.tests:,} tests, {seconds:.3f} s")
    return 0


def _use_colour(mode: str) -> bool:
    if mode != "auto":
        return mode == "always"
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def cmd_show(args) -> int:
    from .bitmask import CUBE, layers
    from .pieces import SOMA, by_name
    from . import solutions as S
    if args.file:
        try:
            sols = S.read_text(args.file)
        except OSError as e:
            raise UserError(f"cannot read {args.file}: {e.strerror}") from None
        except S.SolutionsFileError as e:
            raise UserError(str(e)) from None
        where = args.file
    else:
        sols = S.solve().solutions
        where = "the unique solutions"
    if not 1 <= args.number <= len(sols):
        raise UserError(f"solution {args.number} is out of range: {where} number 1 to {len(sols)}")
    letters = sols[args.number - 1]
    if args.json:
        print(json.dumps(S.solution_record(args.number, letters)))
        return 0
    paint = None
    if _use_colour(args.color):
        colours = {p.name: p.colour for p in SOMA}

        def paint(mark: str) -> str:
            r, g, b = (int(colours[mark][k:k + 2], 16) for k in (1, 3, 5))
            return f"\x1b[48;2;{r};{g};{b}m\x1b[1;97m{mark}\x1b[0m" if mark in colours else mark
    print(f"solution {args.number} of {len(sols)}: {letters}")
    print(layers(letters, CUBE, paint))
    names = by_name(SOMA)
    print("  ".join(f"{n}={names[n].long_name}" for n in "VLTZABP"))
    return 0


def cmd_placements(args) -> int:
    from .bitmask import placements
    from .pieces import SOMA
    counts = {name: len(p) for name, p in placements(SOMA).items()}
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

    sp = sub.add_parser("solve", help="find the solutions and print or write them",
                        description="Search the Soma cube and write its solutions, sorted, one per line "
                                    "(see the README for the file format).")
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
    sp.set_defaults(func=cmd_solve)

    sc = sub.add_parser("count", help="the three counts: fixed, up to rotation, unique",
                        description="Count the solutions under the three conventions: a search for the "
                                    "unique ones, expanded exactly by the cube's 48 symmetries.")
    sc.add_argument("--json", action="store_true", help="print one JSON object")
    sc.set_defaults(func=cmd_count)

    sh = sub.add_parser("show", help="print solution N as three layers",
                        description="Print one of the 240 unique solutions (numbered as in "
                                    "data/solutions.txt) as its three layers, z = 0 on the left.")
    sh.add_argument("number", type=int, metavar="N", help="the solution's number, from 1")
    sh.add_argument("--file", metavar="FILE", help="read the solutions from FILE instead of solving")
    sh.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto",
                    help="colour the pieces (auto: when standard output is a terminal)")
    sh.add_argument("--json", action="store_true", help="print number, letters and each piece's cells")
    sh.set_defaults(func=cmd_show)

    pl = sub.add_parser("placements", help="count every placement of every piece in the box")
    pl.add_argument("--json", action="store_true", help="print one JSON object")
    pl.set_defaults(func=cmd_placements)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        return args.func(args)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `soma solve | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
