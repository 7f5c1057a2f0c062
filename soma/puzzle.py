"""Puzzle files: a TOML description of a target and its pieces, read with the standard library;
every mistake is reported with the file, the line and what to do.

    name = "Soma bathtub"
    pieces = "soma"          # a built-in set, or [[piece]] tables (name, shape, count)
    mirror = false           # may pieces be turned over
    shape = \"\"\"
    #####
    #####
    #####

    #####
    #...#
    #####
    \"\"\"

`shape` gives layers from the bottom (z = 0) up, separated by blank lines; in a layer, rows
from y = 0 down, `#` a cell to fill, `.` no cell, and a piece's letter a cell pre-placed for it.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from .bitmask import Target
from .geometry import is_connected, normalize
from .pieces import PALETTE, PIECE_SETS, Piece
from .problem import SOMA_CUBE, Puzzle
from .words import plural

PUZZLE_DIR = Path(__file__).resolve().parent.parent / "data" / "puzzles"
KEYS = {"name", "pieces", "piece", "pieces_xml", "mirror", "shape", "spare", "description"}
PIECE_KEYS = {"name", "shape", "count", "colour", "long_name"}


class PuzzleError(ValueError):
    """A puzzle file that cannot be used: 'file:line: what is wrong; what to do'."""


def shipped() -> dict[str, Path]:
    """The puzzles in data/puzzles, by name (the file name without .toml)."""
    return {p.stem: p for p in sorted(PUZZLE_DIR.glob("*.toml"))} if PUZZLE_DIR.is_dir() else {}


def load_puzzle(spec: str | None) -> Puzzle:
    """A puzzle from a path or a shipped name; None (or 'soma') is the Soma cube."""
    if spec in (None, "", "soma", "soma-cube"):
        return SOMA_CUBE
    path = Path(spec)
    if not path.exists():
        known = shipped()
        if spec in known:
            path = known[spec]
        else:
            names = ", ".join(known) or "none found"
            raise PuzzleError(f"{spec}: no such file, and no shipped puzzle of that name (shipped: {names})")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise PuzzleError(f"{spec}:1: not UTF-8 text: a puzzle file is TOML text") from None
    except OSError as e:
        raise PuzzleError(f"{spec}: cannot read: {e.strerror}") from None
    source = path.stem if path.parent == PUZZLE_DIR else str(spec)
    return parse_puzzle(text, str(path), source)


class _Where:
    """Line numbers of keys and of shape rows, for messages."""

    def __init__(self, path: str, text: str):
        self.path, self.lines = path, text.splitlines()

    def line_of(self, key: str, after: int = 0) -> int:
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for n, line in enumerate(self.lines[after:], after + 1):
            if pattern.match(line):
                return n
        return 1

    def error(self, line: int, message: str) -> PuzzleError:
        return PuzzleError(f"{self.path}:{line}: {message}")


def parse_puzzle(text: str, path: str = "<puzzle>", source: str = "") -> Puzzle:
    where = _Where(path, text)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column \d+\)", str(e))
        end = "(at end of document)" in str(e)
        line = m.group(1) if m else str(max(1, len(text.splitlines()))) if end else "1"
        why = re.sub(r" [(]at (line|end).*", "", str(e)) + (" at the end of the file (a string, list or "
                                                              "table left open above?)" if end else "")
        raise PuzzleError(f"{path}:{line}: not valid TOML: {why}") from None
    for key in doc:
        if key not in KEYS:
            raise where.error(where.line_of(key), f"unknown key {key!r} (known: {', '.join(sorted(KEYS))})")
    if "shape" not in doc:
        raise where.error(1, "no 'shape': give the target as shape = \"\"\" ... \"\"\"")
    mirror = _bool(doc, "mirror", where)
    spare = _bool(doc, "spare", where)
    name = doc.get("name", Path(path).stem)
    if not isinstance(name, str):
        raise where.error(where.line_of("name"), "'name' must be a string")
    pieces, copies = _pieces(doc, where)
    names = {p.name for p in pieces}
    cells, marks = _shape(doc["shape"], where, where.line_of("shape"), allow=names, what="the target")
    if not cells:
        raise where.error(where.line_of("shape"), "the shape has no cells: mark them with '#'")
    target = Target.scanning_short_side(cells)
    preplaced: dict[str, list[int]] = {}
    for cell, letter in marks.items():
        preplaced.setdefault(letter, []).append(target.index[cell])
    puzzle = Puzzle(name, target, tuple(pieces), mirror, tuple(sorted(copies.items())),
                    tuple((n, tuple(sorted(c))) for n, c in sorted(preplaced.items())), spare, source or path)
    _check(puzzle, where, copies)
    return puzzle


def _bool(doc, key, where) -> bool:
    value = doc.get(key, False)
    if not isinstance(value, bool):
        raise where.error(where.line_of(key), f"'{key}' must be true or false, not {value!r}")
    return value


def read_xml_pieces(path: str, where: _Where | None = None, line: int = 1) -> list[Piece]:
    """Pieces from seed 001's XML file: root PIEZAS, PIEZA nodes with Nombre, Ancho (width),
    Alto (height) and Contenido (a 0/1 string, row by row), as attributes or child elements.
    Read with defusedxml, so no entity tricks."""
    import defusedxml.ElementTree as ET
    from defusedxml import DefusedXmlException

    def fail(message: str) -> PuzzleError:
        return where.error(line, message) if where else PuzzleError(f"{path}:1: {message}")
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise fail(f"no XML piece file {path}") from None
    except (ET.ParseError, DefusedXmlException) as e:
        raise fail(f"the XML piece file {path} cannot be read: {e}") from None
    if root.tag != "PIEZAS":
        raise fail(f"{path}: the root element is {root.tag!r}, expected PIEZAS")
    pieces = []
    for k, node in enumerate(root.findall("PIEZA")):
        def field(key):
            value = node.get(key)
            if value is None and node.find(key) is not None:
                value = node.find(key).text
            return (value or "").strip()
        name, content = field("Nombre"), field("Contenido")
        try:
            width, height = int(field("Ancho")), int(field("Alto"))
        except ValueError:
            raise fail(f"{path}: piece {k + 1} ({name!r}) needs whole numbers Ancho and Alto") from None
        if len(content) != width * height or set(content) - {"0", "1"}:
            raise fail(f"{path}: piece {name!r}: Contenido must be {width * height} characters of 0 and 1")
        letter = name[:1].upper()
        if not letter.isalnum() or any(p.name == letter for p in pieces):
            raise fail(f"{path}: piece {name!r} needs a first letter of its own (one letter names a piece)")
        cells = [(i % width, i // width, 0) for i, ch in enumerate(content) if ch == "1"]
        if not cells or not is_connected(cells):
            raise fail(f"{path}: piece {name!r} is empty or not connected")
        pieces.append(Piece(letter, name, normalize(cells), PALETTE[k % len(PALETTE)]))
    if not pieces:
        raise fail(f"{path}: no PIEZA elements")
    return pieces


def _pieces(doc, where: _Where) -> tuple[list[Piece], dict[str, int]]:
    if sum(key in doc for key in ("pieces", "piece", "pieces_xml")) > 1:
        raise where.error(where.line_of("pieces_xml" if "pieces_xml" in doc else "pieces"),
                          "give one of pieces = \"set\", pieces_xml = \"file.xml\" or [[piece]] tables")
    if "pieces_xml" in doc:
        value = doc["pieces_xml"]
        line = where.line_of("pieces_xml")
        if not isinstance(value, str):
            raise where.error(line, "pieces_xml is the path of an XML piece file")
        path = Path(value) if Path(value).is_absolute() else Path(where.path).parent / value
        return read_xml_pieces(str(path), where, line), {}
    if "pieces" in doc:
        value = doc["pieces"]
        if not isinstance(value, str) or value not in PIECE_SETS:
            raise where.error(where.line_of("pieces"), f"unknown piece set {value!r}: use one of "
                              f"{', '.join(PIECE_SETS)}, or [[piece]] tables")
        return list(PIECE_SETS[value]), {}
    tables = doc.get("piece")
    if not isinstance(tables, list) or not tables:
        raise where.error(1, "no pieces: give pieces = \"soma\" (or another set) or [[piece]] tables")
    pieces, copies = [], {}
    after = 0
    for k, t in enumerate(tables):
        header = next((n for n, line in enumerate(where.lines[after:], after + 1)
                       if line.strip() == "[[piece]]"), 1)
        after = header
        if not isinstance(t, dict):
            raise where.error(header, "each piece is a [[piece]] table")
        for key in t:
            if key not in PIECE_KEYS:
                raise where.error(where.line_of(key, header - 1), f"unknown piece key {key!r} "
                                  f"(known: {', '.join(sorted(PIECE_KEYS))})")
        name = t.get("name")
        if not isinstance(name, str) or len(name) != 1 or not name.isalnum():
            raise where.error(where.line_of("name", header - 1) if "name" in t else header,
                              f"a piece's name is one letter or digit, got {name!r}")
        if any(p.name == name for p in pieces):
            raise where.error(where.line_of("name", header - 1), f"two pieces are named {name!r}")
        if "shape" not in t or not isinstance(t["shape"], str):
            raise where.error(header, f"piece {name} has no shape: shape = \"\"\" ... \"\"\"")
        cells, marks = _shape(t["shape"], where, where.line_of("shape", header - 1), allow=set(), what=f"piece {name}")
        if not cells:
            raise where.error(where.line_of("shape", header - 1), f"piece {name} has no cells")
        if not is_connected(cells):
            raise where.error(where.line_of("shape", header - 1), f"piece {name} is not connected: "
                              "its cells must touch face to face")
        count = t.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise where.error(where.line_of("count", header - 1), f"piece {name}: count must be a whole "
                              f"number from 1, got {count!r}")
        colour = t.get("colour", PALETTE[k % len(PALETTE)])
        if not isinstance(colour, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
            raise where.error(where.line_of("colour", header - 1), f"piece {name}: colour is '#rrggbb'")
        pieces.append(Piece(name, str(t.get("long_name", f"piece {name}")), normalize(cells), colour))
        if count > 1:
            copies[name] = count
    return pieces, copies


def _shape(text, where: _Where, line: int, allow: set[str], what: str):
    """Cells (and pre-placed letters) of a layered picture; errors name the row's line."""
    if not isinstance(text, str):
        raise where.error(line, f"the shape of {what} must be a string of rows")
    first = line + 1 if where.lines and '"""' in where.lines[line - 1] and where.lines[line - 1].rstrip().endswith('"""') else line
    rows = text.split("\n")
    layers: list[list[tuple[int, str]]] = [[]]
    for n, row in enumerate(rows):
        if row.strip() == "":
            if layers[-1]:
                layers.append([])
            continue
        layers[-1].append((first + n, row.strip()))
    if not layers[-1]:
        layers.pop()
    cells, marks = [], {}
    width = None
    for z, layer in enumerate(layers):
        for y, (lineno, row) in enumerate(layer):
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise where.error(lineno, f"ragged rows in {what}: this row has {len(row)} characters, "
                                  f"the first has {width}; pad with '.'")
            for x, ch in enumerate(row):
                if ch == "#":
                    cells.append((x, y, z))
                elif ch in allow:
                    cells.append((x, y, z))
                    marks[(x, y, z)] = ch
                elif ch != ".":
                    hint = " (a letter here pre-places a cell, but there is no such piece)" if ch.isalnum() and allow else ""
                    raise where.error(lineno, f"unknown character {ch!r} in {what}: use '#' for a cell, "
                                      f"'.' for none{hint}")
    return cells, marks


def _check(puzzle: Puzzle, where: _Where, copies: dict[str, int]) -> None:
    line = where.line_of("shape")
    total = puzzle.piece_cells
    if total != puzzle.size and not (puzzle.spare and total > puzzle.size):
        extra = "" if puzzle.spare else " (spare = true lets some pieces stay unused)"
        raise where.error(line, f"the counts do not add up: the target has {plural(puzzle.size, 'cell')}, "
                          f"the pieces {total}{extra}")
    for name, cells in puzzle.preplaced:
        if copies.get(name, 1) > 1:
            raise where.error(line, f"cells pre-placed for {name}, which has several copies: "
                              "pre-place pieces that come once")
    for p in puzzle.pieces:
        if not puzzle.placements[p.name]:
            if any(n == p.name for n, _ in puzzle.preplaced):
                raise where.error(line, f"the cells pre-placed for {p.name} do not match its shape: "
                                  f"no placement of {p.name} covers them")
            raise where.error(line, f"piece {p.name} fits nowhere in the target")
