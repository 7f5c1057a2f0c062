"""Qt panels. They show model state and emit signals; they never draw or compute."""
from __future__ import annotations

from PyQt5 import QtCore, QtGui, QtWidgets
from PyQt5.QtCore import Qt, pyqtSignal

from .display import AXES, layer_name
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
