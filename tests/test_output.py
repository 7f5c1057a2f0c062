"""Outputs go where they are pointed without replacing what is there: a device stays a device,
a FIFO is written through, a symbolic link keeps pointing at its (replaced) target, and a path
that cannot be written is one line of error."""
import os
import stat
import sys
import threading

import pytest

from soma.output import Output, OutputError, write_text
from tests.helpers import one_line_error, run, run_child

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")


def _null(folder):
    path = folder / "null"
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))      # a copy of /dev/null
    return path


def _is_device(path) -> bool:
    return stat.S_ISCHR(os.lstat(path).st_mode)


@needs_root
@pytest.mark.parametrize("option", ["--out", "--trace"])
def test_a_device_stays_a_device(tmp_path, option):
    dev = _null(tmp_path)
    r = run("solve", option, str(dev))
    assert r.returncode == 0, r.stderr
    assert _is_device(dev)
    assert sorted(os.listdir(tmp_path)) == ["null"]              # no temporary file left


@needs_root
@pytest.mark.parametrize("option", ["--out", "--trace"])
def test_a_full_device_is_an_error(tmp_path, option):
    full = tmp_path / "full"
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))      # a copy of /dev/full
    r = run("solve", option, str(full))
    assert "No space left" in one_line_error(r) and r.returncode == 2
    assert _is_device(full)


@pytest.mark.parametrize("option", ["--out", "--trace"])
def test_a_fifo_is_written_through(tmp_path, option):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    r = run("solve", option, str(fifo))
    reader.join(60)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    first = b"# soma-solutions 1" if option == "--out" else b"# soma-trace"
    assert got and got[0].startswith(first) and got[0].endswith(b"\n")


@pytest.mark.parametrize("option", ["--out", "--trace"])
def test_a_link_is_kept_and_its_target_replaced(tmp_path, option):
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target.name)
    r = run("solve", option, str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == "real.txt"
    assert target.read_text().startswith("# soma-")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640           # its permissions kept
    assert sorted(os.listdir(tmp_path)) == ["link.txt", "real.txt"]


@pytest.mark.parametrize("option", ["--out", "--trace"])
def test_proc_is_a_one_line_error(option):
    r = run("solve", option, "/proc/x")
    assert "cannot write /proc/x" in one_line_error(r) and r.returncode == 2


def test_standard_output_by_name():
    r = run_child([sys.executable, "-m", "soma", "solve", "--out", "/dev/stdout"], capture_output=True)
    assert r.returncode == 0 and r.stdout.startswith(b"# soma-solutions 1")


def test_a_folder_or_a_missing_folder(tmp_path):
    with pytest.raises(OutputError, match="it is a folder"):
        write_text(str(tmp_path), "x")
    with pytest.raises(OutputError, match="does not exist"):
        write_text(str(tmp_path / "no" / "x.txt"), "x")


def test_an_error_midway_leaves_the_old_file(tmp_path):
    path = tmp_path / "keep.txt"
    path.write_text("old\n")
    with pytest.raises(RuntimeError):
        with Output(str(path)) as out:
            out.file.write(b"half")
            raise RuntimeError("stop")
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["keep.txt"]


@needs_root
def test_render_writes_through_a_device(tmp_path):
    dev = _null(tmp_path)
    r = run("render", "--out", str(dev))
    assert r.returncode == 0, r.stderr
    assert _is_device(dev) and sorted(os.listdir(tmp_path)) == ["null"]


def test_a_screenshot_that_cannot_be_written(tmp_path):
    pytest.importorskip("PyQt5")
    if not os.environ.get("DISPLAY"):
        pytest.skip("needs a display (pytest-xvfb gives one)")
    r = run("view", "--screenshot", "/proc/x.png")
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert r.returncode == 2 and errors == ["error: cannot write /proc/x.png: No such file or directory"], r.stderr
    assert "Traceback" not in r.stderr
