"""The viewer in a real Qt window with real OpenGL (Xvfb + Mesa): click, type, drag, and look
at the rendered pixels."""
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import run_child

vispy = pytest.importorskip("vispy")
vispy.use(app="pyqt5")

from PyQt5 import QtCore, QtTest, QtWidgets  # noqa: E402
from PyQt5.QtCore import Qt  # noqa: E402

from viewer.app import MainWindow  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_TRACE = ROOT / "data" / "fixed-order.trace.gz"
SHIPPED_SOLUTIONS = ROOT / "data" / "solutions.txt"
BACKGROUND = np.array([0xF3, 0xF4, 0xF6])


def drawn(image) -> np.ndarray:
    """A mask of the pixels that are not background."""
    return np.abs(image[..., :3].astype(int) - BACKGROUND).sum(axis=2) > 30


@pytest.fixture
def window(qtbot):
    w = MainWindow(str(SHIPPED_TRACE), str(SHIPPED_SOLUTIONS))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: not w.loading and w.replay.count > 0, timeout=20000)
    return w


def click(qtbot, button):
    qtbot.mouseClick(button, Qt.LeftButton)


def test_window_fits_the_screen_and_says_what_is_shown(window):
    assert window.width() <= 1280 and window.height() <= 800
    assert window.replay.count == 77_428
    assert "start" in window.status.text()
    assert window.menuBar().actions()[0].text() == "&File"
    assert window.actions["next"].shortcut().toString() == "Right"


def test_next_previous_and_pixels(window, qtbot):
    empty = window.scene.render()
    click(qtbot, window.replay_panel.buttons["next"])
    assert window.replay.step == 0
    one = window.scene.render()
    assert drawn(one).sum() > drawn(empty).sum()          # the L appeared
    assert "step 0 of 0 to 77,427: place L" in window.status.text()
    click(qtbot, window.replay_panel.buttons["next"])
    click(qtbot, window.replay_panel.buttons["previous"])
    assert window.replay.step == 0
    assert [p.piece for p in window.replay.state().placements] == ["L"]
    assert window.replay_panel.list.currentIndex().row() == 1


def test_type_a_step_and_jump_to_solutions(window, qtbot):
    window.replay_panel.goto.clear()
    qtbot.keyClicks(window.replay_panel.goto, "5000")
    qtbot.keyClick(window.replay_panel.goto, Qt.Key_Return)
    assert window.replay.step == 5000
    assert window.replay_panel.slider.value() == 5000
    click(qtbot, window.replay_panel.buttons["next_solution"])
    step = window.replay.step
    assert window.replay.event().kind == "solution" and step > 5000
    assert "solutions found: 1 of 240" in window.status.text()
    full = drawn(window.scene.render()).sum()
    click(qtbot, window.replay_panel.buttons["next_solution"])
    assert window.replay.step > step
    click(qtbot, window.replay_panel.buttons["prev_solution"])
    assert window.replay.step == step
    click(qtbot, window.replay_panel.buttons["last"])
    assert window.replay.step == 77_427
    click(qtbot, window.replay_panel.buttons["first"])
    assert window.replay.step == -1
    assert full > 0


def test_keyboard_shortcuts(window, qtbot):
    window.activateWindow()
    qtbot.waitActive(window)
    window.canvas_widget.setFocus()

    def key(k, modifier=Qt.NoModifier):   # through the window, as the platform delivers keys
        QtTest.QTest.keyClick(window.windowHandle(), k, modifier)
        qtbot.wait(30)
    key(Qt.Key_Shift)                     # the first key event after showing is swallowed on Xvfb
    key(Qt.Key_Right)
    key(Qt.Key_Right)
    qtbot.waitUntil(lambda: window.replay.step == 1)
    key(Qt.Key_Right, Qt.ControlModifier)
    qtbot.waitUntil(lambda: window.replay.event().kind == "solution")
    key(Qt.Key_Home)
    qtbot.waitUntil(lambda: window.replay.step == -1)


def test_hide_a_layer_changes_the_top_of_the_picture(window, qtbot):
    window.replay.go(window.replay.trace.next_solution(-1))
    before = window.scene.render()
    box = window.layers_panel.boxes[(2, 2)]
    click(qtbot, box)
    assert (2, 2) in window.hidden and not box.isChecked()
    assert window.actions["hide z=2"].isChecked()
    after = window.scene.render()
    changed = np.abs(before[..., :3].astype(int) - after[..., :3].astype(int)).sum(axis=2) > 30
    rows = np.flatnonzero(changed.any(axis=1))
    drawn_rows = np.flatnonzero(drawn(before).any(axis=1))
    assert len(rows) and rows.min() <= drawn_rows.min() + 5       # the top of the cube went away
    assert drawn(after).sum() < drawn(before).sum()
    assert "hidden: z=2" in window.status.text()
    window.actions["show_all"].trigger()
    assert window.hidden == frozenset() and box.isChecked()


def test_explode_slider(window, qtbot):
    window.replay.go(window.replay.trace.next_solution(-1))
    before = drawn(window.scene.render())
    window.layers_panel.explode.setValue(80)
    assert window.explode == pytest.approx(0.8)
    after = drawn(window.scene.render())
    assert (before != after).sum() > 500


def test_browse_solutions(window, qtbot):
    window.tabs.setCurrentWidget(window.solutions_panel)
    assert window.solutions_panel.list.count() == 240
    first = window.scene.render()
    click(qtbot, window.solutions_panel.next)
    assert window.solutions.index == 1
    assert "solution 2 of 240" in window.status.text()
    second = window.scene.render()
    assert (np.abs(first.astype(int) - second.astype(int)).sum(axis=2) > 30).sum() > 100
    window.solutions_panel.list.setCurrentRow(10)
    assert window.solutions.index == 10
    click(qtbot, window.solutions_panel.prev)
    assert window.solutions.index == 9


def drag(qtbot, widget, start, end, steps=8):
    """A real drag: press, moves with the button held (12 ms apart: vispy drops faster ones), release."""
    def send(kind, pos, button, buttons):
        event = QtWidgets.QMouseEvent if False else None  # noqa: F841 - keep flake quiet
        from PyQt5.QtGui import QMouseEvent
        QtWidgets.QApplication.sendEvent(widget, QMouseEvent(kind, QtCore.QPointF(*pos), button, buttons,
                                                             Qt.NoModifier))
    send(QtCore.QEvent.MouseButtonPress, start, Qt.LeftButton, Qt.LeftButton)
    for k in range(1, steps + 1):
        qtbot.wait(15)
        pos = (start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps)
        send(QtCore.QEvent.MouseMove, pos, Qt.NoButton, Qt.LeftButton)
    send(QtCore.QEvent.MouseButtonRelease, end, Qt.LeftButton, Qt.NoButton)
    qtbot.wait(30)


def test_drag_rotates_the_camera(window, qtbot):
    window.replay.go(window.replay.trace.next_solution(-1))
    az, el, _ = window.scene.camera_values()
    before = window.scene.render()
    w = window.canvas_widget
    drag(qtbot, w, (w.width() / 2, w.height() / 2), (w.width() / 2 + 150, w.height() / 2 + 40))
    az2, el2, _ = window.scene.camera_values()
    assert abs(az2 - az) > 10
    after = window.scene.render()
    assert (np.abs(before.astype(int) - after.astype(int)).sum(axis=2) > 30).sum() > 500
    qtbot.waitUntil(lambda: abs(window.camera_panel.azimuth.value() - (((az2 + 180) % 360) - 180)) < 0.2)
    click(qtbot, window.findChild(QtWidgets.QPushButton, "Reset"))
    assert window.scene.camera_values()[:2] == pytest.approx((-35.0, 28.0))


def test_camera_fields_are_editable(window, qtbot):
    window.camera_panel.elevation.setValue(60)
    assert window.scene.camera_values()[1] == pytest.approx(60)
    window.actions["view top"].trigger()
    assert window.scene.camera_values()[1] == pytest.approx(90)


def test_play_and_pause(window, qtbot):
    window.replay_panel.speed.setValue(200)
    click(qtbot, window.replay_panel.play)
    qtbot.waitUntil(lambda: window.replay.step > 20, timeout=5000)
    click(qtbot, window.replay_panel.play)
    stopped = window.replay.step
    qtbot.wait(200)
    assert window.replay.step == stopped
    assert not window.timer.isActive()


def test_bad_trace_shows_a_message_not_a_crash(qtbot, tmp_path):
    bad = tmp_path / "bad.trace"
    bad.write_text("# soma-trace 1\n# puzzle: Soma cube\n0 place L 0 7200000\n1 place Q 1 1\n")
    w = MainWindow(str(bad), None)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: not w.loading, timeout=10000)
    assert w.replay_panel.banner.isVisible()
    assert "bad.trace:4" in w.replay_panel.banner.text()
    assert w.replay.count == 0


def test_truncated_trace_opens_with_a_warning(qtbot, tmp_path):
    text = "\n".join(Path(SHIPPED_TRACE).read_bytes().decode("latin-1").splitlines()[:0])  # noqa: F841
    import gzip
    raw = gzip.decompress(SHIPPED_TRACE.read_bytes()).decode()
    cut = tmp_path / "cut.trace"
    cut.write_text(raw[:20000])
    w = MainWindow(str(cut), None)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: not w.loading, timeout=10000)
    assert w.replay.count > 100
    assert "cut short" in w.replay_panel.banner.text()


def test_screenshot_of_the_whole_window(tmp_path):
    out = tmp_path / "window.png"
    r = run_child([sys.executable, "-m", "soma", "view", "--screenshot", str(out), "--step", "5093"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    from tests.test_render import piece_pixels, read_png
    image = read_png(out)
    assert image.shape[1] >= 1000
    assert sum(n > 100 for n in piece_pixels(image).values()) >= 5


def test_a_pentomino_trace_opens_on_its_own_board(qtbot, tmp_path):
    from viewer.app import trace_puzzle
    path = tmp_path / "p.trace"
    r = run_child([sys.executable, "-m", "soma", "solve", "pentominoes-3x20", "--limit", "1", "--trace",
                        str(path)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    puzzle = trace_puzzle(str(path))
    assert puzzle.name == "Pentominoes 3x20" and puzzle.flat
    w = MainWindow(str(path), None, puzzle)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: not w.loading and w.replay.count > 0, timeout=20000)
    assert w.scene.camera_values()[1] == pytest.approx(90)          # seen from above
    empty = drawn(w.scene.render()).sum()
    w.replay.go(w.replay.trace.next_solution(-1))
    assert drawn(w.scene.render()).sum() > empty
    assert len(w.legend.findChildren(QtWidgets.QLabel)) == 24     # 12 swatches, 12 names
