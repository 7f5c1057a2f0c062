"""Exact at any size: every method agrees with an independent brute force on random small
puzzles (copies from 1 to 15, flat and 3D), and big counts come out as exact integers."""
import itertools
import random

import pytest
import hypothesis
from hypothesis import HealthCheck, event, given, reject, settings, strategies as st

from soma.memo import count_by_memo
from soma.puzzle import parse_puzzle
from soma.solutions import count, solve

MAX_TILINGS = 3000

# -- an independent brute force: its own orientations, symmetries and tilings -------------------


def _matrices(flat: bool):
    """Every signed permutation matrix (48), or the 8 that keep z (flat), as functions."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            if flat and (perm[2] != 2 or signs[2] != 1):
                continue
            det = signs[0] * signs[1] * signs[2] * _parity(perm)
            out.append((lambda c, p=perm, s=signs: tuple(s[i] * c[p[i]] for i in range(3)), det > 0))
    return out


def _parity(perm) -> int:
    inversions = sum(1 for i in range(3) for j in range(i) if perm[j] > perm[i])
    return -1 if inversions % 2 else 1


def _norm(cells):
    lo = [min(c[i] for c in cells) for i in range(3)]
    return frozenset(tuple(c[i] - lo[i] for i in range(3)) for c in cells)


def brute_counts(target, pieces, mirror, flat):
    """(fixed, rotations, unique) by listing every tiling and its orbits; `pieces` maps a name
    to (cells, count)."""
    turns = [m for m, proper in _matrices(flat) if proper or mirror]
    shapes = {n: {_norm([m(c) for c in cells]) for m in turns} for n, (cells, _) in pieces.items()}
    cells = sorted(target, key=lambda c: (c[2], c[1], c[0]))
    places = {c: [] for c in cells}
    for n, forms in shapes.items():
        for form in forms:
            anchor = min(form, key=lambda c: (c[2], c[1], c[0]))
            for c in cells:
                moved = frozenset(tuple(c[i] + f[i] - anchor[i] for i in range(3)) for f in form)
                if moved <= target:
                    places[c].append((n, moved))
    tilings = []
    left = {n: k for n, (_, k) in pieces.items()}

    def fill(free, chosen):
        if not free:
            tilings.append(frozenset(chosen))
            if len(tilings) > MAX_TILINGS:
                reject()                         # too many to compare quickly: another example
            return
        first = min(free, key=lambda c: (c[2], c[1], c[0]))
        for n, moved in places[first]:
            if left[n] and moved <= free:
                left[n] -= 1
                fill(free - moved, chosen + [(n, moved)])
                left[n] += 1
    fill(frozenset(target), [])
    # the puzzle's symmetries: maps of the target onto itself sending each piece to a piece
    base = _norm(target)
    shift = [min(c[i] for c in target) for i in range(3)]
    group = []
    for m, proper in _matrices(flat):
        image = [m(c) for c in target]
        if _norm(image) != base:
            continue
        lo = [min(c[i] for c in image) for i in range(3)]
        cell_map = {c: tuple(m(c)[i] - lo[i] + shift[i] for i in range(3)) for c in target}
        relabel = {}
        for n, (pcells, _) in pieces.items():
            form = _norm([m(c) for c in pcells])
            relabel[n] = next((k for k, forms in shapes.items() if form in forms), None)
        if None in relabel.values():
            continue
        group.append((cell_map, relabel, proper))

    def image(tiling, g):
        cell_map, relabel, _ = g
        return frozenset((relabel[n], frozenset(cell_map[c] for c in moved)) for n, moved in tiling)

    def classes(elements):
        seen, n = set(), 0
        for t in tilings:
            if t not in seen:
                n += 1
                seen.update(image(t, g) for g in elements)
        return n
    return len(tilings), classes([g for g in group if g[2]]), classes(group)


# -- random puzzles with at least one solution: a box cut into random pieces --------------------


@st.composite
def puzzles(draw):
    flat = draw(st.booleans())
    if flat:
        h = draw(st.integers(1, 5))
        dims = (draw(st.integers(1, 15 if h <= 2 else 6)), h, 1)      # strips: up to 15 copies
    else:
        dims = (draw(st.integers(1, 3)), draw(st.integers(2, 3)), draw(st.integers(2, 3)))
    box = [(x, y, z) for z in range(dims[2]) for y in range(dims[1]) for x in range(dims[0])]
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    target = set(rng.sample(box, k=len(box) - draw(st.integers(0, len(box) // 4))))
    biggest = draw(st.sampled_from([2, 3, 4, 5]))     # pieces of one or two sizes: few tilings
    free, parts = set(target), []
    while free:                                  # grow each piece from the lowest free cell
        start = min(free, key=lambda c: (c[2], c[1], c[0]))
        want, part = rng.randint(max(2, biggest - 1), biggest), {start}
        free.discard(start)
        while len(part) < want:
            nbrs = sorted({(c[0] + dx, c[1] + dy, c[2] + dz) for c in part
                           for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))}
                          & free)
            if not nbrs:
                break
            nxt = rng.choice(nbrs)
            part.add(nxt)
            free.discard(nxt)
        parts.append(part)
    mirror = draw(st.booleans())
    turns = [m for m, proper in _matrices(flat) if proper or mirror]
    kinds: list[tuple[frozenset, int]] = []
    for part in parts:                           # the same shape in any orientation: a copy
        forms = {_norm([m(c) for c in part]) for m in turns}
        k = next((i for i, (shape, _) in enumerate(kinds) if shape in forms), None)
        if k is None:
            kinds.append((_norm(part), 1))
        else:
            kinds[k] = (kinds[k][0], kinds[k][1] + 1)
    pieces = {"abcdefghijklmnopqrstuvwxyz"[k]: (shape, n) for k, (shape, n) in enumerate(kinds)}
    return target, pieces, mirror, flat


def _picture(cells) -> str:
    xs, ys, zs = (range(max(c[i] for c in cells) + 1) for i in range(3))
    return "\n\n".join("\n".join("".join("#" if (x, y, z) in cells else "." for x in xs) for y in ys)
                       for z in zs)


def as_file(target, pieces, mirror) -> str:
    text = f'mirror = {str(mirror).lower()}\nshape = """\n{_picture(target)}\n"""\n'
    for name, (cells, n) in pieces.items():
        text += f'[[piece]]\nname = "{name}"\nshape = """\n{_picture(cells)}\n"""\ncount = {n}\n'
    return text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_every_method_agrees_with_brute_force(case):
    target, pieces, mirror, flat = case
    most = max(n for _, n in pieces.values())
    event(f"{'flat' if flat else '3D'}, most copies {most // 5 * 5}-{most // 5 * 5 + 4}")
    hypothesis.target(float(most))               # steer towards many copies (up to 15)
    puzzle = parse_puzzle(as_file(target, pieces, mirror), "random.toml")
    assert puzzle.flat == flat or len({c[2] for c in target}) > 1
    truth = brute_counts(frozenset(target), pieces, mirror, puzzle.flat)
    by_search, _ = count(puzzle, "bitarray", "python")
    by_dlx, _ = count(puzzle, "dlx")
    by_memo = count_by_memo(puzzle)
    for counts in (by_search, by_dlx, by_memo):
        assert (counts.fixed, counts.rotations, counts.unique) == truth
    from soma.check import check_puzzle_solution
    for convention, n in (("all", truth[0]), ("rotations", truth[1]), ("unique", truth[2])):
        listed = solve("first-cell", convention, puzzle=puzzle, engine="python").solutions
        assert len(listed) == n, convention
        for s in listed:
            assert not check_puzzle_solution(s, puzzle), s


def _boxes(w, h, d, piece, n):
    layers = "\n\n".join("\n".join("#" * w for _ in range(h)) for _ in range(d))
    return parse_puzzle(f'shape = """\n{layers}\n"""\n[[piece]]\nname = "d"\nshape = "{piece}"\n'
                        f'count = {n}\n', "box.toml")


@pytest.mark.parametrize("dims, piece, want", [
    ((6, 4, 1), "##", (281, 152, 98)),
    ((11, 2, 1), "##", (144, 76, 76)),
    ((3, 3, 3), "#", (1, 1, 1)),
])
def test_many_copies_by_every_method(dims, piece, want, check_puzzle):
    size = dims[0] * dims[1] * dims[2]
    puzzle = _boxes(*dims, piece, size // len(piece))
    for counts in (count(puzzle, "bitarray", "python")[0], count(puzzle, "dlx")[0], count_by_memo(puzzle)):
        assert (counts.fixed, counts.rotations, counts.unique) == want
    listed = solve("first-cell", "rotations", puzzle=puzzle, engine="python").solutions
    assert len(listed) == want[1]
    check_puzzle(puzzle, listed)


def test_fibonacci_dominoes_exactly():
    """A 2x300 board of 300 dominoes: F(301) fixed tilings, a 63-digit integer."""
    a, b = 0, 1
    for _ in range(301):
        a, b = b, a + b
    assert count_by_memo(_boxes(300, 2, 1, "##", 300)).fixed == a
    assert count_by_memo(_boxes(512, 1, 1, "##", 256)).fixed == 1      # 256 copies: past 8 bits


@pytest.mark.parametrize("algorithm", ["bitarray", "dlx"])
def test_a_thousand_monocubes(algorithm, check_puzzle):
    puzzle = _boxes(10, 10, 10, "#", 1000)
    counts, stats = count(puzzle, algorithm, "python")
    assert (counts.fixed, counts.rotations, counts.unique) == (1, 1, 1) and stats.placements == 1000
    assert count_by_memo(puzzle).fixed == 1
    check_puzzle(puzzle, solve("first-cell", "all", puzzle=puzzle, engine="python", algorithm=algorithm).solutions)
