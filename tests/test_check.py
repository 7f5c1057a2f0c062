"""The independent checker accepts solutions and rejects near misses."""
from soma.check import is_solution, solution_errors
from soma.problem import SOMA_CUBE

GOOD = "AABABBLLLPVVABVLZZPPTPTTZZT"


def test_accepts_a_solution():
    assert is_solution(GOOD, SOMA_CUBE.pieces, SOMA_CUBE.target.cells)


def test_rejects_swapped_screws():
    swapped = GOOD.translate(str.maketrans("AB", "BA"))
    assert not is_solution(swapped, SOMA_CUBE.pieces, SOMA_CUBE.target.cells)


def test_rejects_wrong_length_unknown_letters_and_bad_shapes():
    cells = SOMA_CUBE.target.cells
    assert solution_errors(GOOD[:-1], SOMA_CUBE.pieces, cells)
    assert solution_errors(GOOD[:-1] + "Q", SOMA_CUBE.pieces, cells)
    moved = list(GOOD)
    moved[0], moved[26] = moved[26], moved[0]
    assert not is_solution("".join(moved), SOMA_CUBE.pieces, cells)
