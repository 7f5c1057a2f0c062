"""The playground, picking, live solving and the assembly, in a real window under Xvfb."""
import numpy as np
import pytest

vispy = pytest.importorskip("vispy")
vispy.use(app="pyqt5")

from PyQt5 import QtWidgets  # noqa: E402
from PyQt5.QtCore import Qt  # noqa: E402

from soma.bitmask import to_hex  # noqa: E402
from soma.trace import Trace  # noqa: E402
from tests.test_viewer_gui import SHIPPED_SOLUTIONS, SHIPPED_TRACE, click, drag, drawn  # noqa: E402
from viewer.app import MainWindow  # noqa: E402
from viewer.display import centre  # noqa: E402


@pytest.fixture
def window(qtbot):
    w = MainWindow(str(SHIPPED_TRACE), str(SHIPPED_SOLUTIONS))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: not w.loading, timeout=20000)
    w.tabs.setCurrentWidget(w.playground_panel)
    return w


def changed(a, b) -> int:
    return int((np.abs(a[..., :3].astype(int) - b[..., :3].astype(int)).sum(axis=2) > 30).sum())


def test_check_boxes_and_or(window, qtbot):
    pg, panel = window.playground, window.playground_panel
    before = window.scene.render()
    for i in (19, 21, 22, 24):
        click(qtbot, panel.boxes[i])
    assert to_hex(pg.aux) == "B4"
    click(qtbot, panel.ops["OR"])
    assert to_hex(pg.cube) == "B4"
    after = window.scene.render()
    assert changed(before, after) > 300                       # four cubes appeared
    assert "cube    000000000000000000000000000" in panel.record.toPlainText()
    assert "hex B4" in panel.record.toPlainText()
    assert "cube B4 (4 cells)" in window.status.text()


def test_hex_field_and_bad_hex(window, qtbot):
    pg, panel = window.playground, window.playground_panel
    qtbot.keyClicks(panel.hex, "40301B4")
    qtbot.keyClick(panel.hex, Qt.Key_Return)
    assert to_hex(pg.aux) == "40301B4"
    assert panel.boxes[0].isChecked() and panel.boxes[24].isChecked() and not panel.boxes[1].isChecked()
    panel.hex.clear()
    qtbot.keyClicks(panel.hex, "zz9")
    qtbot.keyClick(panel.hex, Qt.Key_Return)
    assert to_hex(pg.aux) == "40301B4"                       # unchanged
    assert panel.hex_error.isVisible() and "not a hex number" in panel.hex_error.text()
    panel.hex.clear()
    qtbot.keyClicks(panel.hex, "B")
    qtbot.keyClick(panel.hex, Qt.Key_Return)
    assert not panel.hex_error.isVisible()


def test_and_and_not_and_xor_change_the_picture(window, qtbot):
    pg, panel = window.playground, window.playground_panel
    qtbot.keyClicks(panel.hex, "40301B4")
    qtbot.keyClick(panel.hex, Qt.Key_Return)
    click(qtbot, panel.ops["OR"])
    full = window.scene.render()
    click(qtbot, panel.clear)
    qtbot.keyClicks(panel.hex, "B4")
    qtbot.keyClick(panel.hex, Qt.Key_Return)
    click(qtbot, panel.ops["AND-NOT"])
    assert to_hex(pg.cube) == "4030100"
    removed = window.scene.render()
    assert changed(full, removed) > 300
    click(qtbot, panel.ops["XOR"])
    assert to_hex(pg.cube) == "40301B4"
    panel.hex.clear()
    qtbot.keyClicks(panel.hex, "B")
    qtbot.keyClick(panel.hex, Qt.Key_Return)
    click(qtbot, panel.ops["AND"])
    assert not pg.cube.any()
    assert drawn(window.scene.render()).sum() < drawn(full).sum()


def test_click_a_cell_in_3d_toggles_its_bit(window, qtbot):
    tr = window.scene.mesh.get_transform("visual", "canvas")
    p = tr.map(centre(window.puzzle.target.cells[2], 0, (3, 3, 3)))
    x, y = p[0] / p[3], p[1] / p[3]
    assert window.scene.cell_at(x, y) == 2
    drag(qtbot, window.canvas_widget, (x, y), (x, y), steps=1)   # press and release in place
    assert window.playground.aux[2] == 1
    assert window.playground_panel.boxes[2].isChecked()
    from PyQt5 import QtCore
    from PyQt5.QtGui import QMouseEvent
    QtWidgets.QApplication.sendEvent(window.canvas_widget, QMouseEvent(
        QtCore.QEvent.MouseMove, QtCore.QPointF(x, y), Qt.NoButton, Qt.NoButton, Qt.NoModifier))
    qtbot.waitUntil(lambda: window.hover.text() == "cell (2, 0, 0) = bit 2")


def test_place_pieces_by_hand_overlap_warning_and_solution_found(window, qtbot):
    panel = window.playground_panel
    letters = window.solutions.letters[0]
    placements = window.puzzle.placements
    for piece in "VLTZABP":
        cells = tuple(i for i, ch in enumerate(letters) if ch == piece)
        number = next(p.number for p in placements[piece] if p.cells == cells)
        panel.piece.setCurrentIndex(panel.piece.findData(piece))
        panel.placement_list.setCurrentRow(number)
        assert tuple(window.playground.aux.search(1)) == cells
        click(qtbot, panel.ops["OR"])
    assert window.playground.cube.all()
    assert window.playground.letters() == letters
    assert "the cube holds solution 1 of 240" in window.status.text()
    # one more OR overlaps: the window asks, and Cancel leaves the cube alone
    click(qtbot, panel.ops["OR"])
    assert panel.warning.isVisible() and "overlap the cube at cells" in panel.warning_text.text()
    click(qtbot, panel.cancel)
    assert not panel.warning.isVisible() and window.playground.letters() == letters
    click(qtbot, panel.ops["OR"])
    click(qtbot, panel.go_on)
    assert window.playground.history[-1].operation == "OR"


def test_live_solve_streams_into_the_replay_and_cancels(window, qtbot):
    window.tabs.setCurrentWidget(window.solve_panel)
    window.solve_panel.strategy.setCurrentText("first-cell")
    window.solve_panel.convention.setCurrentText("all")
    click(qtbot, window.solve_panel.run)
    qtbot.waitUntil(lambda: window.replay.count > 0, timeout=20000)
    assert window.solving()
    assert window.cancel_button.isVisible()
    # the window keeps answering while the worker runs
    click(qtbot, window.replay_panel.buttons["first"])
    assert window.replay.step == -1
    click(qtbot, window.replay_panel.buttons["next"])
    assert window.replay.step == 0
    window.layers_panel.boxes[(2, 2)].click()
    assert (2, 2) in window.hidden
    click(qtbot, window.cancel_button)
    qtbot.waitUntil(lambda: "cancelled" in window.progress_label.text(), timeout=20000)
    assert not window.solving() and not window.cancel_button.isVisible()
    n = window.replay.count
    assert 0 < n < 1_265_504


def test_live_solve_finishes_and_saves_a_trace(window, qtbot, tmp_path, check):
    window.tabs.setCurrentWidget(window.solve_panel)
    window.solve_panel.strategy.setCurrentText("fixed-order")
    window.solve_panel.convention.setCurrentText("unique")
    click(qtbot, window.solve_panel.run)
    qtbot.waitUntil(lambda: window.solve_panel.save_button.isEnabled(), timeout=60000)
    assert window.replay.count == 77_428
    assert window.replay.total_solutions == 240
    path = tmp_path / "live.trace"
    window.save_live_trace(str(path))
    trace = Trace.open(str(path))
    assert trace.counts() == {"place": 38_594, "remove": 38_594, "solution": 240}
    check(trace.solution_letters())


def test_assembly_plays(window, qtbot):
    window.tabs.setCurrentWidget(window.solutions_panel)
    window.solutions.go(4)
    solved = window.scene.render()
    click(qtbot, window.assembly_controls.restart)
    empty = window.scene.render()
    assert drawn(empty).sum() < drawn(solved).sum() / 4
    click(qtbot, window.assembly_controls.step)
    assert window.assembly.t == 1
    one = window.scene.render()
    assert drawn(one).sum() > drawn(empty).sum()
    window.assembly_controls.speed.setValue(40)
    click(qtbot, window.assembly_controls.play)
    qtbot.waitUntil(lambda: window.assembly.t > 1.5, timeout=5000)
    assert "assembling: piece" in window.status.text()
    click(qtbot, window.assembly_controls.play)            # pause
    paused = window.assembly.t
    qtbot.wait(150)
    assert window.assembly.t == paused
    click(qtbot, window.assembly_controls.play)
    qtbot.waitUntil(lambda: window.assembly.t >= window.assembly.duration, timeout=10000)
    final = window.scene.render()
    assert changed(final, solved) < 50


def test_live_solve_stops_at_the_memory_budget(window, qtbot, tmp_path):
    from soma import budget
    budget.use(1 << 20)                       # less than the process already holds
    try:
        window.tabs.setCurrentWidget(window.solve_panel)
        window.solve_panel.strategy.setCurrentText("fixed-order")
        window.solve_panel.convention.setCurrentText("unique")
        click(qtbot, window.solve_panel.run)
        qtbot.waitUntil(lambda: "memory budget" in window.progress_label.text(), timeout=60000)
    finally:
        budget.use(None)
    assert not window.solving() and window.replay.count >= 65_536
    assert "memory budget of 1 MB" in window.replay_panel.banner.text()
    assert window.solve_panel.save_button.isEnabled()
    path = tmp_path / "kept.trace"
    window.save_live_trace(str(path))
    assert len(Trace.open(str(path))) == window.replay.count
