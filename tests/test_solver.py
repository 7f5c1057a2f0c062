"""Both searches against the known counts (ORACLES.md), every result checked independently."""
from collections import Counter

import pytest

from soma.problem import SOMA_CUBE, seed_groups, soma_problem
from soma.solver import PLACE, REMOVE, SOLUTION, TEST, CellSearch, SearchStats, fixed_order
from soma.symmetry import Canonizer


def letters(sols):
    return [s.letters(27) for s in sols]


def test_fixed_order_reproduces_the_seed(check):
    stats = SearchStats()
    sols = letters(fixed_order(seed_groups(), 27, stats=stats))
    assert len(sols) == 240
    assert (stats.placements, stats.removals, stats.tests) == (38_594, 38_594, 3_078_514)
    check(sols)
    canon = Canonizer(SOMA_CUBE.group)
    assert len({canon.canonical(s) for s in sols}) == 240     # one per class


def test_fixed_order_first_l_placement_gives_219():
    groups = seed_groups()
    first = [[groups[0][0]]] + groups[1:]
    assert sum(1 for _ in fixed_order(first, 27)) == 219


def test_fixed_order_events_match_stats():
    events = Counter()
    stats = SearchStats()
    for _ in fixed_order(seed_groups(), 27, on_event=lambda kind, p: events.update([kind]), stats=stats):
        pass
    assert events == {TEST: 3_078_514, PLACE: 38_594, REMOVE: 38_594, SOLUTION: 240}


def test_first_cell_over_all_placements_finds_11520(check):
    problem = soma_problem("all")
    stats = SearchStats()
    sols = letters(CellSearch(problem.placements, SOMA_CUBE.target).solutions(stats=stats))
    assert len(sols) == len(set(sols)) == 11_520
    assert stats.placements == stats.removals
    check(sols)


def test_first_cell_unique_finds_every_class(check):
    problem = soma_problem("unique")
    assert problem.held is not None
    sols = letters(CellSearch(problem.placements, SOMA_CUBE.target, held=problem.held).solutions())
    check(sols)
    canon = Canonizer(SOMA_CUBE.group)
    assert len({canon.canonical(s) for s in sols}) == 240


def test_first_cell_events_agree_with_the_untraced_search():
    problem = soma_problem("unique")
    search = CellSearch(problem.placements, SOMA_CUBE.target, held=problem.held)
    plain_stats, traced_stats = SearchStats(), SearchStats()
    plain = letters(search.solutions(stats=plain_stats))
    events = Counter()
    traced = letters(search.solutions(on_event=lambda kind, p: events.update([kind]), stats=traced_stats))
    assert plain == traced
    assert plain_stats == traced_stats
    assert events == {TEST: traced_stats.tests, PLACE: traced_stats.placements,
                      REMOVE: traced_stats.removals, SOLUTION: len(traced)}


def test_place_and_remove_keep_the_board_consistent():
    """Replaying place / remove events with OR and AND-NOT gives a full board at each solution."""
    from bitarray import bitarray
    problem = soma_problem("unique")
    board = bitarray(27)
    full_at_solution = []

    def on_event(kind, p):
        nonlocal board
        if kind == PLACE:
            assert not (board & p.mask).any()
            board |= p.mask
        elif kind == REMOVE:
            board &= ~p.mask
        elif kind == SOLUTION:
            full_at_solution.append(board.all())

    list(CellSearch(problem.placements, SOMA_CUBE.target, held=problem.held).solutions(on_event))
    assert full_at_solution and all(full_at_solution)
    assert not board.any()


def test_stopping_early_is_islice():
    from itertools import islice
    problem = soma_problem("all")
    first = list(islice(CellSearch(problem.placements, SOMA_CUBE.target).solutions(), 5))
    assert len(first) == 5


@pytest.mark.parametrize("strategy", ["first-cell", "fixed-order"])
def test_strategies_agree(strategy, check):
    from soma.solutions import solve
    result = solve(strategy, "unique")
    assert len(result.solutions) == 240
    check(result.solutions)
    assert result.solutions == solve("first-cell", "unique").solutions


def test_region_check_keeps_every_solution(check_puzzle):
    from soma.puzzle import load_puzzle
    puzzle = load_puzzle("pentominoes-3x20")
    problem = soma_problem("all", puzzle)
    plain, pruned = SearchStats(), SearchStats()
    a = [s.letters(60) for s in CellSearch(problem.placements, puzzle.target).solutions(stats=plain)]
    b = [s.letters(60) for s in CellSearch(problem.placements, puzzle.target, regions=True).solutions(stats=pruned)]
    assert a == b and len(a) == 8
    assert pruned.placements <= plain.placements
    check_puzzle(puzzle, b)
