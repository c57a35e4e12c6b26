"""JSON text of many short lists at once, written by numpy: a national month's breakdowns are
two million lines, and a Python string per line was most of the time it took to make them.

The text is exactly what ``json.dumps(line, separators=(",", ":"))`` gives for each line, so
that what is stored, and the result digest made from it, do not depend on how it was written.
"""

from dataclasses import dataclass

import numpy as np

COMMA, OPEN, CLOSE = ord(","), ord("["), ord("]")
NULL = np.frombuffer(b"null", dtype=np.uint8)


@dataclass
class Number:
    """An integer field: ``values``, null where ``null`` is true (if given)."""

    values: np.ndarray
    null: np.ndarray | None = None

    def lengths(self) -> np.ndarray:
        values = self.values.astype(np.int64)
        lengths = digit_counts(np.abs(values)) + (values < 0)
        return lengths if self.null is None else np.where(self.null, len(NULL), lengths)

    def write(self, text: np.ndarray, at: np.ndarray, lengths: np.ndarray):
        values = self.values.astype(np.int64)
        shown = np.ones(len(values), dtype=bool) if self.null is None else ~self.null
        magnitude = np.abs(values)
        digits = digit_counts(magnitude)
        ends = at + lengths
        power = 1
        for place in range(int(digits.max(initial=0))):
            rows = shown & (digits > place)
            text[ends[rows] - 1 - place] = ord("0") + magnitude[rows] // power % 10
            power *= 10
        text[at[shown & (values < 0)]] = ord("-")
        if self.null is not None:
            for offset, byte in enumerate(NULL):
                text[at[self.null] + offset] = byte


@dataclass
class Word:
    """A field of a few fixed values: ``words[codes[i]]``, each already JSON (``'"w"'``, ``'null'``)."""

    codes: np.ndarray
    words: tuple[str, ...]

    def lengths(self) -> np.ndarray:
        return np.array([len(word) for word in self.words], dtype=np.int64)[self.codes]

    def write(self, text: np.ndarray, at: np.ndarray, lengths: np.ndarray):
        for code, word in enumerate(self.words):
            rows = at[self.codes == code]
            for offset, byte in enumerate(word.encode("ascii")):
                text[rows + offset] = byte


def digit_counts(magnitudes: np.ndarray) -> np.ndarray:
    """How many decimal digits each of ``magnitudes`` (not negative) has; 0 has one."""
    counts = np.ones(len(magnitudes), dtype=np.int64)
    power = 10
    while len(magnitudes) and power <= magnitudes.max():
        counts += magnitudes >= power
        power *= 10
    return counts


def json_lists(fields: list, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """For each group of lines ``starts[g]:ends[g]``, the JSON list of its lines, each line the
    list of ``fields`` (Number or Word columns of equal length, one entry per line)."""
    count = len(fields[0].codes if isinstance(fields[0], Word) else fields[0].values)
    lengths = [field.lengths() for field in fields]
    # A line: "[", each field followed by "," (the last by "]"), and "," after it.
    line_lengths = sum(lengths, np.full(count, 2 + len(fields), dtype=np.int64))
    line_starts = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(line_lengths, out=line_starts[1:])
    text = np.full(int(line_starts[-1]), COMMA, dtype=np.uint8)
    text[line_starts[:-1]] = OPEN
    at = line_starts[:-1] + 1
    for field, length in zip(fields, lengths):
        field.write(text, at, length)
        at = at + length + 1  # past the field's "," (left as filled)
    text[at - 1] = CLOSE
    joined = text.tobytes().decode("ascii")
    # Each group's lines, without the "," after its last.
    return [
        "[" + joined[first : last - 1] + "]" if last > first else "[]"
        for first, last in zip(line_starts[starts].tolist(), line_starts[ends].tolist())
    ]
