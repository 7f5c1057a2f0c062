"""The viewer's main window: wires the models (replay, solutions, display), the Qt panels and
the vispy scene; plays on a timer; opens traces in a worker thread."""
from __future__ import annotations

import argparse
import gzip
import os
import sys
import warnings
from pathlib import Path

from PyQt5 import QtCore, QtGui, QtWidgets
from PyQt5.QtCore import Qt

from soma.problem import SOMA_CUBE
from soma.solutions import SolutionsFileError, read_text
from soma.trace import Trace, TraceError, TraceWarning

from .display import Display, layer_name
from .replay import Replay, Solutions
from .scene import VIEWS, CubeScene
from .widgets import CameraPanel, LayersPanel, Legend, ReplayPanel, SolutionsPanel

DATA = Path(__file__).resolve().parent.parent / "data"
DEFAULT_TRACE = DATA / "fixed-order.trace.gz"
DEFAULT_SOLUTIONS = DATA / "solutions.txt"


def sniff(path: str) -> str | None:
    """'trace', 'solutions' or None, from a file's first line."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
        if head[:2] == b"\x1f\x8b":
            with gzip.open(path, "rb") as f:
                head = f.read(64)
    except OSError:
        return None
    if head.startswith(b"# soma-trace"):
        return "trace"
    if head.startswith(b"# soma-solutions"):
        return "solutions"
    return None


class TraceLoader(QtCore.QThread):
    """Opens a trace off the GUI thread."""
    loaded = QtCore.pyqtSignal(object, list)     # trace, warnings
    failed = QtCore.pyqtSignal(str)

    def __init__(self, path: str, parent=None):
        super().__init__(parent)
        self.path = path

    def run(self):
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", TraceWarning)
                trace = Trace.open(self.path)
            self.loaded.emit(trace, [str(w.message) for w in caught])
        except TraceError as e:
            self.failed.emit(str(e))
        except Exception as e:  # noqa: BLE001 - the window must say what happened, not crash
            self.failed.emit(f"{self.path}: could not be read ({type(e).__name__}: {e})")


class MainWindow(QtWidgets.QMainWindow):
    def __init__(self, trace_path: str | None = None, solutions_path: str | None = None):
        super().__init__()
        self.setWindowTitle("soma viewer")
        self.resize(1240, 740)
        self.puzzle = SOMA_CUBE
        self.colours = {p.name: p.colour for p in self.puzzle.pieces}
        self.replay = Replay()
        self.solutions = Solutions()
        self.hidden: frozenset[tuple[int, int]] = frozenset()
        self.explode = 0.0
        self.loader: TraceLoader | None = None
        self.loading = False
        self._build()
        self.replay.subscribe(self._replay_changed)
        self.solutions.subscribe(self._solutions_changed)
        self.timer = QtCore.QTimer(self)
        self.timer.timeout.connect(self._tick)
        self._set_speed(self.replay_panel.speed.value())
        if solutions_path:
            self.open_solutions(solutions_path)
        if trace_path:
            self.open_trace(trace_path)
        self.refresh()

    # -- building ------------------------------------------------------------------------------
    def _build(self):
        central = QtWidgets.QWidget()
        row = QtWidgets.QHBoxLayout(central)
        row.setContentsMargins(4, 4, 4, 4)
        self.tabs = QtWidgets.QTabWidget()
        self.replay_panel = ReplayPanel(self.replay)
        self.solutions_panel = SolutionsPanel()
        self.tabs.addTab(self.replay_panel, "Replay")
        self.tabs.addTab(self.solutions_panel, "Solutions")
        self.tabs.setFixedWidth(330)
        self.tabs.currentChanged.connect(lambda _: self.refresh())
        row.addWidget(self.tabs)
        self.scene = CubeScene(size=(560, 560), parent=central)
        self.canvas_widget = self.scene.canvas.native
        self.canvas_widget.setMinimumSize(400, 400)
        row.addWidget(self.canvas_widget, 1)
        side = QtWidgets.QVBoxLayout()
        self.layers_panel = LayersPanel(self.puzzle.target.dims)
        self.camera_panel = CameraPanel(VIEWS)
        self.legend = Legend(self.puzzle.pieces)
        for w in (self.layers_panel, self.camera_panel, self.legend):
            side.addWidget(w)
        side.addStretch(1)
        holder = QtWidgets.QWidget()
        holder.setLayout(side)
        holder.setFixedWidth(290)
        row.addWidget(holder)
        self.setCentralWidget(central)
        self.status = QtWidgets.QLabel()
        self.statusBar().addWidget(self.status, 1)
        self.replay_panel.step_requested.connect(self.replay.go)
        self.replay_panel.command.connect(self.command)
        self.replay_panel.speed_changed.connect(self._set_speed)
        self.solutions_panel.index_requested.connect(self.solutions.go)
        self.layers_panel.layer_toggled.connect(self.set_layer)
        self.layers_panel.explode_changed.connect(self.set_explode)
        self.camera_panel.camera_edited.connect(self.scene.set_camera)
        self.camera_panel.view_requested.connect(self.set_view)
        self.scene.canvas.events.draw.connect(lambda _e: self.camera_panel.sync(*self.scene.camera_values()))
        self._menus()

    def _action(self, menu, text, slot, shortcut=None, checkable=False, name=None):
        act = QtWidgets.QAction(text, self)
        if shortcut:
            act.setShortcut(QtGui.QKeySequence(shortcut))
            act.setShortcutContext(Qt.WindowShortcut)
        act.setCheckable(checkable)
        act.triggered.connect(slot)
        menu.addAction(act)
        self.actions[name or text] = act
        return act

    def _menus(self):
        self.actions: dict[str, QtWidgets.QAction] = {}
        bar = self.menuBar()
        m = bar.addMenu("&File")
        self._action(m, "&Open...", self.open_dialog, "Ctrl+O", name="open")
        self._action(m, "Save &screenshot...", self.screenshot_dialog, "Ctrl+S", name="screenshot")
        m.addSeparator()
        self._action(m, "&Quit", self.close, "Ctrl+Q", name="quit")
        m = bar.addMenu("&Replay")
        for name, text, key in (("first", "&First (empty board)", "Home"), ("previous", "&Previous step", "Left"),
                                ("next", "&Next step", "Right"), ("last", "&Last step", "End"),
                                ("prev_solution", "Previous s&olution", "Ctrl+Left"),
                                ("next_solution", "Next &solution", "Ctrl+Right"),
                                ("play", "Play / &pause", "Space")):
            self._action(m, text, lambda _=False, n=name: self.command(n), key, name=name)
        self._action(m, "&Go to step...", self.goto_dialog, "Ctrl+G", name="goto")
        m = bar.addMenu("&Solutions")
        self._action(m, "&Next solution", lambda: self.browse(+1), "PgDown", name="solution_next")
        self._action(m, "&Previous solution", lambda: self.browse(-1), "PgUp", name="solution_previous")
        m = bar.addMenu("&View")
        for axis in range(3):
            sub = m.addMenu(f"Layers along {'xyz'[axis]}")
            for index in range(self.puzzle.target.dims[axis]):
                key = f"Ctrl+{index + 1}" if axis == 2 else None
                act = self._action(sub, f"Hide {layer_name(axis, index)}",
                                   lambda on, a=axis, i=index: self.set_layer(a, i, not on), key,
                                   checkable=True, name=f"hide {layer_name(axis, index)}")
                act.setChecked(False)
        self._action(m, "Show &all layers", self.show_all_layers, "Ctrl+0", name="show_all")
        m.addSeparator()
        for n, view in enumerate(VIEWS):
            self._action(m, f"{view.capitalize()} view", lambda _=False, v=view: self.set_view(v), f"F{n + 2}",
                         name=f"view {view}")
        self._action(m, "&Reset camera", lambda: self.set_view("reset"), "R", name="reset")

    # -- opening -------------------------------------------------------------------------------
    def open_path(self, path: str):
        kind = sniff(path)
        if kind == "solutions":
            self.open_solutions(path)
        else:
            self.open_trace(path)

    def open_trace(self, path: str):
        self.loading = True
        self.replay_panel.show_message(None)
        self.status.setText(f"opening {path} ...")
        self.loader = TraceLoader(path, self)
        self.loader.loaded.connect(self._trace_loaded)
        self.loader.failed.connect(self._trace_failed)
        self.loader.start()

    def _trace_loaded(self, trace, notes):
        self.loading = False
        self.replay.load(trace)
        self.replay_panel.reload()
        self.replay_panel.show_message("\n".join(notes) if notes else None)
        self.tabs.setCurrentWidget(self.replay_panel)
        self.setWindowTitle(f"soma viewer - {trace.path}")
        self.refresh()

    def _trace_failed(self, message):
        self.loading = False
        self.replay_panel.show_message(f"Could not open the trace: {message}")
        self.status.setText(message)

    def open_solutions(self, path: str):
        try:
            letters = read_text(path)
        except (OSError, SolutionsFileError) as e:
            msg = f"{path}: {e.strerror}" if isinstance(e, OSError) else str(e)
            self.replay_panel.show_message(f"Could not open the solutions: {msg}")
            return
        self.solutions.load(letters)
        self.solutions_panel.load(letters)
        self.solutions_panel.sync(0)

    def open_dialog(self):
        path, _ = QtWidgets.QFileDialog.getOpenFileName(self, "Open a trace or a solutions file", str(DATA),
                                                        "soma files (*.trace *.gz *.txt);;All files (*)")
        if path:
            self.open_path(path)

    def goto_dialog(self):
        self.tabs.setCurrentWidget(self.replay_panel)
        self.replay_panel.goto.setFocus()
        self.replay_panel.goto.selectAll()

    def screenshot_dialog(self):
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, "Save a screenshot", "soma.png", "PNG (*.png)")
        if path:
            self.save_screenshot(path)

    # -- commands ------------------------------------------------------------------------------
    def command(self, name: str):
        self.tabs.setCurrentWidget(self.replay_panel)
        if name == "play":
            self.toggle_play()
            return
        getattr(self.replay, {"prev_solution": "previous_solution"}.get(name, name))()

    def toggle_play(self, on: bool | None = None):
        on = not self.timer.isActive() if on is None else on
        if on and self.replay.count:
            if self.replay.step >= self.replay.count - 1:
                self.replay.first()
            self.timer.start()
        else:
            self.timer.stop()
        self.replay_panel.play.setChecked(self.timer.isActive())
        self.replay_panel.play.setText("Pause" if self.timer.isActive() else "Play")

    def _set_speed(self, steps_per_second: int):
        interval = max(16, int(1000 / steps_per_second))
        self._per_tick = max(1, round(steps_per_second * interval / 1000))
        self.timer.setInterval(interval)

    def _tick(self):
        if self.replay.step >= self.replay.count - 1:
            self.toggle_play(False)
            return
        self.replay.go(self.replay.step + self._per_tick)

    def browse(self, delta: int):
        self.tabs.setCurrentWidget(self.solutions_panel)
        self.solutions.go(self.solutions.index + delta)

    def set_layer(self, axis: int, index: int, shown: bool):
        key = (axis, index)
        self.hidden = self.hidden - {key} if shown else self.hidden | {key}
        self._sync_layers()
        self.refresh()

    def show_all_layers(self):
        self.hidden = frozenset()
        self._sync_layers()
        self.refresh()

    def _sync_layers(self):
        self.layers_panel.sync(self.hidden)
        for (axis, index) in self.layers_panel.boxes:
            act = self.actions[f"hide {layer_name(axis, index)}"]
            act.blockSignals(True)
            act.setChecked((axis, index) in self.hidden)
            act.blockSignals(False)

    def set_explode(self, value: float):
        self.explode = value
        self.refresh()

    def set_view(self, name: str):
        if name == "reset":
            self.scene.reset()
        else:
            self.scene.set_view(name)
        self.camera_panel.sync(*self.scene.camera_values())

    # -- showing -------------------------------------------------------------------------------
    def _replay_changed(self):
        self.replay_panel.sync()
        self.refresh()

    def _solutions_changed(self):
        self.solutions_panel.sync(self.solutions.index)
        self.refresh()

    def showing_solutions(self) -> bool:
        return self.tabs.currentWidget() is self.solutions_panel

    def current_display(self) -> Display:
        size = self.puzzle.size
        if self.showing_solutions():
            letters = self.solutions.current() or "." * size
            return Display(letters, self.colours, self.hidden, self.explode)
        state = self.replay.state()
        if state is None:
            return Display("." * size, self.colours, self.hidden, self.explode)
        event = self.replay.event()
        highlight, kind = (), "place"
        if event is not None and event.placement is not None:
            highlight, kind = event.placement.cells, event.kind
        elif event is not None:
            highlight, kind = tuple(range(size)), "solution"
        return Display(state.letters(size), self.colours, self.hidden, self.explode, highlight, kind)

    def refresh(self):
        self.scene.show(self.current_display())
        hidden = ", ".join(layer_name(*k) for k in sorted(self.hidden))
        extra = f" | hidden: {hidden}" if hidden else ""
        if self.showing_solutions():
            self.status.setText(self.solutions.status() + extra)
        elif not self.loading:
            self.status.setText(self.replay.status() + extra)

    # -- pictures ------------------------------------------------------------------------------
    def grab_image(self) -> QtGui.QImage:
        """The whole window, the 3D canvas included (rendered and painted over its place)."""
        image = self.grab().toImage().convertToFormat(QtGui.QImage.Format_RGB32)
        rgba = self.scene.render()
        h, w = rgba.shape[:2]
        canvas = QtGui.QImage(rgba.tobytes(), w, h, 4 * w, QtGui.QImage.Format_RGBA8888).copy()
        target = self.canvas_widget.mapTo(self, QtCore.QPoint(0, 0))
        painter = QtGui.QPainter(image)
        painter.drawImage(QtCore.QRect(target, self.canvas_widget.size()), canvas)
        painter.end()
        return image

    def save_screenshot(self, path: str) -> bool:
        return self.grab_image().save(path, "PNG")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="soma view", description="Replay a Soma search in 3D and browse solutions. "
                                "With no file, opens the shipped trace and the 240 solutions.")
    p.add_argument("files", nargs="*", metavar="TRACE|SOLUTIONS", help="a trace (soma solve --trace) and/or "
                   "a solutions file (soma solve --out)")
    p.add_argument("--screenshot", metavar="FILE.png", help="open, load, save the whole window to FILE.png, exit")
    p.add_argument("--solution", type=int, metavar="N", help="start on solution N of the solutions tab")
    p.add_argument("--step", type=int, metavar="N", help="start the replay at step N")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    trace_path, solutions_path = None, None
    for f in args.files:
        if not os.path.exists(f):
            print(f"error: {f}: no such file", file=sys.stderr)
            return 2
        if sniff(f) == "solutions":
            solutions_path = f
        else:
            trace_path = f
    if not args.files:
        trace_path = str(DEFAULT_TRACE) if DEFAULT_TRACE.exists() else None
        solutions_path = str(DEFAULT_SOLUTIONS) if DEFAULT_SOLUTIONS.exists() else None
    import vispy
    vispy.use(app="pyqt5")
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
    window = MainWindow(trace_path, solutions_path)
    window.show()
    if args.solution is not None:
        window.tabs.setCurrentWidget(window.solutions_panel)
        window.solutions.go(args.solution - 1)

    def when_loaded(then):
        if window.loading:
            QtCore.QTimer.singleShot(50, lambda: when_loaded(then))
        else:
            then()

    if args.step is not None:
        when_loaded(lambda: window.replay.go(args.step))
    if args.screenshot:
        def shoot():
            app.processEvents()
            ok = window.save_screenshot(args.screenshot)
            print(f"{'wrote' if ok else 'could not write'} {args.screenshot}", file=sys.stderr)
            app.exit(0 if ok else 1)
        when_loaded(lambda: QtCore.QTimer.singleShot(400, shoot))
    return app.exec_()
