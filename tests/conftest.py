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


@pytest.fixture(scope="session")
def check_puzzle():
    """Assert that every letter string solves the puzzle, by the independent checker."""
    from soma.check import check_puzzle_solution

    def _check(puzzle, solutions):
        for s in solutions:
            assert not check_puzzle_solution(s, puzzle), (s, check_puzzle_solution(s, puzzle))
    return _check
