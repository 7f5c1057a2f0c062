"""The numba-compiled first-cell search (imported only by soma.kernel, and only when used).

Module-level functions, so that numba's on-disk cache (cache=True) finds them again in the
next process."""
import numpy as np
from numba import njit


DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    DEBRUIJN_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & 0xFFFFFFFFFFFFFFFF) >> 58] = _i


@njit(cache=True)
def lowest_zero(x):
    """The index of the lowest 0 bit: isolate it, then a de Bruijn multiply and a table look-up."""
    low = ~x & (x + np.uint64(1))
    return DEBRUIJN_INDEX[(low * DEBRUIJN) >> np.uint64(58)]


@njit(cache=True)
def dead_cell(o, ring, masks, piece, left, cover_ptr, cover_ids):
    """Is an empty cell of `ring` left that no fitting placement of a piece with copies left
    covers?"""
    empty = ring & ~o
    while empty != 0:
        j = lowest_zero(~empty)                 # the lowest set bit of empty
        found = False
        for k in range(cover_ptr[j], cover_ptr[j + 1]):
            q = cover_ids[k]
            if left[piece[q]] > 0 and (o & masks[q]) == 0:
                found = True
                break
        if not found:
            return True
        empty &= empty - np.uint64(1)
    return False


STOP_EVERY = np.int64((1 << 16) - 1)    # placements between two looks at the stop flag


@njit(cache=True, nogil=True)
def search(masks, piece, cell_seg, seg_piece, seg_lo, seg_hi, held, copies, full, out, limit,
           ring, cover_ptr, cover_ids, stop):
    """Fill the lowest empty cell; its candidates come in segments, one per piece, so a
    piece with no copies left is skipped whole. After a placement, an empty cell beside it
    (`ring`) that no fitting placement of a piece left covers ends the branch (the bitarray
    engine's dead-cell check). Record up to len(out) solutions (placement ids, one row each);
    stop after `limit` when limit > 0, or soon after another thread sets stop[0] (it runs
    without the GIL, so the caller's thread can take a signal meanwhile). Returns (solutions,
    placements)."""
    depth_max = out.shape[1] + 1
    occ = np.zeros(depth_max + 1, np.uint64)
    seg = np.zeros(depth_max + 1, np.int64)       # the segment being tried at each depth
    pos = np.zeros(depth_max + 1, np.int64)       # the next placement in it
    segend = np.zeros(depth_max + 1, np.int64)
    chosen = np.zeros(depth_max + 1, np.int64)
    left = copies.copy()
    found = 0
    nodes = 0
    roots = held if held.shape[0] > 0 else np.array([-1], np.int64)
    for r in roots:
        base = 0
        o = np.uint64(0)
        if r >= 0:
            o = masks[r]
            chosen[0] = r
            left[piece[r]] -= 1
            base = 1
            nodes += 1
        d = base
        cur = o                                         # the node's state, in locals
        cell = lowest_zero(o)
        sg = cell_seg[cell]
        se = cell_seg[cell + 1]
        ps = seg_lo[sg] if sg < se else 0
        while True:
            if sg >= se:                                # no candidates left: back up
                d -= 1
                if d < base:
                    break
                left[piece[chosen[d]]] += 1
                cur, sg, se, ps = occ[d], seg[d], segend[d], pos[d]
                continue
            if left[seg_piece[sg]] == 0:               # this piece is used up
                sg += 1
                if sg < se:
                    ps = seg_lo[sg]
                continue
            hi = seg_hi[sg]
            while ps < hi and (cur & masks[ps]) != 0:  # test with AND, in a tight loop
                ps += 1
            if ps >= hi:                                # next piece's segment
                sg += 1
                if sg < se:
                    ps = seg_lo[sg]
                continue
            i = ps
            ps += 1
            m = masks[i]
            o = cur | m                                 # place with OR
            chosen[d] = i
            nodes += 1
            if (nodes & STOP_EVERY) == 0 and stop[0] != 0:
                return found, nodes
            if o == full:
                if found < out.shape[0]:
                    for k in range(d + 1):
                        out[found, k] = chosen[k]
                found += 1
                if limit > 0 and found >= limit:
                    return found, nodes
                continue
            left[seg_piece[sg]] -= 1
            if dead_cell(o, ring[i], masks, piece, left, cover_ptr, cover_ids):
                left[seg_piece[sg]] += 1
                continue
            occ[d], seg[d], segend[d], pos[d] = cur, sg, se, ps
            d += 1
            cur = o
            cell = lowest_zero(o)
            sg = cell_seg[cell]
            se = cell_seg[cell + 1]
            ps = seg_lo[sg] if sg < se else 0
        if r >= 0:
            left[piece[r]] += 1
    return found, nodes
