"""Distinct values by sorting (grading/engine/arrays.py): numpy's own answers, faster."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.engine.arrays import distinct, runs, spans


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-(2**62), 2**62)))
def test_distinct_values_by_sorting_are_numpys_unique(values):
    array = np.array(values, dtype=np.int64)

    assert np.array_equal(distinct(array), np.unique(array))
    assert np.array_equal(runs(np.sort(array))[1], np.unique(array, return_counts=True)[1])


def test_spans_are_the_ranges_one_after_another():
    assert spans(np.array([3, 0, 7]), np.array([5, 0, 10])).tolist() == [3, 4, 7, 8, 9]
    assert spans(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)).tolist() == []
