"""The first-cell search compiled with numba, on 64-bit words: the same cell order and the
same candidate order as the bitarray engine (so the same solutions, in the same order), for
targets of up to 64 cells. Optional: `pip install '.[fast]'`; numba is imported only here.

It has no dead-cell check, so it visits more nodes than the bitarray engine; it reports no
events (tracing always uses the bitarray engine).
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


def compiled_search(placements: Mapping[str, Sequence[Placement]], size: int,
                    copies: Mapping[str, int] | None = None, held: str | None = None,
                    limit: int | None = None, record: bool = True) -> tuple[list[tuple[Placement, ...]], int, int]:
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
    held_ids = np.array([i for i, p in enumerate(flat) if p.piece == held], dtype=np.int64)
    counts = np.array([(copies or {}).get(n, 1) for n in names], dtype=np.int64)
    full = np.uint64((1 << size) - 1)
    depth = int(counts.sum())
    search = _kernel()
    capacity = 0
    if record:
        capacity = limit if limit else 1 << 16
    while True:
        out = np.full((capacity, depth), -1, dtype=np.int64)
        found, nodes = search(masks, piece, cell_seg, seg_piece, seg_lo, seg_hi, held_ids, counts, full,
                              out, limit or 0)
        if not record or found <= capacity:
            break
        capacity = found                       # run again with room for all of them
    sols = [tuple(flat[i] for i in row if i >= 0) for row in out[:found]] if record else []
    return sols, found, nodes
