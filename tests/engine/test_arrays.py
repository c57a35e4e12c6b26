"""Distinct values by sorting (grading/engine/arrays.py): numpy's own answers, faster."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.engine.arrays import distinct, runs


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-(2**62), 2**62)))
def test_distinct_values_by_sorting_are_numpys_unique(values):
    array = np.array(values, dtype=np.int64)

    assert np.array_equal(distinct(array), np.unique(array))
    assert np.array_equal(runs(np.sort(array))[1], np.unique(array, return_counts=True)[1])
