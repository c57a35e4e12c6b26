"""Distinct values by sorting (grading/engine/arrays.py): numpy's own answers, faster."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.engine.arrays import dense_index, distinct, is_in, runs, spans, tally


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-(2**62), 2**62)))
def test_distinct_values_by_sorting_are_numpys_unique(values):
    array = np.array(values, dtype=np.int64)

    assert np.array_equal(distinct(array), np.unique(array))
    assert np.array_equal(runs(np.sort(array))[1], np.unique(array, return_counts=True)[1])


def test_spans_are_the_ranges_one_after_another():
    assert spans(np.array([3, 0, 7]), np.array([5, 0, 10])).tolist() == [3, 4, 7, 8, 9]
    assert spans(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)).tolist() == []


# Small ids (a federation's) take the table's way, large ones the sort's: both are numpy's answers.
IDS = st.one_of(st.integers(0, 3_000), st.integers(-(2**40), 2**40))


@settings(max_examples=80, deadline=None)
@given(st.lists(IDS), st.lists(IDS))
def test_membership_and_tallies_by_table_or_sort_are_numpys(values, ids):
    values, ids = np.array(values, dtype=np.int64), np.array(ids, dtype=np.int64)

    assert np.array_equal(is_in(values, ids), np.isin(values, ids))
    found, counts = tally(values)
    assert np.array_equal(found, np.unique(values)) and np.array_equal(counts, np.unique(values, return_counts=True)[1])
    index, size = dense_index(values)
    assert np.array_equal(np.bincount(index, minlength=size)[index], counts[np.searchsorted(found, values)])
