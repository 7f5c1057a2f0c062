"""The trace: written while solving, read back whole or streamed, any step at once, bad files."""
import gzip
import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from soma.problem import SOMA_CUBE
from soma.solutions import read_text
from soma.symmetry import Canonizer
from soma.trace import Trace, TraceError, TraceWarning, read_events, replay

from tests.helpers import ROOT, one_line_error, run

SHIPPED = ROOT / "data" / "fixed-order.trace.gz"


@pytest.fixture(scope="session")
def shipped():
    return Trace.open(str(SHIPPED))


@pytest.fixture(scope="session")
def shipped_replay():
    return list(replay(read_events(str(SHIPPED)), 27))


def same_state(a, b):
    return (sorted((p.piece, p.number) for p in a.placements) == sorted((p.piece, p.number) for p in b.placements)
            and a.occupied == b.occupied)


def test_fixed_order_trace_counts_and_solutions(tmp_path, check):
    path = tmp_path / "t.txt"
    r = run("solve", "--strategy", "fixed-order", "--trace", str(path), "--json")
    assert r.returncode == 0, r.stderr
    trace = Trace.open(str(path))
    assert trace.counts() == {"place": 38_594, "remove": 38_594, "solution": 240}
    assert len(trace) == 77_428
    letters = trace.solution_letters()
    check(letters)
    canon = Canonizer(SOMA_CUBE.group)
    assert sorted(canon.canonical(s) for s in letters) == read_text(str(ROOT / "data" / "solutions.txt"))


def test_shipped_trace_is_the_full_fixed_order_search(shipped):
    assert shipped.counts() == {"place": 38_594, "remove": 38_594, "solution": 240}
    assert len(shipped) == 77_428
    assert SHIPPED.stat().st_size < 5 * 2**20


def test_shipped_trace_regenerates(tmp_path):
    text = gzip.decompress(SHIPPED.read_bytes()).decode()
    command = next(line for line in text.splitlines() if line.startswith("# command: "))
    argv = command.removeprefix("# command: ").split()
    assert argv[0] == "soma"
    (tmp_path / "data").mkdir()
    r = run(*argv[1:], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert gzip.decompress((tmp_path / "data" / SHIPPED.name).read_bytes()).decode() == text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 77_427))
def test_random_steps_equal_replay(shipped, shipped_replay, step):
    assert same_state(shipped.state(step), shipped_replay[step])


def test_every_step_of_a_small_trace_with_tests(tmp_path):
    path = tmp_path / "small.txt"
    assert run("solve", "--limit", "3", "--trace", str(path), "--trace-tests").returncode == 0
    trace = Trace.open(str(path))
    counts = trace.counts()
    assert counts["test"] > counts["place"] > 0
    states = list(replay(read_events(str(path)), 27))
    assert len(states) == len(trace)
    for step, expected in enumerate(states):
        assert same_state(trace.state(step), expected)
    assert trace.state(-1).occupied.count() == 0
    assert counts["solution"] == 3


def test_every_step_of_the_shipped_trace(shipped, shipped_replay):
    for step, expected in enumerate(shipped_replay):
        assert shipped.placement_ids(step) == [shipped._lookup.offset[p.piece] + p.number
                                               for p in expected.placements]


def test_solutions_navigation(shipped):
    first = shipped.next_solution(-1)
    assert shipped.event(first).kind == "solution"
    assert shipped.state(first).occupied.all()
    second = shipped.next_solution(first)
    assert shipped.previous_solution(second) == first
    assert shipped.previous_solution(first) is None
    assert shipped.next_solution(len(shipped) - 1) is None


@pytest.fixture(scope="session")
def million(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "all.trace"
    r = run("solve", "--all", "--trace", str(path), "--json")
    assert r.returncode == 0, r.stderr
    return path


def test_million_event_trace_random_steps_equal_replay(million):
    import random
    trace = Trace.open(str(million))
    assert len(trace) > 1_000_000
    assert trace.counts()["solution"] == 11_520
    rng = random.Random(1)
    wanted = sorted(rng.randrange(len(trace)) for _ in range(300))
    i, stack = 0, []
    for event in read_events(str(million)):          # a replay from step 0
        if event.kind == "place":
            stack.append(event.placement)
        elif event.kind == "remove":
            assert stack.pop() == event.placement
        while i < len(wanted) and wanted[i] == event.step:
            assert list(trace.state(event.step).placements) == stack
            i += 1
        if i == len(wanted):
            break
    assert i == len(wanted)


def test_cli_summary_step_and_steps_format():
    summary = json.loads(run("trace", str(SHIPPED), "--json").stdout)
    assert summary["events"] == {"place": 38_594, "remove": 38_594, "solution": 240, "test": 0}
    assert summary["steps"] == 77_428 and summary["solutions"] == 240
    step = json.loads(run("trace", str(SHIPPED), "--step", "10", "--json").stdout)
    assert step["step"] == 10
    assert step["occupied"] == sorted(i for cells in step["pieces"].values() for i in cells)
    text = run("trace", str(SHIPPED), "--step", "10", "--color", "never")
    assert text.returncode == 0 and "z=0" in text.stdout
    lines = run("trace", str(SHIPPED), "--format", "steps").stdout.splitlines()
    assert len(lines) == 38_594
    assert lines[0] == "0. L Tetra Cube"
    assert lines[1].startswith("1. ")


def test_step_out_of_range_is_one_line():
    one_line_error(run("trace", str(SHIPPED), "--step", "77428"))


# -- bad files -------------------------------------------------------------------------------

GOOD_HEAD = (ROOT / "data" / "solutions.txt")  # any file that is not a trace


def small_trace(tmp_path):
    path = tmp_path / "ok.txt"
    assert run("solve", "--strategy", "fixed-order", "--limit", "1", "--trace", str(path)).returncode == 0
    return path


def test_malformed_line(tmp_path):
    lines = small_trace(tmp_path).read_text().splitlines(keepends=True)
    head = sum(1 for line in lines if line.startswith("# ") and not line.startswith("# end"))
    lines[head + 5] = "5 place Q 3 ZZ\n"
    bad = tmp_path / "bad.txt"
    bad.write_text("".join(lines))
    with pytest.raises(TraceError, match=rf"bad.txt:{head + 6}: unknown piece 'Q'"):
        Trace.open(str(bad))
    assert f"bad.txt:{head + 6}" in one_line_error(run("trace", str(bad)))
    lines[head + 5] = "garbage\n"
    bad.write_text("".join(lines))
    assert f"bad.txt:{head + 6}: expected 'step kind piece placement mask'" in one_line_error(run("trace", str(bad)))


def test_wrong_mask_and_wrong_step(tmp_path):
    lines = small_trace(tmp_path).read_text().splitlines(keepends=True)
    head = sum(1 for line in lines if line.startswith("# ") and not line.startswith("# end"))
    step, kind, piece, number, mask = lines[head + 3].split()
    wrong = lines.copy()
    wrong[head + 3] = f"{step} {kind} {piece} {number} 1\n"
    (tmp_path / "mask.txt").write_text("".join(wrong))
    with pytest.raises(TraceError, match=rf"mask.txt:{head + 4}: the mask"):
        Trace.open(str(tmp_path / "mask.txt"))
    wrong = lines.copy()
    wrong[head + 3] = f"99 {kind} {piece} {number} {mask}\n"
    (tmp_path / "step.txt").write_text("".join(wrong))
    with pytest.raises(TraceError, match=rf"step.txt:{head + 4}: expected step 3"):
        Trace.open(str(tmp_path / "step.txt"))


def test_wrong_version(tmp_path):
    text = small_trace(tmp_path).read_text().replace("# soma-trace 1", "# soma-trace 2", 1)
    bad = tmp_path / "v2.txt"
    bad.write_text(text)
    err = one_line_error(run("trace", str(bad)))
    assert "v2.txt:1" in err and "version 2" in err


def test_not_a_trace():
    err = one_line_error(run("trace", str(GOOD_HEAD)))
    assert "solutions.txt:1" in err and "not a soma-trace" in err


def test_empty_file(tmp_path):
    (tmp_path / "empty.txt").write_text("")
    assert "empty.txt:1: empty file" in one_line_error(run("trace", str(tmp_path / "empty.txt")))


def test_binary_file(tmp_path):
    (tmp_path / "bin.dat").write_bytes(bytes(range(256)) * 4)
    assert "bin.dat:1: a binary file" in one_line_error(run("trace", str(tmp_path / "bin.dat")))


def test_missing_file(tmp_path):
    assert "cannot read" in one_line_error(run("trace", str(tmp_path / "nope.txt")))


def test_truncated_file_reads_to_its_last_complete_event(tmp_path):
    text = small_trace(tmp_path).read_text()
    full = Trace.open(str(tmp_path / "ok.txt"))
    cut = text[: len(text) * 2 // 3]
    assert not cut.endswith("\n")
    (tmp_path / "cut.txt").write_text(cut)
    complete = cut[: cut.rfind("\n") + 1]
    events = sum(1 for line in complete.splitlines() if not line.startswith("#"))
    with pytest.warns(TraceWarning, match="cut short"):
        trace = Trace.open(str(tmp_path / "cut.txt"))
    assert len(trace) == events
    for step in range(0, events, 7):
        assert same_state(trace.state(step), full.state(step))
    with pytest.warns(TraceWarning):
        assert sum(1 for _ in read_events(str(tmp_path / "cut.txt"))) == events
    r = run("trace", str(tmp_path / "cut.txt"), "--json")
    assert r.returncode == 0 and "warning" in r.stderr and "Traceback" not in r.stderr
    assert json.loads(r.stdout)["complete"] is False


def test_truncated_gzip(tmp_path):
    raw = SHIPPED.read_bytes()
    (tmp_path / "cut.trace.gz").write_bytes(raw[: len(raw) // 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TraceWarning)
        trace = Trace.open(str(tmp_path / "cut.trace.gz"))
    assert 0 < len(trace) < 77_428
    assert trace.truncated


def test_closing_line_must_agree(tmp_path):
    text = small_trace(tmp_path).read_text()
    lines = text.splitlines(keepends=True)
    del lines[-2]                               # an event lost in the middle of the file... at the end
    (tmp_path / "short.txt").write_text("".join(lines))
    err = one_line_error(run("trace", str(tmp_path / "short.txt")))
    assert "closing line" in err


def test_interrupted_trace_leaves_no_file(tmp_path):
    from soma.trace import TraceWriter
    path = tmp_path / "x.trace"
    with pytest.raises(RuntimeError):
        with TraceWriter(str(path), SOMA_CUBE, "first-cell", "unique", "soma solve") as writer:
            writer("solution", None)
            raise RuntimeError("stop")
    assert list(tmp_path.iterdir()) == []


def test_a_trace_cut_at_its_size_limit(tmp_path, shipped):
    path = tmp_path / "cut.trace"
    r = run("solve", "--strategy", "fixed-order", "--trace", str(path), "--max-trace-size", "1M", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["trace_cut"] and data["solutions"] == 240         # the search went on to the end
    assert "stops at step" in r.stderr
    assert 1 << 20 <= path.stat().st_size < (1 << 20) + 200_000
    assert path.read_text().splitlines()[-2].startswith("# cut: at step ")
    with pytest.warns(TraceWarning, match="cut at its size limit"):
        trace = Trace.open(str(path))
    assert trace.cut and trace.truncated and 0 < len(trace) == data["events"] < len(shipped)
    for step in range(0, len(trace), 997):
        assert same_state(trace.state(step), shipped.state(step))
    summary = json.loads(run("trace", str(path), "--json").stdout)
    assert summary["cut"] is True and summary["complete"] is False and summary["steps"] == len(trace)


def test_a_trace_under_its_size_limit_is_whole(tmp_path):
    path = tmp_path / "t.trace.gz"
    r = run("solve", "--strategy", "fixed-order", "--trace", str(path), "--max-trace-size", "100M", "--json")
    assert json.loads(r.stdout)["trace_cut"] is False
    trace = Trace.open(str(path))
    assert not trace.cut and not trace.truncated and len(trace) == 77_428


def test_a_line_that_is_neither_event_nor_closing(tmp_path):
    lines = small_trace(tmp_path).read_text().splitlines(keepends=True)
    head = sum(1 for line in lines if line.startswith("# ") and not line.startswith("# end"))
    lines.insert(head + 4, "# a remark\n")
    (tmp_path / "remark.txt").write_text("".join(lines))
    err = one_line_error(run("trace", str(tmp_path / "remark.txt")))
    assert f"remark.txt:{head + 5}: expected an event" in err
    lines = small_trace(tmp_path).read_text().splitlines(keepends=True) + ["0 place L 0 F4000000\n"]
    (tmp_path / "after.txt").write_text("".join(lines))
    assert "nothing may follow the closing line" in one_line_error(run("trace", str(tmp_path / "after.txt")))


def test_gzip_members_one_after_another(tmp_path):
    text = small_trace(tmp_path).read_bytes()
    half = text.index(b"\n", len(text) // 2) + 1
    (tmp_path / "two.gz").write_bytes(gzip.compress(text[:half]) + gzip.compress(text[half:]))
    assert len(Trace.open(str(tmp_path / "two.gz"))) == len(Trace.open(str(tmp_path / "ok.txt")))


def test_no_events_at_all(tmp_path):
    text = small_trace(tmp_path).read_text().splitlines(keepends=True)
    head = [line for line in text if line.startswith("# ") and not line.startswith("# end")]
    (tmp_path / "none.txt").write_text("".join(head) + "# end: events=0 place=0 remove=0 solution=0 test=0\n")
    trace = Trace.open(str(tmp_path / "none.txt"))
    assert len(trace) == 0 and not trace.truncated and trace.state(-1).placements == ()


def test_a_live_trace_answers_as_the_file_does(shipped):
    from soma.trace import LiveTrace
    live = LiveTrace(SOMA_CUBE, "fixed-order", "unique")
    for e in read_events(str(SHIPPED)):
        live.add(e.kind, e.placement)
    assert len(live) == len(shipped) and live.counts() == shipped.counts()
    for step in [-1, 0, 1, 2, 77_427] + list(range(5, len(shipped), 1_999)):
        assert same_state(live.state(step), shipped.state(step))
        assert live.next_solution(step) == shipped.next_solution(step)
        assert live.previous_solution(step) == shipped.previous_solution(step)
        if step >= 0:
            assert live.event(step) == shipped.event(step)


def test_a_live_trace_stops_at_the_budget():
    from soma.budget import Budget, BudgetExceeded
    from soma.trace import LiveTrace
    live = LiveTrace(SOMA_CUBE, "fixed-order", "unique", budget=Budget(1 << 20))
    with pytest.raises(BudgetExceeded, match="the live solve reached the memory budget of 1 MB"):
        for e in read_events(str(SHIPPED)):
            live.add(e.kind, e.placement)
    assert len(live) == LiveTrace.CHECK_EVERY
