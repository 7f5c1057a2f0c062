"""Qt panels. They show model state and emit signals; they never draw or compute."""
from __future__ import annotations

from PyQt5 import QtCore, QtGui, QtWidgets
from PyQt5.QtCore import Qt, pyqtSignal

from .display import layer_name
from .replay import Replay


class StepListModel(QtCore.QAbstractListModel):
    """The step list as a model: rows are computed when shown, so a million steps cost nothing.
    Row 0 is the empty start; row r is step r - 1."""

    def __init__(self, replay: Replay, parent=None):
        super().__init__(parent)
        self.replay = replay

    def rowCount(self, parent=QtCore.QModelIndex()):  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else self.replay.count + 1

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.DisplayRole:
            return self.replay.describe(index.row() - 1)
        if role == Qt.ForegroundRole and index.row() > 0:
            kind = self.replay.trace.event(index.row() - 1).kind
            if kind == "solution":
                return QtGui.QBrush(QtGui.QColor("#1a7f37"))
            if kind == "remove":
                return QtGui.QBrush(QtGui.QColor("#9a3412"))
        return None

    def reset(self):
        self.beginResetModel()
        self.endResetModel()


def _button(text: str, tip: str) -> QtWidgets.QPushButton:
    b = QtWidgets.QPushButton(text)
    b.setToolTip(tip)
    b.setObjectName(text)
    return b


class ReplayPanel(QtWidgets.QWidget):
    """Step list, navigation buttons, go-to-step, play / pause with speed, scrub slider."""
    step_requested = pyqtSignal(int)
    command = pyqtSignal(str)                # first / previous / next / last / prev_solution / next_solution / play
    speed_changed = pyqtSignal(int)

    def __init__(self, replay: Replay, parent=None):
        super().__init__(parent)
        self.replay = replay
        layout = QtWidgets.QVBoxLayout(self)
        self.banner = QtWidgets.QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("color: #8a1c1c; background: #fde8e8; padding: 4px;")
        self.banner.hide()
        layout.addWidget(self.banner)
        self.model = StepListModel(replay, self)
        self.list = QtWidgets.QListView()
        self.list.setModel(self.model)
        self.list.setUniformItemSizes(True)
        self.list.setSelectionMode(QtWidgets.QAbstractItemView.SingleSelection)
        self.list.clicked.connect(lambda index: self.step_requested.emit(index.row() - 1))
        layout.addWidget(self.list, 1)
        nav = QtWidgets.QGridLayout()
        self.buttons = {}
        specs = [("first", "|<", "First: the empty board (Home)"), ("previous", "<", "Previous step (Left)"),
                 ("next", ">", "Next step (Right)"), ("last", ">|", "Last step (End)"),
                 ("prev_solution", "<< Sol", "Previous solution (Ctrl+Left)"),
                 ("next_solution", "Sol >>", "Next solution (Ctrl+Right)")]
        for n, (name, text, tip) in enumerate(specs):
            b = _button(text, tip)
            b.clicked.connect(lambda _=False, name=name: self.command.emit(name))
            self.buttons[name] = b
            nav.addWidget(b, n // 4, n % 4)
        self.play = _button("Play", "Play / pause (Space)")
        self.play.setCheckable(True)
        self.play.clicked.connect(lambda: self.command.emit("play"))
        self.buttons["play"] = self.play
        nav.addWidget(self.play, 1, 2, 1, 2)
        layout.addLayout(nav)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Go to step"))
        self.goto = QtWidgets.QLineEdit()
        self.goto.setPlaceholderText("step number, Enter")
        self.goto.setValidator(QtGui.QIntValidator(-1, 2**31 - 1, self))
        self.goto.returnPressed.connect(self._goto)
        row.addWidget(self.goto, 1)
        layout.addLayout(row)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Speed"))
        self.speed = QtWidgets.QSpinBox()
        self.speed.setRange(1, 100000)
        self.speed.setValue(20)
        self.speed.setSuffix(" steps/s")
        self.speed.valueChanged.connect(self.speed_changed.emit)
        row.addWidget(self.speed, 1)
        layout.addLayout(row)
        self.slider = QtWidgets.QSlider(Qt.Horizontal)
        self.slider.setRange(-1, -1)
        self.slider.valueChanged.connect(self._slid)
        layout.addWidget(self.slider)
        self._syncing = False

    def _goto(self):
        text = self.goto.text().strip()
        if text.lstrip("-").isdigit():
            self.step_requested.emit(int(text))

    def _slid(self, value: int):
        if not self._syncing:
            self.step_requested.emit(value)

    def reload(self):
        self.model.reset()
        self._syncing = True
        self.slider.setRange(-1, max(-1, self.replay.count - 1))
        self._syncing = False
        self.sync()

    def sync(self):
        """Show the replay's current step (selection, slider) without emitting requests."""
        self._syncing = True
        self.slider.setValue(self.replay.step)
        row = self.replay.step + 1
        index = self.model.index(row, 0)
        self.list.selectionModel().setCurrentIndex(index, QtCore.QItemSelectionModel.ClearAndSelect)
        self.list.scrollTo(index)
        self._syncing = False

    def show_message(self, text: str | None):
        self.banner.setText(text or "")
        self.banner.setVisible(bool(text))


class SolutionsPanel(QtWidgets.QWidget):
    """The numbered solutions, previous / next."""
    index_requested = pyqtSignal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QtWidgets.QVBoxLayout(self)
        self.list = QtWidgets.QListWidget()
        self.list.currentRowChanged.connect(self._row)
        layout.addWidget(self.list, 1)
        row = QtWidgets.QHBoxLayout()
        self.prev = _button("< Previous", "Previous solution (Page Up)")
        self.next = _button("Next >", "Next solution (Page Down)")
        self.prev.clicked.connect(lambda: self.index_requested.emit(self.list.currentRow() - 1))
        self.next.clicked.connect(lambda: self.index_requested.emit(self.list.currentRow() + 1))
        row.addWidget(self.prev)
        row.addWidget(self.next)
        layout.addLayout(row)
        self._syncing = False

    def _row(self, row: int):
        if not self._syncing and row >= 0:
            self.index_requested.emit(row)

    def load(self, letters: list[str]):
        self._syncing = True
        self.list.clear()
        self.list.addItems([f"{n:>3}  {s}" for n, s in enumerate(letters, 1)])
        self._syncing = False

    def sync(self, index: int):
        self._syncing = True
        self.list.setCurrentRow(index)
        self._syncing = False


class LayersPanel(QtWidgets.QGroupBox):
    """Nine check boxes (x, y, z = 0..2, checked = shown) and the exploded-view slider."""
    layer_toggled = pyqtSignal(int, int, bool)     # axis, index, shown
    explode_changed = pyqtSignal(float)

    def __init__(self, dims=(3, 3, 3), parent=None):
        super().__init__("Layers", parent)
        grid = QtWidgets.QGridLayout(self)
        self.boxes: dict[tuple[int, int], QtWidgets.QCheckBox] = {}
        for axis in range(3):
            for index in range(dims[axis]):
                box = QtWidgets.QCheckBox(layer_name(axis, index))
                box.setObjectName(f"layer-{layer_name(axis, index)}")
                box.setChecked(True)
                box.toggled.connect(lambda on, a=axis, i=index: self.layer_toggled.emit(a, i, on))
                self.boxes[(axis, index)] = box
                grid.addWidget(box, axis, index)
        grid.addWidget(QtWidgets.QLabel("Explode"), 3, 0)
        self.explode = QtWidgets.QSlider(Qt.Horizontal)
        self.explode.setRange(0, 100)
        self.explode.valueChanged.connect(lambda v: self.explode_changed.emit(v / 100))
        grid.addWidget(self.explode, 3, 1, 1, 2)

    def sync(self, hidden):
        for key, box in self.boxes.items():
            box.blockSignals(True)
            box.setChecked(key not in hidden)
            box.blockSignals(False)


class CameraPanel(QtWidgets.QGroupBox):
    """Azimuth, elevation and distance, editable; preset views and a reset."""
    camera_edited = pyqtSignal(float, float, float)
    view_requested = pyqtSignal(str)

    def __init__(self, views, parent=None):
        super().__init__("Camera", parent)
        form = QtWidgets.QFormLayout(self)
        self.azimuth = self._spin(-360, 360, " deg")
        self.elevation = self._spin(-90, 90, " deg")
        self.distance = self._spin(1, 100, "")
        form.addRow("Azimuth", self.azimuth)
        form.addRow("Elevation", self.elevation)
        form.addRow("Distance", self.distance)
        grid = QtWidgets.QGridLayout()
        for n, name in enumerate(list(views) + ["reset"]):
            b = _button(name.capitalize(), f"{name} view" if name != "reset" else "Reset the camera (R)")
            b.clicked.connect(lambda _=False, name=name: self.view_requested.emit(name))
            grid.addWidget(b, n // 4, n % 4)
        form.addRow(grid)
        self._syncing = False

    def _spin(self, lo, hi, suffix):
        s = QtWidgets.QDoubleSpinBox()
        s.setRange(lo, hi)
        s.setDecimals(1)
        s.setSuffix(suffix)
        s.setKeyboardTracking(False)
        s.valueChanged.connect(self._edited)
        return s

    def _edited(self, _value):
        if not self._syncing:
            self.camera_edited.emit(self.azimuth.value(), self.elevation.value(), self.distance.value())

    def sync(self, azimuth: float, elevation: float, distance: float):
        self._syncing = True
        az = ((azimuth + 180) % 360) - 180
        for box, value in ((self.azimuth, az), (self.elevation, elevation), (self.distance, distance)):
            if not box.hasFocus():
                box.setValue(value)
        self._syncing = False


class Legend(QtWidgets.QGroupBox):
    """The pieces' colours and names."""

    def __init__(self, pieces, parent=None):
        super().__init__("Pieces", parent)
        grid = QtWidgets.QGridLayout(self)
        grid.setSpacing(3)
        for n, p in enumerate(pieces):
            swatch = QtWidgets.QLabel(p.name)
            swatch.setAlignment(Qt.AlignCenter)
            swatch.setFixedSize(22, 18)
            swatch.setStyleSheet(f"background: {p.colour}; color: white; font-weight: bold; border: 1px solid #222;")
            grid.addWidget(swatch, n, 0)
            grid.addWidget(QtWidgets.QLabel(p.long_name), n, 1)


class PlaygroundPanel(QtWidgets.QWidget):
    """The bit playground: the auxiliary register as 27 check boxes in three 3x3 layers, a hex
    field, Clear, OR / AND / AND-NOT / XOR, the colour the next OR paints, a chooser of piece
    placements, and the operands and result of the last operation."""
    bit_toggled = pyqtSignal(int, bool)
    hex_entered = pyqtSignal(str)
    operation = pyqtSignal(str)
    clear_aux = pyqtSignal()
    clear_cube = pyqtSignal()
    paint_chosen = pyqtSignal(str)
    placement_chosen = pyqtSignal(str, int)
    overlap_answer = pyqtSignal(bool)

    def __init__(self, target, pieces, placements, parent=None):
        super().__init__(parent)
        self.target = target
        layout = QtWidgets.QVBoxLayout(self)
        layout.setSpacing(4)
        grid = QtWidgets.QHBoxLayout()
        grid.setSpacing(2)
        self.boxes: list[QtWidgets.QCheckBox] = [None] * target.size  # type: ignore[list-item]
        nx, ny, nz = target.dims
        for z in range(nz):
            group = QtWidgets.QGroupBox(f"z={z}")
            g = QtWidgets.QGridLayout(group)
            g.setContentsMargins(3, 3, 3, 3)
            g.setHorizontalSpacing(0)
            g.setVerticalSpacing(1)
            for y in range(ny):
                for x in range(nx):
                    i = target.index.get((x, y, z))
                    if i is None:
                        continue
                    box = QtWidgets.QCheckBox(str(i))
                    box.setStyleSheet("QCheckBox { spacing: 1px; font-size: 8pt; }")
                    box.setObjectName(f"bit-{i}")
                    box.setToolTip(f"bit {i}: cell ({x}, {y}, {z})")
                    box.toggled.connect(lambda on, i=i: self.bit_toggled.emit(i, on))
                    self.boxes[i] = box
                    g.addWidget(box, y, x)
            grid.addWidget(group)
        layout.addWidget(QtWidgets.QLabel("Auxiliary register (click cells in 3D too)"))
        layout.addLayout(grid)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Hex"))
        self.hex = QtWidgets.QLineEdit()
        self.hex.setPlaceholderText("e.g. B4, Enter")
        self.hex.returnPressed.connect(lambda: self.hex_entered.emit(self.hex.text()))
        row.addWidget(self.hex, 1)
        self.clear = _button("Clear", "Clear the auxiliary register")
        self.clear.clicked.connect(self.hex.clear)
        self.clear.clicked.connect(self.clear_aux.emit)
        row.addWidget(self.clear)
        layout.addLayout(row)
        self.hex_error = QtWidgets.QLabel()
        self.hex_error.setStyleSheet("color: #b42318;")
        self.hex_error.hide()
        layout.addWidget(self.hex_error)
        ops = QtWidgets.QHBoxLayout()
        self.ops: dict[str, QtWidgets.QPushButton] = {}
        for name, tip in (("OR", "cube |= aux: place"), ("AND", "cube &= aux: test"),
                          ("AND-NOT", "cube &= ~aux: remove"), ("XOR", "cube ^= aux")):
            b = _button(name, tip)
            b.clicked.connect(lambda _=False, name=name: self.operation.emit(name))
            self.ops[name] = b
            ops.addWidget(b)
        layout.addLayout(ops)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("OR paints"))
        self.paint = QtWidgets.QComboBox()
        self.paint.addItem("plain (grey)", "#")
        for p in pieces:
            pix = QtGui.QPixmap(14, 14)
            pix.fill(QtGui.QColor(p.colour))
            self.paint.addItem(QtGui.QIcon(pix), f"{p.name} {p.long_name}", p.name)
        self.paint.currentIndexChanged.connect(lambda _: self.paint_chosen.emit(self.paint.currentData()))
        row.addWidget(self.paint, 1)
        self.clear_cube_button = _button("Clear cube", "Empty the cube register")
        self.clear_cube_button.clicked.connect(self.clear_cube.emit)
        row.addWidget(self.clear_cube_button)
        layout.addLayout(row)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Piece"))
        self.piece = QtWidgets.QComboBox()
        for p in pieces:
            self.piece.addItem(f"{p.name} {p.long_name}", p.name)
        row.addWidget(self.piece, 1)
        layout.addLayout(row)
        self.placements = placements
        self.placement_list = QtWidgets.QListWidget()
        self.placement_list.setMaximumHeight(110)
        self.placement_list.currentRowChanged.connect(self._placement_row)
        self.piece.currentIndexChanged.connect(self._fill_placements)
        layout.addWidget(self.placement_list)
        self.warning = QtWidgets.QFrame()
        self.warning.setStyleSheet("background: #fff4e5;")
        w = QtWidgets.QHBoxLayout(self.warning)
        self.warning_text = QtWidgets.QLabel()
        self.warning_text.setWordWrap(True)
        self.go_on = _button("OR anyway", "Do the OR although it overlaps")
        self.cancel = _button("Cancel", "Leave the cube as it is")
        self.go_on.clicked.connect(lambda: self.overlap_answer.emit(True))
        self.cancel.clicked.connect(lambda: self.overlap_answer.emit(False))
        w.addWidget(self.warning_text, 1)
        w.addWidget(self.go_on)
        w.addWidget(self.cancel)
        self.warning.hide()
        layout.addWidget(self.warning)
        self.record = QtWidgets.QPlainTextEdit()
        self.record.setReadOnly(True)
        font = QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.FixedFont)
        font.setPointSize(8)
        self.record.setFont(font)
        self.record.setMaximumHeight(90)
        layout.addWidget(self.record)
        layout.addStretch(1)
        self._fill_placements()

    def _fill_placements(self, *_):
        name = self.piece.currentData()
        self.placement_list.blockSignals(True)
        self.placement_list.clear()
        for p in self.placements[name]:
            self.placement_list.addItem(f"#{p.number}: cells {', '.join(map(str, p.cells))}")
        self.placement_list.blockSignals(False)

    def _placement_row(self, row: int):
        if row >= 0:
            self.placement_chosen.emit(self.piece.currentData(), row)

    def sync(self, aux, lines: list[str]):
        for i, box in enumerate(self.boxes):
            if box is not None and box.isChecked() != bool(aux[i]):
                box.blockSignals(True)
                box.setChecked(bool(aux[i]))
                box.blockSignals(False)
        self.record.setPlainText("\n".join(lines))

    def show_hex_error(self, text: str | None):
        self.hex_error.setText(text or "")
        self.hex_error.setVisible(bool(text))

    def ask_overlap(self, text: str | None):
        self.warning_text.setText(text or "")
        self.warning.setVisible(bool(text))


class SolvePanel(QtWidgets.QWidget):
    """Run the solver from the window: strategy, convention, start; the run streams into the
    replay. Progress and Cancel sit in the status bar while it runs."""
    start = pyqtSignal(str, str)
    save = pyqtSignal()

    def __init__(self, parent=None):
        super().__init__(parent)
        form = QtWidgets.QFormLayout(self)
        self.strategy = QtWidgets.QComboBox()
        self.strategy.addItems(["first-cell", "fixed-order"])
        self.convention = QtWidgets.QComboBox()
        self.convention.addItems(["unique", "all"])
        form.addRow("Strategy", self.strategy)
        form.addRow("Solutions", self.convention)
        self.run = _button("Solve", "Run the search in a worker thread; its steps stream into the Replay tab")
        self.run.clicked.connect(lambda: self.start.emit(self.strategy.currentText(), self.convention.currentText()))
        form.addRow(self.run)
        self.save_button = _button("Save trace...", "Save the finished run as a trace file")
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self.save.emit)
        form.addRow(self.save_button)
        self.info = QtWidgets.QLabel("The run's steps appear in the Replay tab as they are found.")
        self.info.setWordWrap(True)
        form.addRow(self.info)


class AssemblyControls(QtWidgets.QGroupBox):
    """Play the chosen solution's assembly: pieces fly in one by one."""
    command = pyqtSignal(str)            # play / step / restart
    speed_changed = pyqtSignal(float)

    def __init__(self, parent=None):
        super().__init__("Assembly", parent)
        row = QtWidgets.QGridLayout(self)
        self.play = _button("Assemble", "Play / pause the assembly of this solution")
        self.play.setCheckable(True)
        self.step = _button("Next piece", "Bring the next piece in")
        self.restart = _button("Restart", "Take the pieces out again")
        for n, (name, b) in enumerate((("play", self.play), ("step", self.step), ("restart", self.restart))):
            b.clicked.connect(lambda _=False, name=name: self.command.emit(name))
            row.addWidget(b, 0, n)
        row.addWidget(QtWidgets.QLabel("Speed"), 1, 0)
        self.speed = QtWidgets.QSlider(Qt.Horizontal)
        self.speed.setRange(1, 40)
        self.speed.setValue(10)
        self.speed.valueChanged.connect(lambda v: self.speed_changed.emit(v / 10))
        row.addWidget(self.speed, 1, 1, 1, 2)
