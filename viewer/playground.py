"""The bit playground as a pure model (no Qt): a cube register (what is drawn), an auxiliary
register, and the operations the solver uses, OR (place), AND (test), AND-NOT (remove), plus XOR.

Every cell of the cube register remembers the colour (piece) it was set with, as in the seed's
dialog, where a colour menu chooses what the next OR paints."""
from __future__ import annotations

from dataclasses import dataclass

from bitarray import bitarray, frozenbitarray

from soma.bitmask import CUBE, Target, bits, from_hex, indices_of, to_hex

OPERATIONS = ("OR", "AND", "AND-NOT", "XOR")
PLAIN = "#"                  # the mark of a cell set without a piece colour


@dataclass(frozen=True)
class Record:
    """One operation, as the playground shows it: both operands and the result."""
    operation: str
    cube: frozenbitarray
    aux: frozenbitarray
    result: frozenbitarray

    def lines(self) -> list[str]:
        return [f"cube    {bits(self.cube)}  hex {to_hex(self.cube)}",
                f"{self.operation:<7} {bits(self.aux)}  hex {to_hex(self.aux)}",
                f"=       {bits(self.result)}  hex {to_hex(self.result)}"]


class Playground:
    """Two registers and the operations between them."""

    def __init__(self, target: Target = CUBE):
        self.target = target
        self.cube = bitarray(target.size)
        self.aux = bitarray(target.size)
        self.marks = ["."] * target.size       # the piece letter (or '#') painted in each set cell
        self.paint = PLAIN                      # what the next OR paints
        self.history: list[Record] = []

    # -- the auxiliary register -----------------------------------------------------------------
    def set_aux_bit(self, index: int, value: bool) -> None:
        self.aux[index] = bool(value)

    def toggle_aux_bit(self, index: int) -> None:
        self.aux[index] = not self.aux[index]

    def set_aux_hex(self, text: str) -> None:
        """Set the auxiliary register from hex (the engine's convention); ValueError, and no
        change, when the text is not a hex number that fits."""
        self.aux = bitarray(from_hex(text, self.target))

    def set_aux_cells(self, cells) -> None:
        self.aux = bitarray(self.target.size)
        for i in cells:
            self.aux[i] = 1

    def clear_aux(self) -> None:
        self.aux.setall(0)

    def clear_cube(self) -> None:
        self.cube.setall(0)
        self.marks = ["."] * self.target.size

    # -- operations -----------------------------------------------------------------------------
    def overlap(self) -> tuple[int, ...]:
        """The cells an OR would paint over (set in both registers)."""
        return indices_of(self.cube & self.aux)

    def apply(self, operation: str) -> Record:
        """cube := cube OP aux; the record shows both operands and the result."""
        before, aux = frozenbitarray(self.cube), frozenbitarray(self.aux)
        if operation == "OR":
            self.cube |= self.aux
            for i in indices_of(aux):
                self.marks[i] = self.paint
        elif operation == "AND":
            self.cube &= self.aux
        elif operation == "AND-NOT":
            self.cube &= ~self.aux
        elif operation == "XOR":
            self.cube ^= self.aux
            for i in indices_of(aux):
                self.marks[i] = self.paint if self.cube[i] else "."
        else:
            raise ValueError(f"unknown operation {operation!r}: use one of {', '.join(OPERATIONS)}")
        for i in range(self.target.size):
            if not self.cube[i]:
                self.marks[i] = "."
        record = Record(operation, before, aux, frozenbitarray(self.cube))
        self.history.append(record)
        return record

    def letters(self) -> str:
        """What the 3D view draws: the mark of every set cell, '.' for the others."""
        return "".join((m if m != "." else PLAIN) if self.cube[i] else "." for i, m in enumerate(self.marks))
