import json

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from grading.json_text import Number, Word, json_lists

WORDS = ('"w"', '"b"', '"not counted"', "null")
# One line: an integer (or null), a word, and a small integer: the shapes of a breakdown line.
LINE = st.tuples(
    st.one_of(st.none(), st.integers(-(10**15), 10**15)),
    st.integers(0, len(WORDS) - 1),
    st.integers(0, 2),
)


@given(st.lists(st.lists(LINE, max_size=6), max_size=8))
def test_json_lists_are_what_json_dumps_writes(groups):
    lines = [line for group in groups for line in group]
    numbers = np.array([value or 0 for value, _, _ in lines], dtype=np.int64)
    fields = [
        Number(numbers, null=np.array([value is None for value, _, _ in lines], dtype=bool)),
        Word(np.array([word for _, word, _ in lines], dtype=np.int64), WORDS),
        Number(np.array([halves for _, _, halves in lines], dtype=np.int64)),
    ]
    sizes = np.array([len(group) for group in groups], dtype=np.int64)
    ends = np.cumsum(sizes)
    starts = ends - sizes

    written = json_lists(fields, starts, ends)

    expected = [
        json.dumps([[value, json.loads(WORDS[word]), halves] for value, word, halves in group], separators=(",", ":"))
        for group in groups
    ]
    assert written == expected


def test_a_breakdown_line_reads_as_the_run_wrote_it():
    # Alice's two games: a win as white against 1900 (K: +18.4 points, in millionths) and a loss
    # as black against a partial 1450 with a negative increment.
    fields = [
        Number(np.array([7, 9])),
        Word(np.array([0, 1]), ('"w"', '"b"')),
        Number(np.array([2, 0])),
        Number(np.array([1900, 1450])),
        Word(np.array([0, 1]), ('"full"', '"partial"')),
        Number(np.array([0, 0]), null=np.array([True, True])),
        Number(np.array([18_400_000, -3_250_000])),
    ]
    assert json_lists(fields, np.array([0, 2]), np.array([2, 2])) == [
        '[[7,"w",2,1900,"full",null,18400000],[9,"b",0,1450,"partial",null,-3250000]]',
        "[]",
    ]
