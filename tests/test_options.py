"""No option is silently ignored: every combination either does what it says or is refused
with one line naming the conflict (exit 2); numbers are checked against the ranges the help
gives; and the messages for odd files say what is wrong, where."""
import json
import sys

import pytest

from soma.bitmask import to_hex
from soma.problem import SOMA_CUBE
from tests.helpers import ROOT, one_line_error, run, run_child

REFUSED = [
    (["solve", "--algorithm", "dlx", "--strategy", "fixed-order"], "fixed-order"),
    (["solve", "--engine", "compiled", "--strategy", "fixed-order"], "fixed-order"),
    (["solve", "--engine", "compiled", "--algorithm", "dlx"], "dlx"),
    (["solve", "--engine", "compiled", "--trace", "/tmp/never.trace"], "--trace"),
    (["solve", "--format", "json", "--json"], "--out"),
    (["solve", "--max-trace-size", "1M"], "--trace"),
    (["solve", "--trace-tests"], "--trace"),
    (["count", "--jobs", "2", "--method", "memo"], "--jobs"),
    (["count", "--method", "memo", "--algorithm", "dlx"], "dlx"),
    (["count", "--method", "memo", "--engine", "compiled"], "compiled"),
    (["count", "--jobs", "2", "--algorithm", "dlx"], "dlx"),
    (["count", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    (["count", "--timeout", "5"], "--scheduler"),
    (["count", "--engine", "compiled", "--algorithm", "dlx"], "dlx"),
    (["count", "--jobs", "1000"], "1000"),
    (["trace", "data/fixed-order.trace.gz", "--format", "steps", "--step", "3"], "--step"),
    (["trace", "data/fixed-order.trace.gz", "--format", "steps", "--json"], "--json"),
    (["render", "--explode", "99", "--out", "/tmp/never.png"], "--explode"),
    (["render", "--explode", "nan", "--out", "/tmp/never.png"], "--explode"),
    (["render", "--hide", "z=5", "--out", "/tmp/never.png"], "z=5"),
    (["render", "--out", "/tmp/never.txt"], ".png"),
    (["render", "--step", "3", "--out", "/tmp/never.png"], "--trace"),
    (["render", "bathtub", "--trace", "data/fixed-order.trace.gz", "--out", "/tmp/never.png"], "bathtub"),
    (["show", "1", "--json", "--color", "always"], "--color"),
    (["trace", "data/fixed-order.trace.gz", "--color", "always"], "--step"),
]


@pytest.mark.parametrize("args, named", REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_refused_with_one_line(args, named):
    r = run(*args)
    assert r.returncode == 2
    assert named in one_line_error(r)


VIEW_REFUSED = [
    (["--solution", "0"], "out of range"),
    (["--solution", "999"], "1 to 240"),
    (["--step", "99999999"], "out of range"),
    (["--or", "B4:Q"], "'Q' is no piece"),
    (["--or", "XYZ"], "not a hex number"),
    (["--aux", "FFFFFFFFF"], "27 bits"),
    (["--assemble", "99"], "0 to 7"),
    (["data/solutions.txt", "--step", "5"], "a step of a trace"),
    (["data/solutions.txt", "data/solutions.txt"], "two solutions files"),
]


@pytest.mark.parametrize("args, named", VIEW_REFUSED, ids=[" ".join(a) for a, _ in VIEW_REFUSED])
def test_the_viewer_refuses_what_it_cannot_show(args, named, tmp_path):
    pytest.importorskip("PyQt5")
    import os
    if not os.environ.get("DISPLAY"):
        pytest.skip("needs a display (pytest-xvfb gives one)")
    shot = tmp_path / "never.png"
    r = run_child([sys.executable, "-m", "soma", "view", *args, "--screenshot", str(shot)],
                  capture_output=True, text=True, cwd=ROOT)
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert r.returncode == 2 and len(errors) == 1 and named in errors[0], r.stderr
    assert "Traceback" not in r.stderr and not shot.exists()


def test_engine_reaches_the_workers_and_the_trace(tmp_path):
    pytest.importorskip("numba")
    r = run("count", "pentominoes-3x20", "--jobs", "2", "--engine", "compiled", "--json")
    data = json.loads(r.stdout)
    assert (data["fixed"], data["unique"]) == (8, 2) and data["jobs"] == 2
    r = run("solve", "--engine", "python", "--trace", str(tmp_path / "t.trace"), "--json")
    assert json.loads(r.stdout)["engine"] == "python"


def test_a_huge_limit_is_no_limit():
    r = run("solve", "--all", "--limit", "100000000000000000000", "--json")
    assert json.loads(r.stdout)["solutions"] == 11520


def test_format_json_with_a_summary_and_a_file(tmp_path):
    out = tmp_path / "s.json"
    r = run("solve", "--format", "json", "--json", "--out", str(out))
    assert json.loads(r.stdout)["solutions"] == 240 and json.loads(out.read_text())["count"] == 240


# -- messages about files ----------------------------------------------------------------------


def _trace(tmp_path):
    path = tmp_path / "s.trace"
    r = run("solve", "--trace", str(path), "--limit", "1")
    assert r.returncode == 0, r.stderr
    return path


def test_crlf_traces_read(tmp_path):
    path = _trace(tmp_path)
    crlf = tmp_path / "crlf.trace"
    crlf.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    plain, windows = (json.loads(run("trace", str(p), "--json").stdout) for p in (path, crlf))
    assert windows["steps"] == plain["steps"] > 0 and windows["complete"]


def test_a_piece_placed_twice_is_refused_with_its_line(tmp_path):
    path = _trace(tmp_path)
    lines = path.read_text().split("\n")
    places = [i for i, line in enumerate(lines) if " place " in line]
    first, second = lines[places[0]].split(" "), lines[places[1]].split(" ")
    piece = first[2]
    used = {int(c) for p in SOMA_CUBE.placements[piece] if p.number == int(first[3]) for c in p.cells}
    other = next(p for p in SOMA_CUBE.placements[piece] if not used & set(p.cells))
    lines[places[1]] = f"{second[0]} place {piece} {other.number} {to_hex(other.mask)}"
    path.write_text("\n".join(lines))
    err = one_line_error(run("trace", str(path)))
    assert f"s.trace:{places[1] + 1}:" in err and f"places {piece} #{other.number}" in err


def test_a_puzzle_file_is_not_a_trace():
    err = one_line_error(run("trace", "data/puzzles/bathtub.toml"))
    assert "the first line is 'name = " in err


def test_a_toml_mistake_at_the_end_points_at_its_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nshape = """\n###\n"""\n[[piece]]\nname = "a"\nshape = "###\n')
    err = one_line_error(run("count", str(path)))
    assert "bad.toml:7:" in err
    path.write_text('name = "x"\nshape = """\n###\n')            # a string never closed
    err = one_line_error(run("count", str(path)))
    assert "bad.toml:3:" in err and "end of the file" in err


def test_one_cell_not_one_cells():
    r = run("trace", "data/fixed-order.trace.gz", "--step", "0")
    assert "1 cells" not in r.stdout
