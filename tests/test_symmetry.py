"""The symmetry group, canonical forms and the three counts."""
import pytest

from soma.problem import SOMA_CUBE
from soma.solutions import CONVENTIONS, solve
from soma.symmetry import Canonizer, count_classes, rotation_subgroup


def test_group_has_48_elements_and_reflections_swap_the_screws():
    group = SOMA_CUBE.group
    assert len(group) == 48
    assert sum(g.proper for g in group) == 24
    for g in group:
        rel = dict(g.relabel)
        assert (rel["A"], rel["B"]) == (("A", "B") if g.proper else ("B", "A"))
        assert sorted(g.perm) == list(range(27))


def test_counts_from_the_unique_solutions():
    result = solve("first-cell", "unique")
    counts = count_classes(result.solutions, SOMA_CUBE.group)
    assert (counts.fixed, counts.rotations, counts.unique) == (11_520, 480, 240)


def test_no_solution_has_a_self_symmetry():
    canon = Canonizer(SOMA_CUBE.group)
    for s in solve("first-cell", "unique").solutions:
        assert len(set(canon.images(s))) == 48


def test_expansion_equals_enumeration(check):
    """Counting by the group is exact: it matches the full first-cell enumeration."""
    everything = solve("first-cell", "all")
    assert len(everything.solutions) == 11_520
    expanded = solve("first-cell", "rotations")
    rots = Canonizer(rotation_subgroup(SOMA_CUBE.group))
    assert sorted({rots.canonical(s) for s in everything.solutions}) == expanded.solutions
    assert len(expanded.solutions) == 480
    assert solve("fixed-order", "all").solutions == everything.solutions
    check(expanded.solutions)


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_results_are_canonical_sorted_and_distinct(convention, check):
    result = solve("first-cell", convention, limit=300)
    sols = result.solutions
    assert sols == sorted(set(sols))
    check(sols)
    if convention == "unique":
        canon = Canonizer(SOMA_CUBE.group)
        assert all(canon.canonical(s) == s for s in sols)
