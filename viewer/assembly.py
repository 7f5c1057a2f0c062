"""Animated assembly as a pure model: the pieces of a solution fly in one after another, each
from its own direction, and settle in place. `offsets(t)` gives every cell's displacement at time
t (in pieces: t = 2.5 is halfway through the third piece)."""
from __future__ import annotations

import numpy as np

from soma.bitmask import CUBE, Target

FLY = 3.0                  # how far a piece starts from its place, in cells


def ease(u: float) -> float:
    """Smooth start and stop, 0 -> 0, 1 -> 1."""
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


class Assembly:
    def __init__(self, letters: str, target: Target = CUBE):
        self.letters = letters
        self.target = target
        order: list[str] = []
        for ch in letters:                      # pieces in the order of their lowest cell
            if ch != "." and ch not in order:
                order.append(ch)
        self.order = order
        middle = (np.asarray(target.dims, dtype=float) - 1) / 2
        self.cells = {p: [i for i, ch in enumerate(letters) if ch == p] for p in order}
        self.direction = {}
        for p, cells in self.cells.items():      # outward from the middle, and from above
            c = np.mean([target.cells[i] for i in cells], axis=0) - middle
            d = 0.6 * c + np.array([0.0, 0.0, 1.6])
            self.direction[p] = d / (np.linalg.norm(d) or 1.0)
        self.t = 0.0

    @property
    def duration(self) -> float:
        return float(len(self.order))

    def set_time(self, t: float) -> None:
        self.t = min(self.duration, max(0.0, t))

    def step(self, dt: float) -> bool:
        """Advance; False once the last piece is home."""
        self.set_time(self.t + dt)
        return self.t < self.duration

    def piece_index(self) -> int:
        """The piece moving now (0-based)."""
        return min(int(self.t), len(self.order) - 1)

    def visible_letters(self) -> str:
        """Pieces that have started to move are drawn; later ones are not yet."""
        started = set(self.order[:int(np.ceil(self.t))])
        return "".join(ch if ch in started else "." for ch in self.letters)

    def offsets(self) -> dict[int, tuple[float, float, float]]:
        """cell -> displacement from its place at the current time."""
        out = {}
        for k, p in enumerate(self.order):
            u = ease(self.t - k)
            if u >= 1.0 or self.t <= k:       # home already, or not started (not drawn)
                continue
            shift = tuple(float(v) for v in self.direction[p] * FLY * (1 - u))
            for i in self.cells[p]:
                out[i] = shift
        return out
