"""The command line as a user runs it: python -m soma, JSON output, the solutions file, errors."""
import json
import sys

import pytest

from soma.solutions import read_text

from tests.helpers import ROOT, one_line_error, run, run_child

SHIPPED = ROOT / "data" / "solutions.txt"


def test_help_explains_every_command():
    r = run("--help")
    assert r.returncode == 0
    for word in ("solve", "count", "show", "240"):
        assert word in r.stdout
    for cmd in ("solve", "count", "show"):
        assert run(cmd, "--help").returncode == 0


def test_count_json():
    data = json.loads(run("count", "--json").stdout)
    assert (data["fixed"], data["rotations"], data["unique"]) == (11_520, 480, 240)
    assert data["placements"] > 0 and data["seconds"] > 0


def test_solve_fixed_order_json():
    data = json.loads(run("solve", "--strategy", "fixed-order", "--json").stdout)
    assert data["solutions"] == 240
    assert (data["placements"], data["removals"], data["tests"]) == (38_594, 38_594, 3_078_514)
    assert 0 < data["search_seconds"] <= data["seconds"]


def test_solve_default_json():
    data = json.loads(run("solve", "--json").stdout)
    assert data["solutions"] == 240 and data["convention"] == "unique"
    assert data["strategy"] == "first-cell"
    for key in ("placements", "removals", "tests", "seconds", "search_seconds"):
        assert key in data


def test_shipped_file_is_240_distinct_valid_canonical(check, puzzle):
    from soma.symmetry import Canonizer
    sols = read_text(str(SHIPPED))
    assert len(sols) == len(set(sols)) == 240
    check(sols)
    canon = Canonizer(puzzle.group)
    assert all(canon.canonical(s) == s for s in sols)
    assert sols == sorted(sols)


def test_shipped_file_header_command_regenerates_it(tmp_path):
    text = SHIPPED.read_text()
    command = next(line for line in text.splitlines() if line.startswith("# regenerate: "))
    argv = command.removeprefix("# regenerate: ").split()
    assert argv[:2] == ["soma", "solve"] and argv[-2:] == ["--out", "data/solutions.txt"]
    (tmp_path / "data").mkdir()
    r = run(*argv[1:], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "data" / "solutions.txt").read_bytes() == SHIPPED.read_bytes()


def test_solve_all_and_rotations_counts(tmp_path):
    for flag, n in (("--rotations", 480), ("--all", 11_520)):
        out = tmp_path / f"{flag[2:]}.txt"
        assert run("solve", flag, "--out", str(out)).returncode == 0
        assert len(read_text(str(out))) == n


def test_solve_json_format(tmp_path):
    out = tmp_path / "s.json"
    assert run("solve", "--format", "json", "--out", str(out)).returncode == 0
    doc = json.loads(out.read_text())
    assert doc["count"] == 240 and len(doc["solutions"]) == 240
    first = doc["solutions"][0]
    assert first["number"] == 1 and len(first["letters"]) == 27
    assert sorted(i for cells in first["pieces"].values() for i in cells) == list(range(27))


def test_limit(tmp_path):
    r = run("solve", "--limit", "3")
    lines = [line for line in r.stdout.splitlines() if not line.startswith("#")]
    assert len(lines) == 3


def test_show_prints_layers():
    r = run("show", "1", "--color", "never")
    assert r.returncode == 0
    first = read_text(str(SHIPPED))[0]
    assert first in r.stdout and "z=0" in r.stdout
    assert "\x1b[" not in r.stdout
    assert "\x1b[" in run("show", "1", "--color", "always").stdout


def test_show_json_and_file():
    data = json.loads(run("show", "240", "--file", str(SHIPPED), "--json").stdout)
    assert data["letters"] == read_text(str(SHIPPED))[239]


@pytest.mark.parametrize("args", [["show", "241"], ["show", "0"], ["solve", "--limit", "0"],
                                  ["solve", "--strategy", "nope"], ["solve", "--unique", "--all"],
                                  ["count", "--bogus"], ["solve", "--out", "/no/such/folder/x.txt"],
                                  ["show", "1", "--file", "/no/such/file.txt"]])
def test_user_errors_are_one_line(args):
    one_line_error(run(*args))


def test_bad_solutions_file(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# header\n1 AAB\n")
    err = one_line_error(run("show", "1", "--file", str(bad)))
    assert "bad.txt:2" in err


def test_unwritable_file():
    err = one_line_error(run("solve", "--out", "/proc/soma-solutions.txt"))
    assert "cannot write /proc/soma-solutions.txt" in err


def test_failed_write_keeps_the_old_file(tmp_path):
    """The output goes to a temporary file first, renamed over the old one only when complete."""
    from soma.cli import UserError, write_atomically
    target = tmp_path / "keep.txt"
    target.write_text("old contents")
    (tmp_path / "dir.txt").mkdir()
    with pytest.raises(UserError):
        write_atomically(str(tmp_path / "dir.txt"), "new")
    write_atomically(str(target), "new contents")
    assert target.read_text() == "new contents"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".soma-")] == []


def test_interrupted_write_leaves_old_file(tmp_path, monkeypatch):
    from soma import cli
    target = tmp_path / "keep.txt"
    target.write_text("old contents")

    def boom(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(cli.os, "replace", boom)
    with pytest.raises(cli.UserError):
        cli.write_atomically(str(target), "new contents")
    assert target.read_text() == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_placements_json():
    assert json.loads(run("placements", "--json").stdout)["total"] == 688


def test_library_does_not_import_qt_or_vispy():
    code = ("import sys, soma.cli, soma.solutions, soma.solver, soma.symmetry, soma.bitmask;"
            "soma.cli.main(['count']);"
            "print([m for m in ('PyQt5', 'vispy', 'viewer', 'numpy', 'tqdm') if m in sys.modules])")
    r = run_child([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.stdout.strip().splitlines()[-1] == "[]"
