"""Pure models of what the viewer shows (no Qt, no vispy): the replay cursor over a trace, and
the solution browser. Both tell listeners when they change."""
from __future__ import annotations

from collections.abc import Callable

from soma.trace import BoardState, Event, Trace


class Observable:
    def __init__(self):
        self._listeners: list[Callable[[], None]] = []

    def subscribe(self, fn: Callable[[], None]) -> None:
        self._listeners.append(fn)

    def changed(self) -> None:
        for fn in self._listeners:
            fn()


class Replay(Observable):
    """A cursor over a trace: step -1 is the empty board before the first event; every seek goes
    through the trace's random access (no replay from the start)."""

    def __init__(self, trace: Trace | None = None):
        super().__init__()
        self.trace = trace
        self.step = -1

    def load(self, trace: Trace | None) -> None:
        self.trace = trace
        self.step = -1
        self.changed()

    @property
    def count(self) -> int:
        """How many steps (events) the trace has."""
        return len(self.trace) if self.trace is not None else 0

    def go(self, step: int) -> int:
        """Move to a step (clamped to -1 .. count-1)."""
        step = max(-1, min(int(step), self.count - 1))
        if step != self.step:
            self.step = step
            self.changed()
        return self.step

    def next(self) -> int:
        return self.go(self.step + 1)

    def previous(self) -> int:
        return self.go(self.step - 1)

    def first(self) -> int:
        return self.go(-1)

    def last(self) -> int:
        return self.go(self.count - 1)

    def next_solution(self) -> int | None:
        s = self.trace.next_solution(self.step) if self.trace is not None else None
        if s is not None:
            self.go(s)
        return s

    def previous_solution(self) -> int | None:
        s = self.trace.previous_solution(self.step) if self.trace is not None else None
        if s is not None:
            self.go(s)
        return s

    def state(self) -> BoardState | None:
        return self.trace.state(self.step) if self.trace is not None else None

    def event(self) -> Event | None:
        if self.trace is None or self.step < 0:
            return None
        return self.trace.event(self.step)

    def solutions_so_far(self) -> int:
        """How many solutions the search has found by the current step."""
        import numpy as np
        if self.trace is None:
            return 0
        return int(np.searchsorted(self.trace.solution_steps, self.step, side="right"))

    @property
    def total_solutions(self) -> int:
        return len(self.trace.solution_steps) if self.trace is not None else 0

    def describe(self, step: int) -> str:
        """One line for the step list: '12. place L Tetra Cube #3'."""
        if step < 0:
            return "start: the empty board"
        e = self.trace.event(step)
        if e.placement is None:
            n = int(__import__("numpy").searchsorted(self.trace.solution_steps, step, side="right"))
            return f"{step}. solution {n}"
        names = {p.name: p.long_name for p in self.trace.puzzle.pieces}
        return f"{step}. {e.kind} {e.placement.piece} {names[e.placement.piece]} #{e.placement.number}"

    def status(self) -> str:
        """What the status bar says."""
        if self.trace is None:
            return "no trace loaded"
        last = f"0 to {self.count - 1:,}"        # steps are numbered from 0
        where = f"step {self.step:,} of {last}" if self.step >= 0 else f"start (before step 0 of {last})"
        e = self.event()
        did = f": {self.describe(self.step).split('. ', 1)[1]}" if e is not None else ""
        return f"{where}{did} | solutions found: {self.solutions_so_far():,} of {self.total_solutions:,}"


class Solutions(Observable):
    """A numbered list of solutions (letter strings) and the one chosen."""

    def __init__(self, letters: list[str] | None = None):
        super().__init__()
        self.letters = list(letters or [])
        self.index = 0

    def load(self, letters: list[str]) -> None:
        self.letters = list(letters)
        self.index = 0
        self.changed()

    def go(self, index: int) -> int:
        if not self.letters:
            return 0
        index = max(0, min(int(index), len(self.letters) - 1))
        if index != self.index:
            self.index = index
            self.changed()
        return self.index

    def next(self) -> int:
        return self.go(self.index + 1)

    def previous(self) -> int:
        return self.go(self.index - 1)

    def current(self) -> str | None:
        return self.letters[self.index] if self.letters else None

    def status(self) -> str:
        if not self.letters:
            return "no solutions loaded"
        return f"solution {self.index + 1} of {len(self.letters)}"
