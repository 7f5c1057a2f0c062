"""The `soma` command: argparse over the library; main(argv) -> exit status."""
from __future__ import annotations

import argparse
import json
import sys


class UserError(Exception):
    """A mistake of the user's: printed as one line, exit status 2, no traceback."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not usage + traceback
        raise UserError(f"{self.prog}: {message} (see {self.prog} --help)")


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
    p = _Parser(prog="soma", description="Solve, count and show the Soma cube with bit-mask placements.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sp = sub.add_parser("placements", help="count every placement of every piece in the box")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.set_defaults(func=cmd_placements)
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
