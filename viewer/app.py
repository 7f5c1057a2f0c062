"""The viewer's main window: wires the models (replay, solutions, display), the Qt panels and
the vispy scene; plays on a timer; opens traces in a worker thread."""
from __future__ import annotations

import argparse
import gzip
import os
import sys
import time
import warnings
from collections import deque
from pathlib import Path

from PyQt5 import QtCore, QtGui, QtWidgets
from PyQt5.QtCore import Qt

from soma.budget import BudgetExceeded
from soma.bitmask import from_hex
from soma.check import check_puzzle_solution
from soma.cli import size_arg
from soma.output import OutputError, write_bytes
from soma.words import plural
from soma.problem import SOMA_CUBE
from soma.solutions import SolutionsFileError, read_text, solve
from soma.symmetry import Canonizer
from soma.trace import LiveTrace, Trace, TraceError, TraceWarning

from .assembly import Assembly
from .display import Display, layer_name
from .playground import Playground
from .replay import Replay, Solutions
from .scene import VIEWS, CubeScene
from .widgets import (AssemblyControls, CameraPanel, LayersPanel, Legend, PlaygroundPanel, ReplayPanel,
                      SolutionsPanel, SolvePanel)

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


def trace_puzzle(path: str):
    """The puzzle a trace was made for, from its header (None if it cannot be told)."""
    from soma.tracefile import TraceError, TraceFile
    try:
        return TraceFile(path).puzzle              # reads the header only
    except TraceError:
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
        except MemoryError as e:
            self.failed.emit(f"{e or 'out of memory'}; soma view --max-memory SIZE gives more room")
        except Exception as e:  # noqa: BLE001 - the window must say what happened, not crash
            self.failed.emit(f"{self.path}: could not be read ({type(e).__name__}: {e})")


class Cancelled(Exception):
    """Raised inside the search to stop a live solve."""


class SolverThread(QtCore.QThread):
    """Runs a search off the GUI thread; its events wait in `pending` (a deque: appends and
    pops are atomic) until the window drains them on a timer into a LiveTrace. At most
    PENDING_MAX wait: past that the search pauses until the window catches up. `outcome` is
    set at the end: (solutions, cancelled)."""

    PENDING_MAX = 1 << 18

    def __init__(self, strategy: str, convention: str, puzzle=SOMA_CUBE, parent=None):
        super().__init__(parent)
        self.strategy, self.convention, self.puzzle = strategy, convention, puzzle
        self.pending: deque = deque()
        self.cancelled = False
        self.outcome: tuple[int, bool] | None = None

    def _event(self, kind, placement):
        if self.cancelled:
            raise Cancelled
        self.pending.append((kind, placement))
        if len(self.pending) % 1024 == 0:
            time.sleep(0.0005)                  # let the GUI thread have the interpreter
            while len(self.pending) > self.PENDING_MAX and not self.cancelled:
                time.sleep(0.01)                # the window is behind: wait for it

    def run(self):
        try:
            result = solve(self.strategy, self.convention, puzzle=self.puzzle, on_event=self._event,
                           emit_tests=False)
            self.outcome = (len(result.solutions), False)
        except Cancelled:
            self.outcome = (0, True)


class MainWindow(QtWidgets.QMainWindow):
    def __init__(self, trace_path: str | None = None, solutions_path: str | None = None, puzzle=SOMA_CUBE):
        super().__init__()
        self.setWindowTitle(f"soma viewer - {puzzle.name}")
        self.resize(1240, 740)
        self.puzzle = puzzle
        self.colours = {p.name: p.colour for p in self.puzzle.pieces}
        self.replay = Replay()
        self.solutions = Solutions()
        self.hidden: frozenset[tuple[int, int]] = frozenset()
        self.explode = 0.0
        self.loader: TraceLoader | None = None
        self.loading = False
        self.playground = Playground(self.puzzle.target)
        self._pending_or = False
        self.assembly: Assembly | None = None
        self.assembly_speed = 1.0
        self.solver: SolverThread | None = None
        self.live: LiveTrace | None = None
        self._press = None
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
        self.assembly_controls = AssemblyControls()
        self.solutions_panel.layout().addWidget(self.assembly_controls)
        self.playground_panel = PlaygroundPanel(self.puzzle.target, self.puzzle.pieces, self.puzzle.placements)
        self.solve_panel = SolvePanel()
        self.tabs.addTab(self.replay_panel, "Replay")
        self.tabs.addTab(self.solutions_panel, "Solutions")
        self.tabs.addTab(self.playground_panel, "Bits")
        self.tabs.addTab(self.solve_panel, "Solve")
        self.tabs.setFixedWidth(340)
        self.tabs.currentChanged.connect(lambda _: self.refresh())
        row.addWidget(self.tabs)
        self.scene = CubeScene(size=(560, 560), parent=central, target=self.puzzle.target)
        if self.puzzle.flat:
            self.scene.set_view("top")                  # a board is seen from above
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
        self.hover = QtWidgets.QLabel()
        self.statusBar().addPermanentWidget(self.hover)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(120)
        self.progress_label = QtWidgets.QLabel()
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.setObjectName("Cancel solve")
        self.cancel_button.clicked.connect(self.cancel_solve)
        for w in (self.progress_label, self.progress, self.cancel_button):
            self.statusBar().addPermanentWidget(w)
            w.hide()
        self.replay_panel.step_requested.connect(self.replay.go)
        self.replay_panel.command.connect(self.command)
        self.replay_panel.speed_changed.connect(self._set_speed)
        self.solutions_panel.index_requested.connect(self.solutions.go)
        self.layers_panel.layer_toggled.connect(self.set_layer)
        self.layers_panel.explode_changed.connect(self.set_explode)
        self.camera_panel.camera_edited.connect(self.scene.set_camera)
        self.camera_panel.view_requested.connect(self.set_view)
        self.scene.canvas.events.draw.connect(lambda _e: self.camera_panel.sync(*self.scene.camera_values()))
        self.scene.canvas.events.mouse_press.connect(self._mouse_press)
        self.scene.canvas.events.mouse_release.connect(self._mouse_release)
        self.scene.canvas.events.mouse_move.connect(self._mouse_move)
        pg = self.playground_panel
        pg.bit_toggled.connect(self.set_aux_bit)
        pg.hex_entered.connect(self.set_aux_hex)
        pg.operation.connect(self.operate)
        pg.overlap_answer.connect(self._overlap_answer)
        pg.clear_aux.connect(lambda: (self.playground.clear_aux(), self._playground_changed()))
        pg.clear_cube.connect(lambda: (self.playground.clear_cube(), self._playground_changed()))
        pg.paint_chosen.connect(self._paint)
        pg.placement_chosen.connect(self.load_placement)
        self.solve_panel.start.connect(self.start_solve)
        self.solve_panel.save.connect(self.save_dialog)
        self.assembly_controls.command.connect(self.assemble)
        self.assembly_controls.speed_changed.connect(lambda v: setattr(self, "assembly_speed", v))
        self.live_timer = QtCore.QTimer(self)
        self.live_timer.setInterval(100)
        self.live_timer.timeout.connect(self._drain)
        self.assembly_timer = QtCore.QTimer(self)
        self.assembly_timer.setInterval(30)
        self.assembly_timer.timeout.connect(self._assembly_tick)
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
        self.setWindowTitle(f"soma viewer - {trace.path}")
        self.refresh()

    def _trace_failed(self, message):
        self.loading = False
        self.replay_panel.show_message(f"Could not open the trace: {message}")
        self.status.setText(message)

    def open_solutions(self, path: str):
        try:
            letters = read_text(path, self.puzzle.size)
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
            self.tabs.setCurrentWidget(self.solutions_panel if sniff(path) == "solutions" else self.replay_panel)

    def goto_dialog(self):
        self.tabs.setCurrentWidget(self.replay_panel)
        self.replay_panel.goto.setFocus()
        self.replay_panel.goto.selectAll()

    def screenshot_dialog(self):
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, "Save a screenshot", "soma.png", "PNG (*.png)")
        if path:
            self._saving(self.save_screenshot, path)

    def _saving(self, save, path: str) -> None:
        """Save to path, or say in a message box why it cannot be written."""
        try:
            save(path)
        except OutputError as e:
            QtWidgets.QMessageBox.warning(self, "Cannot save", str(e))

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
        if self.assembly is not None:
            self.assemble("restart")
        self.refresh()

    # -- the bit playground --------------------------------------------------------------------
    def set_aux_bit(self, index: int, on: bool):
        self.playground.set_aux_bit(index, on)
        self._playground_changed()

    def set_aux_hex(self, text: str):
        try:
            self.playground.set_aux_hex(text)
        except ValueError as e:
            self.playground_panel.show_hex_error(f"{e}: nothing changed")
            return
        self.playground_panel.show_hex_error(None)
        self._playground_changed()

    def load_placement(self, piece: str, number: int):
        placement = self.puzzle.placements[piece][number]
        self.playground.set_aux_cells(placement.cells)
        combo = self.playground_panel.paint
        combo.setCurrentIndex(combo.findData(piece))
        self._playground_changed()

    def _paint(self, letter: str):
        self.playground.paint = letter or "#"

    def operate(self, name: str):
        """An operation from its button; an OR that would overlap asks first."""
        overlap = self.playground.overlap()
        if name == "OR" and overlap:
            self._pending_or = True
            self.playground_panel.ask_overlap(
                f"OR would overlap the cube at cells {', '.join(map(str, overlap))}: go on?")
            return
        self._apply(name)

    def _overlap_answer(self, go_on: bool):
        self.playground_panel.ask_overlap(None)
        if go_on and self._pending_or:
            self._apply("OR")
        self._pending_or = False

    def _apply(self, name: str):
        self.playground.apply(name)
        self._playground_changed()

    def _playground_changed(self):
        last = self.playground.history[-1].lines() if self.playground.history else []
        self.playground_panel.sync(self.playground.aux, last)
        self.refresh()

    def solution_number(self, letters: str) -> int | None:
        """Which of the loaded solutions (1-based) a full board is, up to symmetry."""
        if "." in letters or check_puzzle_solution(letters, self.puzzle):
            return None
        if not hasattr(self, "_canon"):
            self._canon = Canonizer(self.puzzle.group)
            self._index = {s: n for n, s in enumerate(self.solutions.letters, 1)}
        return self._index.get(self._canon.canonical(letters))

    def playground_status(self) -> str:
        from soma.bitmask import to_hex
        pg = self.playground
        text = (f"cube {to_hex(pg.cube)} ({plural(pg.cube.count(), 'cell')}) | "
                f"aux {to_hex(pg.aux)} ({plural(pg.aux.count(), 'cell')})")
        n = self.solution_number(pg.letters()) if pg.cube.all() else None
        if n is not None:
            text += f" | the cube holds solution {n} of {len(self.solutions.letters)}"
        elif pg.cube.all():
            text += " | the cube is full"
        return text

    # -- picking ---------------------------------------------------------------------------------
    def _mouse_press(self, event):
        self._press = tuple(event.pos[:2])

    def _mouse_release(self, event):
        if self._press is None:
            return
        dx, dy = event.pos[0] - self._press[0], event.pos[1] - self._press[1]
        self._press = None
        if dx * dx + dy * dy > 16 or not self.showing_playground():
            return                                  # a drag turns the camera; only a click picks
        cell = self.scene.cell_at(*event.pos[:2])
        if cell is not None:
            self.playground.toggle_aux_bit(cell)
            self._playground_changed()

    def _mouse_move(self, event):
        if event.buttons:
            return
        cell = self.scene.cell_at(*event.pos[:2])
        if cell is None:
            self.hover.setText("")
        else:
            x, y, z = self.puzzle.target.cells[cell]
            self.hover.setText(f"cell ({x}, {y}, {z}) = bit {cell}")

    # -- live solve ------------------------------------------------------------------------------
    def start_solve(self, strategy: str, convention: str):
        if self.solver is not None and self.solver.isRunning():
            return
        self.live = LiveTrace(self.puzzle, strategy, convention)
        self._live_command = f"soma solve --strategy {strategy} --{convention}"
        self.solver = SolverThread(strategy, convention, self.puzzle, self)
        self.solver.finished.connect(self._solve_done)
        self._budget_stop = None
        self.replay.load(self.live)
        self.replay_panel.reload()
        self.replay_panel.show_message(None)
        self.tabs.setCurrentWidget(self.replay_panel)
        for w in (self.progress_label, self.progress, self.cancel_button):
            w.show()
        self.solve_panel.run.setEnabled(False)
        self.solve_panel.save_button.setEnabled(False)
        self.solver.start()
        self.live_timer.start()

    def _drain(self):
        """Move the worker's new events into the live trace and show them; notice the end."""
        if self.solver is None or self.live is None:
            return
        if self.solver.outcome is not None and self.live_timer.isActive():
            self._solve_done()
            return
        pending = self.solver.pending
        if pending:
            follow = self.replay.step >= self.replay.count - 1     # at the end: keep following
            try:
                for _ in range(len(pending)):
                    self.live.add(*pending.popleft())
            except BudgetExceeded as e:
                self._stop_at_budget(str(e))
            self.replay_panel.reload()
            if follow:
                self.replay.go(len(self.live) - 1)
        if self.live_timer.isActive():
            self.progress_label.setText(f"solving: {len(self.live):,} steps, "
                                        f"{len(self.live.solution_steps):,} solutions")

    def _stop_at_budget(self, why: str):
        """The live trace reached the memory budget: stop the search, keep what was recorded."""
        self.solver.cancelled = True
        self.solver.pending.clear()
        self._budget_stop = why
        self.replay_panel.show_message(f"{why}: the solve stopped there. Save trace keeps these steps; "
                                       "soma view --max-memory SIZE gives more room.")

    def cancel_solve(self):
        if self.solver is not None:
            self.solver.cancelled = True

    def _solve_done(self):
        if not self.live_timer.isActive():       # already done (finished signal and poll both call)
            return
        self.solver.wait()
        self.live_timer.stop()
        cancelled = bool(self.solver.outcome and self.solver.outcome[1])
        self._drain()
        for w in (self.progress, self.cancel_button):
            w.hide()
        what = "stopped at the memory budget" if self._budget_stop else "cancelled" if cancelled else "finished"
        self.progress_label.setText(f"solve {what}: {len(self.live):,} steps, "
                                    f"{len(self.live.solution_steps):,} solutions")
        self.solve_panel.run.setEnabled(True)
        self.solve_panel.save_button.setEnabled(not cancelled or bool(self._budget_stop))

    def solving(self) -> bool:
        return self.solver is not None and self.solver.isRunning()

    def save_live_trace(self, path: str) -> None:
        if self.live is not None:
            self.live.save(path, self._live_command + f" --trace {path}")

    def save_dialog(self):
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, "Save the run as a trace", "run.trace",
                                                        "traces (*.trace *.gz)")
        if path:
            self._saving(self.save_live_trace, path)

    # -- assembly ----------------------------------------------------------------------------------
    def assemble(self, command: str):
        self.tabs.setCurrentWidget(self.solutions_panel)
        letters = self.solutions.current()
        if letters is None:
            return
        letters = letters.split("|")[0]
        if self.assembly is None or self.assembly.letters != letters:
            self.assembly = Assembly(letters, self.puzzle.target)
        if command == "play":
            if self.assembly_timer.isActive():
                self.assembly_timer.stop()
            else:
                if self.assembly.t >= self.assembly.duration:
                    self.assembly.set_time(0)
                self.assembly_timer.start()
        elif command == "step":
            self.assembly_timer.stop()
            self.assembly.set_time(int(self.assembly.t) + 1)
        elif command == "restart":
            self.assembly.set_time(0)
        self.assembly_controls.play.setChecked(self.assembly_timer.isActive())
        self.refresh()

    def _assembly_tick(self):
        if self.assembly is None or not self.assembly.step(0.03 * self.assembly_speed):
            self.assembly_timer.stop()
            self.assembly_controls.play.setChecked(False)
        self.refresh()

    def showing_solutions(self) -> bool:
        return self.tabs.currentWidget() is self.solutions_panel

    def showing_playground(self) -> bool:
        return self.tabs.currentWidget() is self.playground_panel

    def current_display(self) -> Display:
        size = self.puzzle.size
        if self.showing_playground():
            aux = tuple(self.playground.aux.search(1))
            return Display(self.playground.letters(), self.colours, self.hidden, self.explode, aux, "aux",
                           empty_size=0.45)
        if self.showing_solutions():
            letters = (self.solutions.current() or "." * size).split("|")[0]
            if self.assembly is not None:
                return Display(self.assembly.visible_letters(), self.colours, self.hidden, self.explode,
                               offsets=self.assembly.offsets())
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
        if self.showing_playground():
            self.status.setText(self.playground_status() + extra)
        elif self.showing_solutions():
            text = self.solutions.status()
            if self.assembly is not None:
                k = self.assembly.piece_index()
                text += f" | assembling: piece {k + 1} of {len(self.assembly.order)} ({self.assembly.order[k]})"
            self.status.setText(text + extra)
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

    def save_screenshot(self, path: str) -> None:
        """The whole window as a PNG at path (written safely, see soma.output); OutputError."""
        data = QtCore.QByteArray()
        buffer = QtCore.QBuffer(data)
        buffer.open(QtCore.QIODevice.WriteOnly)
        self.grab_image().save(buffer, "PNG")
        write_bytes(path, bytes(data))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="soma view", description="Replay a Soma search in 3D and browse solutions. "
                                "With no file, opens the shipped trace and the 240 solutions.")
    p.add_argument("files", nargs="*", metavar="TRACE|SOLUTIONS", help="a trace (soma solve --trace) and/or "
                   "a solutions file (soma solve --out)")
    p.add_argument("--puzzle", metavar="PUZZLE", help="the puzzle (a file or shipped name); by default the "
                   "trace's own, or the Soma cube")
    p.add_argument("--screenshot", metavar="FILE.png", help="open, load, save the whole window to FILE.png, exit")
    p.add_argument("--solution", type=int, metavar="N", help="start on solution N of the solutions tab")
    p.add_argument("--step", type=int, metavar="N", help="start the replay at step N")
    p.add_argument("--or", dest="ors", action="append", default=[], metavar="HEX[:PIECE]",
                   help="start in the Bits tab with this mask ORed into the cube (painted as PIECE); repeatable")
    p.add_argument("--aux", metavar="HEX", help="start in the Bits tab with this auxiliary register")
    p.add_argument("--assemble", type=float, metavar="T",
                   help="show the assembly of the chosen solution at time T (pieces, from 0)")
    p.add_argument("--max-memory", type=size_arg, metavar="SIZE",
                   help="the memory budget for opening traces and live solving, e.g. 4G (default: "
                        "$SOMA_MAX_MEMORY if set, else half the physical memory)")
    return p


def _check_args(window: "MainWindow", args, has_trace: bool) -> str | None:
    """What is wrong with the options that ask for a state, given what the window holds (None
    when nothing is). --step is checked once the trace has loaded (`_check_step`)."""
    sols = len(window.solutions.letters)
    if args.solution is not None and not 1 <= args.solution <= sols:
        return (f"--solution {args.solution}: there are no solutions" if not sols else
                f"--solution {args.solution} is out of range: there are {sols:,} (1 to {sols:,})")
    if args.step is not None and not has_trace:
        return "--step N is a step of a trace: give a trace file"
    names = {p.name for p in window.puzzle.pieces}
    for item in args.ors:
        mask, _, piece = item.partition(":")
        if piece and piece not in names:
            return f"--or {item}: {piece!r} is no piece of the {window.puzzle.name} ({' '.join(sorted(names))})"
        try:
            from_hex(mask, window.puzzle.target)
        except ValueError as e:
            return f"--or {item}: {e}"
    if args.aux is not None:
        try:
            from_hex(args.aux, window.puzzle.target)
        except ValueError as e:
            return f"--aux: {e}"
    if args.assemble is not None:
        if not sols:
            return "--assemble: there is no solution to assemble"
        pieces = len(set(window.solutions.letters[(args.solution or 1) - 1].split("|")[0]) - {"."})
        if not 0 <= args.assemble <= pieces:
            return f"--assemble {args.assemble:g}: give a time from 0 to {pieces} (pieces placed)"
    return None


def _check_step(window: "MainWindow", step: int) -> str | None:
    count = window.replay.count
    if not -1 <= step < count:
        return f"--step {step} is out of range: the trace has steps 0 to {count - 1:,} (-1: before the first)"
    return None


def _prepare(window: "MainWindow", args) -> None:
    """Put the window in the state the command line asks for (for screenshots and demos)."""
    if args.ors or args.aux:
        window.tabs.setCurrentWidget(window.playground_panel)
        for item in args.ors:
            mask, _, piece = item.partition(":")
            window.playground.paint = piece or "#"
            window.set_aux_hex(mask)
            window._apply("OR")
        if args.aux:
            window.set_aux_hex(args.aux)
    if args.assemble is not None:
        window.assemble("restart")
        window.assembly.set_time(args.assemble)
        window.refresh()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from soma import budget
    try:
        budget.use(args.max_memory)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    trace_path, solutions_path = None, None
    for f in args.files:
        if not os.path.exists(f):
            print(f"error: {f}: no such file", file=sys.stderr)
            return 2
        kind = sniff(f)
        if (solutions_path if kind == "solutions" else trace_path) is not None:
            print(f"error: two {'solutions files' if kind == 'solutions' else 'traces'} given: "
                  "the viewer shows one trace and one solutions file", file=sys.stderr)
            return 2
        if kind == "solutions":
            solutions_path = f
        else:
            trace_path = f
    puzzle = SOMA_CUBE
    if args.puzzle:
        from soma.puzzle import PuzzleError, load_puzzle
        try:
            puzzle = load_puzzle(args.puzzle)
        except PuzzleError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    elif trace_path:
        puzzle = trace_puzzle(trace_path) or SOMA_CUBE
    if not args.files and puzzle is SOMA_CUBE:
        trace_path = str(DEFAULT_TRACE) if DEFAULT_TRACE.exists() else None
        solutions_path = str(DEFAULT_SOLUTIONS) if DEFAULT_SOLUTIONS.exists() else None
    import vispy
    vispy.use(app="pyqt5")
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
    window = MainWindow(trace_path, solutions_path, puzzle)
    if solutions_path is None and puzzle is not SOMA_CUBE:
        window.solutions.load(solve(puzzle=puzzle).solutions)
        window.solutions_panel.load(window.solutions.letters)
    wrong = _check_args(window, args, trace_path is not None)
    if wrong:
        print(f"error: {wrong} (see soma view --help)", file=sys.stderr)
        if window.loader is not None:
            window.loader.wait()                 # a thread must end before the window goes
        return 2
    window.show()
    if args.solution is not None:
        window.tabs.setCurrentWidget(window.solutions_panel)
        window.solutions.go(args.solution - 1)

    def when_loaded(then):
        if window.loading:
            QtCore.QTimer.singleShot(50, lambda: when_loaded(then))
        else:
            then()

    def go_to_step():
        wrong = _check_step(window, args.step)
        if wrong:
            print(f"error: {wrong}", file=sys.stderr)
            app.exit(2)
        else:
            window.replay.go(args.step)

    if args.step is not None:
        when_loaded(go_to_step)
    _prepare(window, args)
    if args.screenshot:
        def shoot():
            app.processEvents()
            try:
                window.save_screenshot(args.screenshot)
            except OutputError as e:
                print(f"error: {e}", file=sys.stderr)
                app.exit(2)
                return
            print(f"wrote {args.screenshot}", file=sys.stderr)
            app.exit(0)
        when_loaded(lambda: QtCore.QTimer.singleShot(400, shoot))
    return app.exec_()
