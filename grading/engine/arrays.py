"""Counting distinct values of large integer arrays by sorting them, finding values in a
sorted array, and telling which values are among others.

``np.unique`` without ``return_*`` takes a hashing path in numpy 2.3 and later that, on a
month's million player ids, costs ten to twenty times a sort (1.5 s against 0.09 s here); the
runs read such columns several times. These give the same answers through ``np.sort``.
"""

import numpy as np


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values of ``values``, sorted: ``np.unique(values)``."""
    return runs(np.sort(values))[0]


def runs(sorted_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``sorted_values`` and how many times each comes."""
    if not len(sorted_values):
        return sorted_values, np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.concatenate(([True], sorted_values[1:] != sorted_values[:-1])))
    return sorted_values[starts], np.diff(np.append(starts, len(sorted_values)))


def find_sorted(sorted_ids: np.ndarray, wanted: np.ndarray):
    """Where each of ``wanted`` is in ``sorted_ids``: (found, positions), positions meaningful where found."""
    if not len(sorted_ids):
        return np.zeros(len(wanted), dtype=bool), np.zeros(len(wanted), dtype=np.int64)
    positions = np.minimum(np.searchsorted(sorted_ids, wanted), len(sorted_ids) - 1)
    return sorted_ids[positions] == wanted, positions


def tabled(values: np.ndarray, *others: np.ndarray) -> int | None:
    """The size of a table indexed by value that holds ``values`` (and ``others``): non-negative
    and small enough against their number (a federation's player and event ids), so that one
    pass over them replaces a sort; None where they are not."""
    low = min(int(array.min()) for array in (values, *others))
    top = max(int(array.max()) for array in (values, *others))
    return top + 1 if low >= 0 and top < 8 * len(values) + 1_000_000 else None


def is_in(values: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Whether each of ``values`` is one of ``ids`` (integers, any order): ``np.isin``, by a table
    of flags indexed by value where they are small enough (``tabled``), else by looking each up
    among ``ids`` sorted."""
    if not len(values) or not len(ids):
        return np.zeros(len(values), dtype=bool)
    if size := tabled(values, ids):
        table = np.zeros(size, dtype=bool)
        table[ids] = True
        return table[values]
    return find_sorted(distinct(ids), values)[0]


def dense_index(ids: np.ndarray) -> tuple[np.ndarray, int]:
    """Each id's place in arrays of ``size``, for ``np.bincount``: the id itself where ids are
    small enough (``tabled``: no sort), else its rank among them."""
    if not len(ids):
        return ids.astype(np.int64), 0
    if size := tabled(ids):
        return ids, size
    _, index = np.unique(ids, return_inverse=True)
    return index, int(index.max()) + 1


def tally(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``ids``, sorted, and how many times each comes: ``runs`` of them
    sorted, counted in one pass where they are small enough."""
    index, size = dense_index(ids)
    if index is not ids:
        return runs(np.sort(ids))
    counts = np.bincount(ids, minlength=size)
    present = np.flatnonzero(counts)
    return present, counts[present]


def spans(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Every index of the ranges starts[i]:ends[i], one range after another: the concatenation of
    ``np.arange(start, end)`` for each, without a loop."""
    counts = ends - starts
    total = int(counts.sum())
    offsets = np.cumsum(counts) - counts
    return np.repeat(starts - offsets, counts) + np.arange(total, dtype=np.int64)
