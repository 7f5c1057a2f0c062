"""Reading a trace file: front to back in chunks of whole lines (gunzipped on the fly), each
chunk parsed at once with numpy into compact arrays; a bad line is named by file and line.

Memory: the arrays (one byte of kind and four of placement id per event) and one chunk at a
time, never the whole file; the memory budget is checked after every chunk.
"""
from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .bitmask import Placement, to_hex
from .budget import BudgetExceeded, current
from .problem import SOMA_CUBE, Puzzle

FORMAT, VERSION = "soma-trace", 1
KINDS = ("place", "remove", "solution", "test")
PLACE, REMOVE, SOLUTION, TEST = range(4)
PUZZLES = {SOMA_CUBE.name: SOMA_CUBE}
CHUNK = 4 << 20                 # bytes of event lines parsed at a time
BLOCK = 1 << 20                 # bytes read (or gunzipped) at a time
LONGEST_LINE = 1 << 20          # a longer 'line' is not a trace


class TraceError(ValueError):
    """A trace that cannot be read: the message names the file and the line."""


class TraceWarning(UserWarning):
    """A trace read in part (truncated)."""


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


class _Damaged(Exception):
    """A gzip stream that ends early or breaks: what came before it is still good."""


def _blocks(path: str) -> Iterator[bytes]:
    """The file's bytes block by block, gunzipped as they come (gzip members one after
    another, as gzip allows). A cut or damaged gzip stream raises _Damaged after what it held."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise TraceError(f"{path}: cannot read: {e.strerror}") from None
    with f:
        raw = f.read(BLOCK)
        if raw[:2] != b"\x1f\x8b":
            while raw:
                yield raw
                raw = f.read(BLOCK)
            return
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        while True:
            try:
                out = d.decompress(raw, BLOCK)
            except zlib.error as e:
                raise _Damaged(f"a damaged gzip stream ({e})") from None
            if out:
                yield out
            raw = d.unconsumed_tail
            if d.eof:                               # this member is done; another may follow
                raw = d.unused_data or f.read(BLOCK)
                if not raw:
                    return
                d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            elif not raw:
                raw = f.read(BLOCK)
                if not raw:
                    raise _Damaged("the gzip stream is cut short")


class TraceFile:
    """One pass over a trace file: `header` and `puzzle` at once, then `chunks()` of parsed
    events; after them `closing` (the '# end:' line), `cut` (the '# cut:' line of a trace
    stopped at its size limit) and `truncated` (the file ends early) say how it ended."""

    def __init__(self, path: str):
        self.path = path
        self._blocks = _blocks(path)
        self._rest = b""
        self._eof = False
        self.damage: str | None = None
        self.closing: str | None = None
        self.closing_line = 0
        self.cut: str | None = None
        self.cut_mid_line = False
        first = self._lines(64 << 10)
        if not first and not self._rest:
            raise TraceError(f"{path}:1: empty file: not a {FORMAT} trace (expected '# {FORMAT} {VERSION}')")
        if b"\0" in (first or self._rest)[:4096]:
            raise TraceError(f"{path}:1: a binary file, not a {FORMAT} trace (expected text)")
        if not first:
            raise TraceError(f"{path}:1: not a {FORMAT} trace: no complete first line")
        head, pos = [], 0
        while pos < len(first) and first.startswith(b"#", pos) and not first.startswith((b"# end:", b"# cut:"), pos):
            nl = first.index(b"\n", pos)
            head.append(_text(path, len(head) + 1, first[pos:nl]))
            pos = nl + 1
        if not head:
            line = _text(path, 1, first[:first.index(b"\n")])
            raise TraceError(f"{path}:1: not a {FORMAT} trace: the first line is {line[:60]!r}, expected "
                             f"'# {FORMAT} {VERSION}' (soma solve --trace FILE writes traces)")
        self.header = parse_header(path, head)
        self._pending = first[pos:]
        self.puzzle = _puzzle_of(path, self.header)
        self.lookup = _Lookup(self.puzzle)

    @property
    def truncated(self) -> bool:
        return self.closing is None or self.damage is not None or self.cut_mid_line

    def _lines(self, want: int) -> bytes:
        """About `want` bytes of whole lines (b"" at the end); a last line without its newline
        (a file cut mid-line) is held back and dropped at the end."""
        parts, have = [self._rest], len(self._rest)
        while have < want and not self._eof:
            try:
                block = next(self._blocks)
            except StopIteration:
                self._eof = True
                break
            except _Damaged as e:
                self.damage, self._eof = str(e), True
                break
            parts.append(block)
            have += len(block)
        data = b"".join(parts)
        end = data.rfind(b"\n") + 1
        if end == 0 and len(data) > LONGEST_LINE:
            raise TraceError(f"{self.path}: a line of over {LONGEST_LINE:,} bytes: not a {FORMAT} trace")
        self._rest = data[end:]
        if self._eof and self._rest:
            self.cut_mid_line = True
            if not end:
                self._rest = b""
        whole = data[:end]
        return whole.replace(b"\r\n", b"\n") if b"\r" in whole else whole     # CRLF lines too

    def chunks(self) -> Iterator[tuple[int, "object", "object"]]:
        """(first step, kinds, placement ids) per chunk of event lines, in order; TraceError
        names the first bad line; BudgetExceeded if the arrays outgrow the memory budget."""
        budget = current()
        step, line = 0, self.header.lines + 1
        data, self._pending = self._pending, b""
        while True:
            if len(data) < CHUNK // 2:
                data += self._lines(CHUNK)
            if not data:
                return
            trailer = 0 if data.startswith(b"#") else data.find(b"\n#") + 1 or None
            body = data if trailer is None else data[:trailer]
            if body:
                n = body.count(b"\n")
                kinds, pids = _parse_fast(body, n, self.lookup, step)
                if kinds is None:
                    kinds, pids = _parse_slow(self.path, line, step, body, self.lookup)
                yield step, kinds, pids
                step, line = step + n, line + n
                if budget.over():
                    raise BudgetExceeded(f"{self.path}: reading the trace passed the memory budget of "
                                         f"{budget} at step {step:,}")
            if trailer is not None:
                self._trailer(line, data[trailer:])
                return
            data = b""

    def _trailer(self, line: int, data: bytes) -> None:
        """The closing lines: an optional '# cut:' line, then '# end:'; nothing after them."""
        while True:
            for raw in data.split(b"\n")[:-1]:
                text = _text(self.path, line, raw)
                if self.closing is not None:
                    raise TraceError(f"{self.path}:{line}: nothing may follow the closing line, got "
                                     f"{text[:60]!r}")
                if text.startswith("# cut:") and self.cut is None:
                    self.cut = text
                elif text.startswith("# end:"):
                    self.closing, self.closing_line = text, line
                else:
                    raise TraceError(f"{self.path}:{line}: expected an event 'step kind piece placement "
                                     f"mask' or the closing '# end:' line, got {text[:60]!r}")
                line += 1
            data = self._lines(CHUNK)
            if not data:
                return


def _text(path: str, line: int, raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TraceError(f"{path}:{line}: not UTF-8 text: a binary or damaged file") from None


def _parse_slow(path: str, line: int, step: int, body: bytes, lookup: _Lookup):
    """Line by line: the TraceError of the first bad line (or the arrays, if none is bad)."""
    import numpy as np
    parsed = [_parse_line(path, line + i, _text(path, line + i, raw), step + i, lookup)
              for i, raw in enumerate(body.split(b"\n")[:-1])]
    return (np.array([k for k, _ in parsed], dtype=np.uint8),
            np.array([p for _, p in parsed], dtype=np.int32))


# -- the fast path: parse all event lines at once with numpy ----------------------------------------

def _parse_fast(body: bytes, n: int, lookup: _Lookup, first_step: int = 0):
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
    if steps is None or (steps != np.arange(first_step, first_step + n)).any():
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


