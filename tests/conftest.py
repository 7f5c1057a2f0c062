"""Shared fixtures: the Soma puzzle and the independent solution check."""
import pytest

from soma.check import solution_errors
from soma.problem import SOMA_CUBE


@pytest.fixture(scope="session")
def puzzle():
    return SOMA_CUBE


@pytest.fixture(scope="session")
def check(puzzle):
    """Assert that every letter string is a solution, by the independent checker."""
    def _check(solutions):
        for s in solutions:
            assert not solution_errors(s, puzzle.pieces, puzzle.target.cells), s
    return _check
