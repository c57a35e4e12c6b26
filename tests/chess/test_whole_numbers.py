"""One reading of whole numbers for the parsers, the take-on and the API."""

import pytest

from chess.numbers import NotAWholeNumber, OutOfRange, read_whole_number
from events.formats.base import whole_number


@pytest.mark.parametrize(
    "text, low, high, number",
    [(" 1500 ", 100, 4000, 1500), ("0007", 0, None, 7), ("0", 0, 0, 0), ("000000000000000000000042", 1, 50, 42)],
)
def test_ascii_digits_within_the_bounds_are_read(text, low, high, number):
    assert read_whole_number(text, low, high) == number


@pytest.mark.parametrize("text", ["", "+1500", "1_500", "15.0", "²", "١٥٠٠", "-1", "12 34"])
def test_anything_but_ascii_digits_is_not_a_whole_number_and_says_what_it_was(text):
    with pytest.raises(NotAWholeNumber, match="is not a whole number"):
        read_whole_number(text)


def test_a_number_out_of_its_bounds_says_the_bounds():
    with pytest.raises(OutOfRange, match=r"^99 is out of range \(100 to 4000\)$"):
        read_whole_number("99", 100, 4000)
    with pytest.raises(OutOfRange, match=r"^9{20}\.\.\. is out of range \(0 to 1000000\)$"):
        read_whole_number("9" * 5000, 0, 1_000_000)  # thousands of digits: refused before int() reads them
    with pytest.raises(OutOfRange, match=r"^9{20} is too large$"):
        read_whole_number("9" * 20)


def test_the_parsers_reading_gives_none_where_the_number_is_not_usable():
    assert (whole_number("12", 1, 99), whole_number("x"), whole_number("100", 1, 99)) == (12, None, None)
