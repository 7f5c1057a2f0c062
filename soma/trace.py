"""The iteration trace: one line per search event, written as it goes, read back at any step.

A trace is UTF-8 text (optionally gzip-compressed, read directly):

    # soma-trace 1
    # puzzle: Soma cube
    # ...more '# key: value' header lines...
    0 place L 0 F4000000
    1 test P 0 ...            (only with --trace-tests)
    ...
    # end: events=77428 place=38594 remove=38594 solution=240 test=0

Random access needs no replay: the board after step N holds, for each depth d up to the depth
after step N, the placement of the latest `place` event at or before N that reached depth d
(placing and removing follow a stack). One binary search per piece on the board answers a seek.
"""
from __future__ import annotations

import gzip
import io
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from bitarray import bitarray, frozenbitarray

from .bitmask import Placement, letters_of, to_hex
from .output import Output, OutputError
from .problem import SOMA_CUBE, Puzzle
from .tracefile import (FORMAT, KINDS, PLACE, REMOVE, SOLUTION, TEST, VERSION, Header, TraceError,  # noqa: F401
                        TraceFile, TraceWarning, _check_closing, _Lookup, parse_header)

CELL_WORDS = "cell (x, y, z) is bit x + 3y + 9z; masks are hex, cell 0 most significant"
INDEX_BLOCK = 1 << 22           # steps per block while building the seek index


@dataclass(frozen=True)
class Event:
    """One line of a trace: its step, kind, the placement (None for a solution) and its mask."""
    step: int
    kind: str
    placement: Placement | None
    mask: str

    def describe(self) -> str:
        if self.placement is None:
            return f"step {self.step}: {self.kind}"
        p = self.placement
        return f"step {self.step}: {self.kind} {p.piece} #{p.number} (hex {self.mask}, cells {list(p.cells)})"


# -- writing -----------------------------------------------------------------------------------

def header_lines(puzzle: Puzzle, strategy: str, convention: str, command: str, tests: bool) -> list[str]:
    lines = [f"# {FORMAT} {VERSION}",
             f"# puzzle: {puzzle.name}",
             f"# source: {puzzle.source or 'soma'}",
             f"# strategy: {strategy}",
             f"# convention: {convention}",
             f"# tests: {'yes' if tests else 'no'}",
             f"# cells: {puzzle.size}; {CELL_WORDS}"]
    lines += [f"# piece: {p.name} {p.colour} {p.long_name}" for p in puzzle.pieces]
    lines += [f"# command: {command}", "# columns: step kind piece placement mask"]
    return lines


class _Counted(io.RawIOBase):
    """A file that counts the bytes written to it (a FIFO cannot tell its position)."""

    def __init__(self, file):
        super().__init__()
        self.file, self.written = file, 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.file.write(data)
        self.written += len(data)
        return len(data)

    def flush(self) -> None:
        self.file.flush()

    def close(self) -> None:
        if not self.closed:
            super().close()
            self.file.close()


class TraceWriter:
    """An event callback that writes a trace: to a temporary file beside `path`, flushed as it
    goes, renamed into place by `close()`; `abort()` (or an exception in a `with`) removes it.
    A device or FIFO at `path` is written directly (see soma.output)."""

    FLUSH_EVERY = 4096

    def __init__(self, path: str, puzzle: Puzzle, strategy: str, convention: str, command: str,
                 tests: bool = False, progress=None, max_size: int | None = None):
        self.path, self.tests, self.progress = path, tests, progress
        self.max_size = max_size
        self.cut_at: int | None = None             # the step where the size limit stopped writing
        self.step = 0
        self._output = Output(path)             # a temporary file, or a device written directly
        raw = self._raw = _Counted(self._output.file)
        if path.endswith(".gz"):
            gz = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0)
            self._gz = gz
            self._out = io.TextIOWrapper(gz, encoding="utf-8", newline="\n")
        else:
            self._gz = None
            self._out = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
        self._out.write("\n".join(header_lines(puzzle, strategy, convention, command, tests)) + "\n")
        self._buf: list[str] = []
        # kind -> {id(placement): line tail}; None for the kinds not written
        self._tails: dict[str, dict[int, str] | None] = {k: {} for k in KINDS}
        if not tests:
            self._tails["test"] = None
        self.counts = dict.fromkeys(KINDS, 0)

    def _tail(self, kind: str, placement: Placement | None) -> str:
        if placement is None:
            return f" {kind} - - -\n"
        return f" {kind} {placement.piece} {placement.number} {to_hex(placement.mask)}\n"

    def __call__(self, kind: str, placement: Placement | None) -> None:
        tails = self._tails[kind]
        if tails is None:
            return
        tail = tails.get(id(placement))
        if tail is None:
            tail = tails[id(placement)] = self._tail(kind, placement)
        buf = self._buf
        buf.append(f"{self.step}{tail}")
        self.step += 1
        self.counts[kind] += 1
        if kind == "solution" or len(buf) >= self.FLUSH_EVERY:
            self.flush()

    def flush(self) -> None:
        if self.progress and self._buf:
            self.progress(len(self._buf))
        try:
            self._out.write("".join(self._buf))
            self._buf.clear()
            self._out.flush()
        except OSError as e:
            raise OutputError(f"cannot write {self.path}: {e.strerror or e}") from None
        if self.max_size is not None and self.cut_at is None and self._raw.written >= self.max_size:
            self.cut_at = self.step                  # the search goes on; nothing more is written
            self._tails = dict.fromkeys(KINDS)

    def close(self) -> None:
        self.flush()
        if self.cut_at is not None:
            from .budget import describe
            self._out.write(f"# cut: at step {self.cut_at}: the trace reached its size limit of "
                            f"{describe(self.max_size)} (--max-trace-size); the search went on without "
                            "writing\n")
        totals = " ".join(f"{k}={self.counts[k]}" for k in KINDS)
        self._out.write(f"# end: events={self.step} {totals}\n")
        try:
            self._out.close()
        except OSError as e:
            self._output.discard()
            raise OutputError(f"cannot write {self.path}: {e.strerror or e}") from None
        self._output.commit()

    def abort(self) -> None:
        try:
            self._out.close()
        except Exception:  # noqa: BLE001 - the partial file is being discarded anyway
            pass
        self._output.discard()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.abort()
        return False


# -- reading -----------------------------------------------------------------------------------

def read_events(path: str) -> Iterator[Event]:
    """Stream the events of a trace, checking each line; a truncated trace yields what it holds
    and warns (TraceWarning)."""
    f = TraceFile(path)
    counts: Counter[str] = Counter()
    flat, hexes = f.lookup.flat, f.lookup.hexes
    for first, kinds, pids in f.chunks():
        for step, (k, pid) in enumerate(zip(kinds.tolist(), pids.tolist()), first):
            counts[KINDS[k]] += 1
            yield Event(step, KINDS[k], None if pid < 0 else flat[pid], "-" if pid < 0 else hexes[pid])
    _finish(f, counts)


def _finish(f: TraceFile, counts: Counter) -> list[str]:
    """Check the closing line against what was read; the warnings for a trace read in part."""
    if f.closing is not None:
        _check_closing(f.path, f.closing, f.closing_line, counts)
    said = []
    if f.cut is not None:
        said.append(f"{f.path}: the trace was cut at its size limit after {sum(counts.values()):,} events "
                    "(--max-trace-size): the search went on without writing")
    if f.truncated:
        said.append(f"{f.path}: the trace is cut short ({f.damage or 'no closing line'}): "
                    f"read {sum(counts.values()):,} complete events")
    for message in said:
        warnings.warn(message, TraceWarning, stacklevel=3)
    return said


@dataclass(frozen=True)
class BoardState:
    """The board after a step: the placements down (in the order placed) and the occupied cells."""
    step: int
    placements: tuple[Placement, ...]
    occupied: frozenbitarray

    def pieces(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for p in self.placements:
            out.setdefault(p.piece, []).extend(p.cells)
        return {k: sorted(v) for k, v in out.items()}

    def letters(self, size: int, empty: str = ".") -> str:
        return letters_of(self.placements, size, empty)


@dataclass
class Trace:
    """A trace held as arrays (kind and placement id per step), with seeks that need no replay."""
    path: str
    header: Header
    puzzle: Puzzle
    kinds: "object"                 # numpy uint8 array, one per step
    pids: "object"                  # numpy int32 array, placement id or -1
    truncated: bool = False                     # read in part: cut short, or cut at its size limit
    warnings: list[str] = field(default_factory=list)
    cut: bool = False                           # stopped at --max-trace-size (a '# cut:' line)

    @classmethod
    def open(cls, path: str) -> "Trace":
        """Read and check a whole trace (plain or gzip) in one streaming pass; errors name the
        file and line. Memory: about 5 bytes an event, plus the index (see _index)."""
        import numpy as np
        f = TraceFile(path)
        kinds_parts, pids_parts = [], []
        for _, kinds, pids in f.chunks():
            kinds_parts.append(kinds)
            pids_parts.append(pids.astype(np.int32, copy=False))
        kinds = np.concatenate(kinds_parts) if kinds_parts else np.zeros(0, np.uint8)
        del kinds_parts
        pids = np.concatenate(pids_parts) if pids_parts else np.zeros(0, np.int32)
        del pids_parts
        trace = cls(path, f.header, f.puzzle, kinds, pids, f.truncated or f.cut is not None,
                    cut=f.cut is not None)
        trace._lookup = f.lookup
        trace._index()
        trace.warnings.extend(_finish(f, trace.counts()))
        return trace

    def _index(self) -> None:
        """The depth after each step (int16 where the pieces allow) and, per depth, the steps of
        the places that reached it (uint32 where the steps allow): built a block at a time."""
        import numpy as np
        n = len(self.kinds)
        self.depth = np.zeros(n, dtype=np.int16 if _most_pieces(self.puzzle) < 1 << 15 else np.int32)
        level = 0
        for lo in range(0, n, INDEX_BLOCK):
            k = self.kinds[lo:lo + INDEX_BLOCK]
            delta = (k == PLACE).astype(self.depth.dtype)
            delta -= (k == REMOVE)
            np.cumsum(delta, out=self.depth[lo:lo + INDEX_BLOCK])
            self.depth[lo:lo + INDEX_BLOCK] += level
            level = int(self.depth[min(lo + INDEX_BLOCK, n) - 1])
        if n and self.depth.min() < 0:
            bad = int(np.argmax(self.depth < 0))
            raise TraceError(f"{self.path}:{self.header.lines + bad + 1}: step {bad} removes a piece from an "
                             "empty board: the trace is damaged")
        self._check_copies()
        step_type = np.uint32 if n < 1 << 32 else np.int64
        places = np.flatnonzero(self.kinds == PLACE).astype(step_type)
        at = self.depth[places]
        order = np.argsort(at, kind="stable")
        steps, at = places[order], at[order]
        del places, order
        top = int(at[-1]) if len(at) else 0
        bounds = np.searchsorted(at, np.arange(1, top + 2))       # where each depth starts
        self.levels = [steps[bounds[d]:bounds[d + 1]] for d in range(top)]
        self.solution_steps = np.flatnonzero(self.kinds == SOLUTION)

    def _check_copies(self) -> None:
        """TraceError naming the line of the first place of a piece that is on the board already
        (as many times as the puzzle has copies of it). A block at a time, one piece at a time."""
        import numpy as np
        names = list(self.puzzle.placements)
        of = np.array([names.index(p.piece) for p in self._lookup.flat] + [-1], dtype=np.int16)
        most = [self.puzzle.count_of(name) for name in names]
        level = [0] * len(names)
        for lo in range(0, len(self.kinds), INDEX_BLOCK):
            kinds = self.kinds[lo:lo + INDEX_BLOCK]
            piece = of[self.pids[lo:lo + INDEX_BLOCK]]                # id -1 picks the -1 at the end
            sign = (kinds == PLACE).astype(np.int8) - (kinds == REMOVE)
            for k, name in enumerate(names):
                on = np.cumsum(np.where(piece == k, sign, 0), dtype=np.int32) + level[k]
                if on[-1] > most[k] or on.max() > most[k]:
                    step = lo + int(np.argmax(on > most[k]))
                    times = "once" if most[k] == 1 else f"{most[k]} times"
                    raise TraceError(f"{self.path}:{self.header.lines + step + 1}: step {step} places "
                                     f"{name} #{self.event(step).placement.number}, but {name} is on the "
                                     f"board {times} already: the trace is damaged")
                level[k] = int(on[-1])

    def __len__(self) -> int:
        return len(self.kinds)

    def counts(self) -> Counter:
        import numpy as np
        c = np.bincount(self.kinds, minlength=len(KINDS))
        return Counter({k: int(c[i]) for i, k in enumerate(KINDS) if c[i]})

    def event(self, step: int) -> Event:
        self._check_step(step)
        k, pid = int(self.kinds[step]), int(self.pids[step])
        if pid < 0:
            return Event(step, KINDS[k], None, "-")
        return Event(step, KINDS[k], self._lookup.flat[pid], self._lookup.hexes[pid])

    def _check_step(self, step: int) -> None:
        if not 0 <= step < len(self.kinds):
            raise IndexError(f"step {step} is out of range: the trace has steps 0 to {len(self.kinds) - 1}")

    def placement_ids(self, step: int) -> list[int]:
        """The ids of the placements on the board after `step` (-1: the empty board)."""
        import numpy as np
        if step < 0:
            return []
        self._check_step(step)
        out = []
        for d in range(int(self.depth[step])):
            level = self.levels[d]
            j = int(np.searchsorted(level, step, side="right")) - 1
            out.append(int(self.pids[level[j]]))
        return out

    def state(self, step: int) -> BoardState:
        """The board after `step` (step -1 is the empty board before the first event)."""
        placed = tuple(self._lookup.flat[i] for i in self.placement_ids(step))
        occupied = bitarray(self.puzzle.size)
        for p in placed:
            occupied |= p.mask
        return BoardState(step, placed, frozenbitarray(occupied))

    def next_solution(self, step: int) -> int | None:
        """The step of the first solution after `step`, or None."""
        import numpy as np
        j = int(np.searchsorted(self.solution_steps, step, side="right"))
        return int(self.solution_steps[j]) if j < len(self.solution_steps) else None

    def previous_solution(self, step: int) -> int | None:
        """The step of the last solution before `step`, or None."""
        import numpy as np
        j = int(np.searchsorted(self.solution_steps, step, side="left")) - 1
        return int(self.solution_steps[j]) if j >= 0 else None

    def solution_letters(self) -> list[str]:
        """The letters of every solution in the trace, in trace order."""
        return [self.state(int(s)).letters(self.puzzle.size) for s in self.solution_steps]


def _most_pieces(puzzle: Puzzle) -> int:
    """The most pieces a board of this puzzle can hold at once (the deepest a trace goes)."""
    return sum(puzzle.count_of(p.name) for p in puzzle.pieces)


def replay(trace_events: Iterator[Event], size: int) -> Iterator[BoardState]:
    """The board after every step, by replaying from step 0 (the slow, obviously right way)."""
    stack: list[Placement] = []
    occupied = bitarray(size)
    for e in trace_events:
        if e.kind == "place":
            stack.append(e.placement)
            occupied |= e.placement.mask
        elif e.kind == "remove":
            stack.remove(e.placement)
            occupied &= ~e.placement.mask
        yield BoardState(e.step, tuple(stack), frozenbitarray(occupied))


class LiveTrace:
    """A trace held in memory and growing while a search runs (the viewer's live solve); the
    same questions as `Trace` (len, event, state, next / previous solution), answered the same
    way: per depth, the steps of the `place` events that reached it, searched by bisection.
    Compact (about 9 bytes an event, in typed arrays) and bounded: `add` raises BudgetExceeded
    once the process passes the memory budget (looked at every CHECK_EVERY events)."""

    CHECK_EVERY = 1 << 16

    def __init__(self, puzzle: Puzzle = SOMA_CUBE, strategy: str = "", convention: str = "", budget=None):
        from array import array
        from .budget import current
        self.puzzle, self.strategy, self.convention = puzzle, strategy, convention
        self.budget = budget or current()
        self.path = "(live)"
        self.truncated = False
        self._lookup = _Lookup(puzzle)
        self.kinds = array("B")                     # the kind of each step (PLACE, REMOVE, ...)
        self.pids = array("i")                      # its placement id, -1 for a solution
        self.depths = array("h" if _most_pieces(puzzle) < 1 << 15 else "i")   # pieces on the board after it
        self.levels: list = []                      # levels[d]: steps of places that reached depth d+1
        self.solution_steps = array("q")
        self.depth = 0

    def add(self, kind: str, placement: Placement | None) -> None:
        from array import array
        step = len(self.kinds)
        k = KINDS.index(kind)
        if k == PLACE:
            if len(self.levels) <= self.depth:
                self.levels.append(array("q"))
            self.levels[self.depth].append(step)
            self.depth += 1
        elif k == REMOVE:
            self.depth -= 1
        elif k == SOLUTION:
            self.solution_steps.append(step)
        self.kinds.append(k)
        self.pids.append(-1 if placement is None else self._lookup.offset[placement.piece] + placement.number)
        self.depths.append(self.depth)
        if step % self.CHECK_EVERY == self.CHECK_EVERY - 1 and self.budget.over():
            from .budget import BudgetExceeded
            raise BudgetExceeded(f"the live solve reached the memory budget of {self.budget} at "
                                 f"{len(self):,} steps")

    def __len__(self) -> int:
        return len(self.kinds)

    def counts(self) -> Counter:
        return Counter({kind: n for kind, n in ((kind, self.kinds.count(k)) for k, kind in enumerate(KINDS)) if n})

    def _placement(self, step: int) -> Placement | None:
        pid = self.pids[step]
        return None if pid < 0 else self._lookup.flat[pid]

    def event(self, step: int) -> Event:
        p = self._placement(step)
        return Event(step, KINDS[self.kinds[step]], p, to_hex(p.mask) if p is not None else "-")

    def state(self, step: int) -> BoardState:
        import bisect
        placed = []
        if step >= 0:
            for d in range(self.depths[step]):
                level = self.levels[d]
                placed.append(self._placement(level[bisect.bisect_right(level, step) - 1]))
        occupied = bitarray(self.puzzle.size)
        for p in placed:
            occupied |= p.mask
        return BoardState(step, tuple(placed), frozenbitarray(occupied))

    def next_solution(self, step: int) -> int | None:
        import bisect
        j = bisect.bisect_right(self.solution_steps, step)
        return self.solution_steps[j] if j < len(self.solution_steps) else None

    def previous_solution(self, step: int) -> int | None:
        import bisect
        j = bisect.bisect_left(self.solution_steps, step) - 1
        return self.solution_steps[j] if j >= 0 else None

    def save(self, path: str, command: str) -> None:
        """Write the events so far as a trace file (through a temporary file)."""
        tests = TEST in self.kinds
        with TraceWriter(path, self.puzzle, self.strategy, self.convention, command, tests=tests) as w:
            for step, k in enumerate(self.kinds):
                w(KINDS[k], self._placement(step))
