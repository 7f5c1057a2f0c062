"""The memory budget holds, and the commands stop cleanly: no command takes the machine down."""
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from soma.budget import Budget, parse_size
from soma.memo import MemoFull, count_by_memo, count_with
from soma.puzzle import load_puzzle, parse_puzzle
from tests.helpers import ROOT, one_line_error, run
from tests.test_puzzles import COPIES

HARD = ROOT / "tests" / "puzzles"
MB = 1 << 20


@pytest.mark.parametrize("text, size", [("4G", 4 << 30), ("500M", 500 * MB), ("1.5g", 3 << 29),
                                        ("64MiB", 64 * MB), ("2097152", 2 * MB), (" 1 GB ", 1 << 30)])
def test_sizes(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "G", "4X", "-1G", "1e9", "100K", "4 G B"])
def test_bad_sizes(text):
    with pytest.raises(ValueError):
        parse_size(text)


def test_the_memo_stops_at_the_budget():
    puzzle = parse_puzzle(COPIES, "copies.toml")
    with pytest.raises(MemoFull, match="memory budget of 1 MB"):
        count_with(puzzle, budget=Budget(MB))
    assert count_by_memo(puzzle, Budget(1 << 40)) == count_by_memo(puzzle)


def test_at_the_budget_the_count_goes_on_by_search(tmp_path):
    path = tmp_path / "copies.toml"
    path.write_text(COPIES)
    full = json.loads(run("count", str(path), "--method", "memo", "--json").stdout)
    r = run("count", str(path), "--method", "memo", "--max-memory", "1M", "--json")
    assert r.returncode == 0, r.stderr
    assert "reached the memory budget of 1 MB" in r.stderr and "finishing by search" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    cut = json.loads(r.stdout)
    assert [cut[k] for k in ("fixed", "rotations", "unique")] == [full[k] for k in ("fixed", "rotations", "unique")]
    assert cut["method"].startswith("unique search")


def test_bad_budgets_are_one_line():
    assert "not a size" in one_line_error(run("count", "--max-memory", "lots"))
    env = dict(os.environ, SOMA_MAX_MEMORY="plenty")
    assert "SOMA_MAX_MEMORY" in one_line_error(run("count", env=env))


# -- processes that are stopped -----------------------------------------------------------------

def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent, session) of a process, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1]), int(fields[3])


def _session(sid: int) -> list[int]:
    """The live (not zombie) processes of a session."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st and st[2] == sid and st[0] != "Z":
                out.append(int(entry))
    return out


def _start(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "soma", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _wait_for(condition, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.05)


def _peak_of(proc: subprocess.Popen, timeout: float = 30) -> tuple[int, int]:
    """(exit status, peak resident bytes) of a child, by wait4."""
    end = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, usage.ru_maxrss * 1024
        assert time.monotonic() < end, "the child did not stop"
        time.sleep(0.05)


def _workers_running(proc, n):
    return len([p for p in _session(proc.pid) if p != proc.pid]) >= n


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_jobs_stop_cleanly(sig, status):
    proc = _start("count", "pentominoes-6x10", "--jobs", "2")
    try:
        _wait_for(lambda: _workers_running(proc, 2))
        time.sleep(0.3)
        assert proc.poll() is None, "the count ended before the signal: the test needs a longer one"
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)               # Ctrl-C goes to the whole foreground group
        else:
            os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == status, err
        assert err.strip() == "interrupted"
        _wait_for(lambda: not _session(proc.pid), 5)
    finally:
        if _session(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


def test_workers_die_with_their_parent():
    proc = _start("count", "pentominoes-6x10", "--jobs", "2")
    try:
        _wait_for(lambda: _workers_running(proc, 2))
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=10)
        _wait_for(lambda: not _session(proc.pid), 5)
    finally:
        if _session(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


def test_a_stopped_trace_leaves_no_part_file(tmp_path):
    out = tmp_path / "all.trace"
    proc = _start("solve", "pentominoes-6x10", "--all", "--trace", str(out))

    def part_grown() -> bool:
        parts = list(tmp_path.glob(".all.trace.*part"))
        return bool(parts) and parts[0].stat().st_size > 100_000
    try:
        _wait_for(part_grown)
        os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 143 and err.strip() == "interrupted", err
        assert os.listdir(tmp_path) == []
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_compiled_kernel_stops_on_a_signal():
    pytest.importorskip("numba")
    proc = _start("count", str(HARD / "solid-pentominoes-3x4x5.toml"), "--engine", "compiled")
    try:
        time.sleep(4)                              # loaded, compiled, and deep in the kernel
        assert proc.poll() is None
        start = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 130 and err.strip() == "interrupted", err
        assert time.monotonic() - start < 2
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_hard_memo_count_stays_in_its_budget():
    """16 L-tetracubes in a 4x4x4 cube: the memo grows by tens of MB a second; at 300 MB it
    says so and goes on by search; the peak resident size stays near the budget."""
    proc = subprocess.Popen([sys.executable, "-m", "soma", "count", str(HARD / "l-tetracubes-4x4x4.toml"),
                             "--max-memory", "300M"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert select.select([proc.stderr], [], [], 90)[0], "no word from the count in 90 s"
        line = proc.stderr.readline().decode()      # said when the memo reaches the budget
        assert "reached the memory budget of 300 MB" in line, line
        time.sleep(2)                               # searching now
        os.kill(proc.pid, signal.SIGTERM)
        status, peak = _peak_of(proc)
        assert status == 143
        assert peak < 1.3 * 300 * MB, f"peak {peak / MB:.0f} MB"
        assert proc.stderr.read().decode().strip() == "interrupted"
    finally:
        if proc.poll() is None and _stat(proc.pid):
            proc.kill()


def test_no_worker_on_the_scheduler_is_one_line():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=None,
                                  processes=True) as cluster:
        r = run("count", "pentominoes-3x20", "--scheduler", cluster.scheduler_address, "--timeout", "2")
    assert "no worker joined the scheduler" in one_line_error(r)


def test_reading_a_big_trace_costs_less_than_the_file(tmp_path):
    """`soma trace` on the 6x10 unique trace (about 3 M events, 80 MB) peaks under 1.5 times
    the file's size plus 150 MB (it held 10 times the file before)."""
    path = tmp_path / "u.trace"
    assert run("solve", "pentominoes-6x10", "--trace", str(path)).returncode == 0
    size = path.stat().st_size
    assert size > 50 * MB
    proc = subprocess.Popen([sys.executable, "-m", "soma", "trace", str(path), "--json"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read()
    status, peak = _peak_of(proc, 120)
    assert status == 0
    assert json.loads(out)["steps"] > 2_000_000
    assert peak < 1.5 * size + 150 * MB, f"peak {peak / MB:.0f} MB for a {size / MB:.0f} MB trace"


def test_reading_a_trace_past_the_budget_is_one_line(tmp_path):
    path = tmp_path / "u.trace"
    assert run("solve", "pentominoes-3x20", "--trace", str(path)).returncode == 0
    err = one_line_error(run("trace", str(path), "--max-memory", "1M"))
    assert "reading the trace passed the memory budget of 1 MB" in err and "--max-memory" in err


DOMINOES = ('name = "dominoes 8x8"\nshape = """\n' + "########\n" * 8 + '"""\n'
            '[[piece]]\nname = "D"\nshape = """\n##\n"""\ncount = 32\n')


def test_holding_millions_of_solutions_is_refused_in_one_line(tmp_path):
    """12,988,816 domino tilings of the 8x8 board: the memo counts them at once; listing them
    all would pass the budget, and says so; --limit stops the compiled search early."""
    pytest.importorskip("numba")
    path = tmp_path / "dominoes.toml"
    path.write_text(DOMINOES)
    assert json.loads(run("count", str(path), "--json").stdout)["fixed"] == 12_988_816
    err = one_line_error(run("solve", str(path), "--all", "--max-memory", "100M"))
    assert "holding the 12,988,816 solutions found would pass the memory budget of 100 MB" in err
    data = json.loads(run("solve", str(path), "--all", "--limit", "10", "--json").stdout)
    assert data["solutions"] == 10 and data["placements"] < 1000
