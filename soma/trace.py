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
import os
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from bitarray import bitarray, frozenbitarray

from .bitmask import Placement, letters_of, to_hex
from .problem import SOMA_CUBE, Puzzle

FORMAT, VERSION = "soma-trace", 1
KINDS = ("place", "remove", "solution", "test")
PLACE, REMOVE, SOLUTION, TEST = range(4)
CELL_WORDS = "cell (x, y, z) is bit x + 3y + 9z; masks are hex, cell 0 most significant"
PUZZLES = {SOMA_CUBE.name: SOMA_CUBE}


class TraceError(ValueError):
    """A trace that cannot be read: the message names the file and the line."""


class TraceWarning(UserWarning):
    """A trace read in part (truncated)."""


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


class TraceWriter:
    """An event callback that writes a trace: to a temporary file beside `path`, flushed as it
    goes, renamed into place by `close()`; `abort()` (or an exception in a `with`) removes it."""

    FLUSH_EVERY = 4096

    def __init__(self, path: str, puzzle: Puzzle, strategy: str, convention: str, command: str,
                 tests: bool = False, progress=None):
        self.path, self.tests, self.progress = path, tests, progress
        self.step = 0
        folder = os.path.dirname(os.path.abspath(path))
        base = os.path.basename(path)
        self._tmp = os.path.join(folder, f".{base}.part")
        raw = open(self._tmp, "wb")
        self._raw = raw
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
        self._out.write("".join(self._buf))
        self._buf.clear()
        self._out.flush()

    def close(self) -> None:
        self.flush()
        totals = " ".join(f"{k}={self.counts[k]}" for k in KINDS)
        self._out.write(f"# end: events={self.step} {totals}\n")
        self._out.close()
        os.replace(self._tmp, self.path)

    def abort(self) -> None:
        try:
            self._out.close()
        except Exception:  # noqa: BLE001 - the partial file is being discarded anyway
            pass
        if os.path.exists(self._tmp):
            os.unlink(self._tmp)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.abort()
        return False


# -- reading -----------------------------------------------------------------------------------

@dataclass
class Header:
    """What a trace's header says."""
    version: int
    fields: dict[str, str]
    pieces: list[tuple[str, str, str]]          # (name, colour, long name)
    lines: int                                  # how many header lines

    @property
    def puzzle_name(self) -> str:
        return self.fields.get("puzzle", "")

    @property
    def strategy(self) -> str:
        return self.fields.get("strategy", "")

    @property
    def command(self) -> str:
        return self.fields.get("command", "")


def _load_bytes(path: str) -> bytes:
    """The file's bytes, gunzipped if need be; errors for unreadable, empty and binary files."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise TraceError(f"{path}: cannot read: {e.strerror}") from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, gzip.BadGzipFile) as e:
            data = _partial_gunzip(path, data, e)
    if not data:
        raise TraceError(f"{path}:1: empty file: not a {FORMAT} trace (expected '# {FORMAT} {VERSION}')")
    if b"\0" in data[:4096]:
        raise TraceError(f"{path}:1: a binary file, not a {FORMAT} trace (expected text)")
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data[:e.start].count(b"\n") + 1
            raise TraceError(f"{path}:{line}: not UTF-8 text: a binary or damaged file") from None
    return data


def _partial_gunzip(path: str, data: bytes, error: Exception) -> bytes:
    """What a damaged or cut gzip stream still holds."""
    d = __import__("zlib").decompressobj(16 + 15)
    try:
        out = d.decompress(data)
    except Exception:  # noqa: BLE001 - nothing readable at all
        raise TraceError(f"{path}: a damaged gzip file ({error})") from None
    return out


def parse_header(path: str, lines: Sequence[str]) -> Header:
    first = lines[0].strip() if lines else ""
    parts = first.lstrip("#").split()
    if not first.startswith("#") or len(parts) != 2 or parts[0] != FORMAT:
        raise TraceError(f"{path}:1: not a {FORMAT} trace: the first line is {first[:60]!r}, "
                         f"expected '# {FORMAT} {VERSION}'")
    if parts[1] != str(VERSION):
        raise TraceError(f"{path}:1: {FORMAT} version {parts[1]} is not supported: this soma reads "
                         f"version {VERSION}; write the trace again with this soma")
    fields: dict[str, str] = {}
    pieces = []
    n = 1
    while n < len(lines) and lines[n].startswith("#") and not lines[n].startswith("# end:"):
        key, sep, value = lines[n][1:].strip().partition(":")
        if not sep:
            raise TraceError(f"{path}:{n + 1}: a header line needs 'key: value', got {lines[n][:60]!r}")
        value = value.strip()
        if key == "piece":
            name, colour, long_name = (value.split(" ", 2) + ["", ""])[:3]
            pieces.append((name, colour, long_name))
        else:
            fields[key] = value
        n += 1
    return Header(VERSION, fields, pieces, n)


def _puzzle_of(path: str, header: Header) -> Puzzle:
    source = header.fields.get("source", "soma")
    if source == "soma" and header.puzzle_name in PUZZLES:
        return PUZZLES[header.puzzle_name]
    from .puzzle import PuzzleError, load_puzzle
    try:
        return load_puzzle(source)
    except PuzzleError as e:
        raise TraceError(f"{path}:3: the trace's puzzle cannot be loaded: {e}") from None


@dataclass
class _Parts:
    """A trace file cut into its header, its event lines (bytes) and its closing line."""
    header: Header
    body: bytes                 # the event lines, each ending in a newline
    count: int                  # how many event lines
    closing: str | None
    first: int                  # the file line number of the first event
    truncated: bool

    def lines(self) -> list[str]:
        return self.body.decode("utf-8").split("\n")[:-1]


def _split(path: str, data: bytes) -> _Parts:
    """Cut a trace into header, events and closing line; a last line without its newline (the
    file was cut mid-line) is dropped."""
    cut = not data.endswith(b"\n")
    if cut:
        data = data[:data.rfind(b"\n") + 1]
    head, pos = [], 0
    while pos < len(data) and data.startswith(b"#", pos) and not data.startswith(b"# end:", pos):
        nl = data.index(b"\n", pos)
        head.append(data[pos:nl].decode("utf-8"))
        pos = nl + 1
    if not head and cut and not data:
        raise TraceError(f"{path}:1: not a {FORMAT} trace: no complete first line")
    header = parse_header(path, head)
    closing = None
    end = len(data)
    last = data.rfind(b"\n", pos, end - 1) + 1 if end > pos else end
    if end > pos and data.startswith(b"# end:", max(last, pos)):
        closing = data[max(last, pos):end - 1].decode("utf-8")
        end = max(last, pos)
    body = data[pos:end]
    return _Parts(header, body, body.count(b"\n"), closing, header.lines + 1, cut or closing is None)


def _check_closing(path: str, closing: str, lineno: int, counts: Counter) -> None:
    want = {}
    for item in closing.removeprefix("# end:").split():
        key, _, value = item.partition("=")
        if not value.isdigit():
            raise TraceError(f"{path}:{lineno}: a bad closing line {closing[:60]!r}")
        want[key] = int(value)
    have = dict(counts, events=sum(counts.values()))
    for key, value in want.items():
        if have.get(key, 0) != value:
            raise TraceError(f"{path}:{lineno}: the closing line says {key}={value} but the file "
                             f"holds {have.get(key, 0)}: the trace is damaged")


class _Lookup:
    """(piece, number) -> placement and global id, and hex masks, for one puzzle."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.flat: list[Placement] = []
        self.offset: dict[str, int] = {}
        for name, ps in puzzle.placements.items():
            self.offset[name] = len(self.flat)
            self.flat.extend(ps)
        self.hexes = [to_hex(p.mask) for p in self.flat]


def _parse_line(path: str, lineno: int, line: str, step: int, lookup: _Lookup) -> tuple[int, int]:
    """(kind, global placement id or -1) of one event line, or a TraceError that says why."""
    parts = line.split(" ")
    where = f"{path}:{lineno}"
    if len(parts) != 5:
        raise TraceError(f"{where}: expected 'step kind piece placement mask', got {line[:60]!r}")
    s, kind, piece, number, mask = parts
    if not s.isdigit() or int(s) != step:
        raise TraceError(f"{where}: expected step {step}, got {s[:20]!r}")
    if kind not in KINDS:
        raise TraceError(f"{where}: unknown event {kind[:20]!r} (expected one of {', '.join(KINDS)})")
    k = KINDS.index(kind)
    if k == SOLUTION:
        if (piece, number, mask) != ("-", "-", "-"):
            raise TraceError(f"{where}: a solution line is 'step solution - - -', got {line[:60]!r}")
        return k, -1
    if piece not in lookup.offset:
        raise TraceError(f"{where}: unknown piece {piece[:20]!r}")
    count = len(lookup.puzzle.placements[piece])
    if not number.isdigit() or int(number) >= count:
        raise TraceError(f"{where}: piece {piece} has placements 0 to {count - 1}, got {number[:20]!r}")
    pid = lookup.offset[piece] + int(number)
    if mask != lookup.hexes[pid]:
        raise TraceError(f"{where}: the mask {mask[:20]!r} is not that of {piece} #{number} "
                         f"({lookup.hexes[pid]})")
    return k, pid


def read_events(path: str) -> Iterator[Event]:
    """Stream the events of a trace, checking each line; a truncated trace yields what it holds
    and warns (TraceWarning)."""
    parts = _split(path, _load_bytes(path))
    lookup = _Lookup(_puzzle_of(path, parts.header))
    counts: Counter[str] = Counter()
    for step, line in enumerate(parts.lines()):
        k, pid = _parse_line(path, parts.first + step, line, step, lookup)
        counts[KINDS[k]] += 1
        yield Event(step, KINDS[k], None if pid < 0 else lookup.flat[pid], "-" if pid < 0 else lookup.hexes[pid])
    if parts.closing is not None:
        _check_closing(path, parts.closing, parts.first + parts.count, counts)
    if parts.truncated:
        warnings.warn(f"{path}: the trace is cut short (no closing line): read {parts.count} complete "
                      "events", TraceWarning, stacklevel=2)


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
    truncated: bool = False
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, path: str) -> "Trace":
        """Read and check a whole trace (plain or gzip); errors name the file and line."""
        import numpy as np
        parts = _split(path, _load_bytes(path))
        lookup = _Lookup(_puzzle_of(path, parts.header))
        kinds, pids = _parse_fast(parts.body, parts.count, lookup)
        if kinds is None:                     # something is wrong: find and name the line
            parsed = [_parse_line(path, parts.first + i, line, i, lookup) for i, line in enumerate(parts.lines())]
            kinds = np.array([k for k, _ in parsed], dtype=np.uint8)
            pids = np.array([p for _, p in parsed], dtype=np.int32)
        trace = cls(path, parts.header, lookup.puzzle, kinds, pids, parts.truncated)
        trace._lookup = lookup
        trace._index()
        if parts.closing is not None:
            _check_closing(path, parts.closing, parts.first + parts.count, trace.counts())
        if parts.truncated:
            msg = (f"{path}: the trace is cut short (no closing line): read {parts.count} complete events")
            trace.warnings.append(msg)
            warnings.warn(msg, TraceWarning, stacklevel=2)
        return trace

    def _index(self) -> None:
        import numpy as np
        delta = np.zeros(len(self.kinds), dtype=np.int32)
        delta[self.kinds == PLACE] = 1
        delta[self.kinds == REMOVE] = -1
        self.depth = np.cumsum(delta, dtype=np.int32)   # pieces on the board after each step
        if len(self.depth) and self.depth.min() < 0:
            bad = int(np.argmax(self.depth < 0))
            raise TraceError(f"{self.path}: step {bad} removes a piece from an empty board: the trace is damaged")
        place = self.kinds == PLACE
        top = int(self.depth.max()) if len(self.depth) else 0
        self.levels = [np.flatnonzero(place & (self.depth == d)) for d in range(1, top + 1)]
        self.solution_steps = np.flatnonzero(self.kinds == SOLUTION)

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


# -- the fast path: parse all event lines at once with numpy ----------------------------------------

def _parse_fast(body: bytes, n: int, lookup: _Lookup):
    """(kinds, pids) for well-formed event lines, or (None, None) when any line is not (the
    caller then parses line by line to say which, and why)."""
    import numpy as np
    if n == 0:
        return np.zeros(0, np.uint8), np.zeros(0, np.int32)
    if not body.isascii():
        return None, None
    buf = np.frombuffer(body, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    starts = np.empty(n, dtype=np.int64)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    spaces = np.flatnonzero(buf == 32)
    first = np.searchsorted(spaces, starts)
    if (np.searchsorted(spaces, ends) - first != 4).any():
        return None, None
    s1, s2, s3, s4 = (spaces[first + k] for k in range(4))
    steps = _numbers(buf, starts, s1 - starts, 10)
    if steps is None or (steps != np.arange(n)).any():
        return None, None
    kinds = np.full(n, 255, dtype=np.uint8)
    first_char, length = buf[s1 + 1], s2 - s1 - 1
    for k, word in enumerate(KINDS):
        kinds[(first_char == ord(word[0])) & (length == len(word))] = k
    if (kinds == 255).any():
        return None, None
    moves = np.flatnonzero(kinds != SOLUTION)
    rest = np.flatnonzero(kinds == SOLUTION)
    pids = np.full(n, -1, dtype=np.int32)
    if len(rest):                           # solution lines are 'step solution - - -'
        dash = ord("-")
        r2, r3, r4, re_ = s2[rest], s3[rest], s4[rest], ends[rest]
        if not ((r3 - r2 == 2) & (r4 - r3 == 2) & (re_ - r4 == 2) & (buf[r2 + 1] == dash)
                & (buf[r3 + 1] == dash) & (buf[r4 + 1] == dash)).all():
            return None, None
    if not len(moves):
        return kinds, pids
    m2, m3, m4, me = s2[moves], s3[moves], s4[moves], ends[moves]
    offsets = _piece_offsets(buf, m2 + 1, m3 - m2 - 1, lookup)
    numbers = _numbers(buf, m3 + 1, m4 - m3 - 1, 6)
    if offsets is None or numbers is None:
        return None, None
    sizes = np.array([len(p) for p in lookup.puzzle.placements.values()], dtype=np.int64)
    starts_of = np.array(list(lookup.offset.values()), dtype=np.int64)
    slot = np.searchsorted(starts_of, offsets)
    if (numbers >= sizes[slot]).any():
        return None, None
    ids = offsets + numbers
    masks = _numbers(buf, m4 + 1, me - m4 - 1, 16, base=16)
    expected = np.array([int(h, 16) for h in lookup.hexes], dtype=masks.dtype if masks is not None else np.int64)
    if masks is None or (masks != expected[ids]).any():
        return None, None
    pids[moves] = ids.astype(np.int32)
    return kinds, pids


_DIGIT = None


def _digit_table():
    import numpy as np
    global _DIGIT
    if _DIGIT is None:
        t = np.full(256, 99, dtype=np.uint8)
        for i, ch in enumerate("0123456789ABCDEF"):
            t[ord(ch)] = i
        _DIGIT = t
    return _DIGIT


def _numbers(buf, starts, lengths, width: int, base: int = 10):
    """The numbers written at buf[start:start+length] (at most `width` digits), vectorized one
    digit count at a time; None if any is empty, too long or not a number in that base."""
    import numpy as np
    wide = width * base.bit_length() > 62
    dtype = np.uint64 if wide else np.int64
    out = np.zeros(len(starts), dtype=dtype)
    if len(starts) == 0:
        return out
    if lengths.min() < 1 or lengths.max() > width:
        return None
    table = _digit_table()
    present = np.flatnonzero(np.bincount(lengths))
    for length in present:
        rows = np.flatnonzero(lengths == length) if len(present) > 1 else slice(None)
        digits = table[buf[starts[rows, None] + np.arange(length)]]
        if digits.max() >= base:
            return None
        value = digits[:, 0].astype(dtype)
        for k in range(1, length):
            value *= dtype(base)
            value += digits[:, k]
        out[rows] = value
    return out


def _piece_offsets(buf, starts, lengths, lookup: _Lookup):
    """The first global placement id of each piece named at buf[start:start+length], or None
    if a name is not one of the puzzle's pieces."""
    import numpy as np
    out = np.full(len(starts), -1, dtype=np.int64)
    for name, off in lookup.offset.items():
        raw = np.frombuffer(name.encode(), dtype=np.uint8)
        hit = lengths == len(raw)
        rows = np.flatnonzero(hit)
        if len(rows):
            same = (buf[starts[rows, None] + np.arange(len(raw))] == raw).all(axis=1)
            out[rows[same]] = off
    return None if (out < 0).any() else out


class LiveTrace:
    """A trace held in memory and growing while a search runs (the viewer's live solve); the
    same questions as `Trace` (len, event, state, next / previous solution), answered the same
    way: per depth, the steps of the `place` events that reached it, searched by bisection."""

    def __init__(self, puzzle: Puzzle = SOMA_CUBE, strategy: str = "", convention: str = ""):
        self.puzzle, self.strategy, self.convention = puzzle, strategy, convention
        self.path = "(live)"
        self.truncated = False
        self.kinds: list[str] = []
        self.placements: list[Placement | None] = []
        self.levels: list[list[int]] = []          # levels[d]: steps of places that reached depth d+1
        self.solution_steps: list[int] = []
        self.depth = 0
        self.depths: list[int] = []

    def add(self, kind: str, placement: Placement | None) -> None:
        step = len(self.kinds)
        if kind == "place":
            if len(self.levels) <= self.depth:
                self.levels.append([])
            self.levels[self.depth].append(step)
            self.depth += 1
        elif kind == "remove":
            self.depth -= 1
        elif kind == "solution":
            self.solution_steps.append(step)
        self.kinds.append(kind)
        self.placements.append(placement)
        self.depths.append(self.depth)

    def __len__(self) -> int:
        return len(self.kinds)

    def counts(self) -> Counter:
        return Counter(self.kinds)

    def event(self, step: int) -> Event:
        p = self.placements[step]
        return Event(step, self.kinds[step], p, to_hex(p.mask) if p is not None else "-")

    def state(self, step: int) -> BoardState:
        import bisect
        placed = []
        if step >= 0:
            for d in range(self.depths[step]):
                level = self.levels[d]
                placed.append(self.placements[level[bisect.bisect_right(level, step) - 1]])
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
        tests = "test" in self.kinds
        with TraceWriter(path, self.puzzle, self.strategy, self.convention, command, tests=tests) as w:
            for kind, p in zip(self.kinds, self.placements):
                w(kind, p)
