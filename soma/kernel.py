"""The first-cell search compiled with numba, on 64-bit words: the same cell order and the
same candidate order as the bitarray engine (so the same solutions, in the same order), for
targets of up to 64 cells. Optional: `pip install '.[fast]'`; numba is imported only here.

Given the target's neighbours it makes the bitarray engine's dead-cell check too (and then the
very same placements), but measured here that costs more than it saves, so `soma` calls it
without; it reports no events (tracing always uses the bitarray engine).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from .bitmask import Placement

MAX_CELLS = 64


def available() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def _kernel():
    from ._kernel_numba import search
    return search


def target_neighbours(size: int, flat) -> list[set[int]]:
    """No geometry given: no neighbours (the dead-cell check then does nothing)."""
    return [set() for _ in range(size)]


def compiled_search(placements: Mapping[str, Sequence[Placement]], size: int,
                    copies: Mapping[str, int] | None = None, held: str | None = None,
                    limit: int | None = None, record: bool = True,
                    neighbours_of=None) -> tuple[list[tuple[Placement, ...]], int, int]:
    """(solutions as placement tuples, how many, placements made) of the first-cell search."""
    import numpy as np
    if size > MAX_CELLS:
        raise ValueError(f"the compiled kernel handles targets of up to {MAX_CELLS} cells, not {size}")
    names = list(placements)
    flat = [p for n in names for p in placements[n]]
    masks = np.array([sum(1 << i for i in p.cells) for p in flat], dtype=np.uint64)
    piece = np.array([names.index(p.piece) for p in flat], dtype=np.int64)
    # candidates of each cell, in the bitarray engine's order (piece, then number), as one
    # segment per piece: placement ids are consecutive within a piece, so a segment is a range
    segs = [[] for _ in range(size + 1)]
    for i, p in enumerate(flat):
        if p.piece == held:
            continue
        cell_segs = segs[p.cells[0]]
        slot = names.index(p.piece)
        if cell_segs and cell_segs[-1][0] == slot and cell_segs[-1][2] == i:
            cell_segs[-1][2] = i + 1
        else:
            cell_segs.append([slot, i, i + 1])
    cell_seg = np.zeros(size + 2, dtype=np.int64)
    for c in range(size + 1):
        cell_seg[c + 1] = cell_seg[c] + len(segs[c])
    table = np.array([x for c in range(size + 1) for x in segs[c]] or [[0, 0, 0]], dtype=np.int64)
    seg_piece, seg_lo, seg_hi = table[:, 0].copy(), table[:, 1].copy(), table[:, 2].copy()
    # for the dead-cell check: each placement's neighbour cells, and the placements on each cell
    neighbours = target_neighbours(size, flat) if neighbours_of is None else neighbours_of
    ring = np.array([sum(1 << j for j in {n for c in p.cells for n in neighbours[c]} - set(p.cells))
                     for p in flat], dtype=np.uint64)
    covering = [[] for _ in range(size)]
    for i, p in enumerate(flat):
        for c in p.cells:
            covering[c].append(i)
    cover_ptr = np.zeros(size + 1, dtype=np.int64)
    for c in range(size):
        cover_ptr[c + 1] = cover_ptr[c] + len(covering[c])
    cover_ids = np.array([i for c in range(size) for i in covering[c]] or [0], dtype=np.int64)
    held_ids = np.array([i for i, p in enumerate(flat) if p.piece == held], dtype=np.int64)
    counts = np.array([(copies or {}).get(n, 1) for n in names], dtype=np.int64)
    full = np.uint64((1 << size) - 1)
    depth = int(counts.sum())
    search = _kernel()
    limit = min(limit, 1 << 62) if limit else 0       # past any count: no limit
    capacity = min(limit, 1 << 16) if limit and record else (1 << 16 if record else 0)
    while True:
        out = np.full((capacity, depth), -1, dtype=np.int64)
        found, nodes = stoppable(search, masks, piece, cell_seg, seg_piece, seg_lo, seg_hi, held_ids, counts,
                                 full, out, limit, ring, cover_ptr, cover_ids)
        if not record or found <= capacity:
            break
        capacity = found                       # run again with room for all of them
        _room_for(found, depth)
    sols = [tuple(flat[i] for i in row if i >= 0) for row in out[:found]] if record else []
    return sols, found, nodes


def _room_for(found: int, depth: int) -> None:
    """BudgetExceeded unless `found` solutions fit in the memory budget, as kernel rows and as the
    Python objects made of them (about 100 bytes a placement)."""
    from .budget import BudgetExceeded, current
    budget = current()
    if budget.over(found * depth * (8 + 100)):
        raise BudgetExceeded(f"holding the {found:,} solutions found would pass the memory budget of "
                             f"{budget}; --limit N keeps fewer")


def stoppable(kernel, *args):
    """kernel(*args, stop) in a thread of its own, while this thread waits and can take a signal
    (Ctrl-C, SIGTERM): then it sets the stop flag, which the kernel reads every 65,536
    placements, waits for it to return and raises again. Compiled code never returns to
    Python to see a signal by itself."""
    import threading
    import numpy as np
    stop = np.zeros(1, dtype=np.int64)
    result: list = []

    def run():
        try:
            result.append(kernel(*args, stop))
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
            result.append(e)
    worker = threading.Thread(target=run, name="soma-kernel", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.25)
    except BaseException:
        stop[0] = 1
        worker.join()
        raise
    if isinstance(result[0], BaseException):
        raise result[0]
    return result[0]
