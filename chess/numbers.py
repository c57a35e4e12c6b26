"""Whole numbers as files and forms write them: ASCII digits only, within a range, and a message
that says what was wrong. And a change as every page writes it, with its sign."""

import re

_DIGITS = re.compile(r"[0-9]+")


class NotAWholeNumber(ValueError):
    pass


class OutOfRange(ValueError):
    pass


def read_whole_number(text: str, low: int = 0, high: int | None = None) -> int:
    """The number ``text`` writes in ASCII digits (spaces around it ignored), from low to high.

    Not int() alone, which takes "+1500", "1_500" and other scripts' digits, nor str.isdigit(),
    which takes "²". Raises NotAWholeNumber or OutOfRange, whose message says which."""
    stripped = text.strip()
    if not _DIGITS.fullmatch(stripped):
        raise NotAWholeNumber(f"{text[:20]!r} is not a whole number")
    digits = stripped.lstrip("0") or "0"
    allowed = f"{low} to {high}" if high is not None else f"{low} or more"
    shown = f"{digits[:20]}{'...' if len(digits) > 20 else ''}"
    # No count or identifier here has 19 digits: int() is not asked to read thousands of them.
    if len(digits) > 18 and high is None:
        raise OutOfRange(f"{shown} is too large")
    if len(digits) > 18 or not low <= int(digits) <= (high if high is not None else int(digits)):
        raise OutOfRange(f"{shown} is out of range ({allowed})")
    return int(digits)


def whole_number_within(text: str, low: int, high: int) -> int | None:
    """The number ``text`` writes when it lies in low..high, else None (the caller says why)."""
    try:
        return read_whole_number(text, low, high)
    except ValueError:
        return None


def signed(value) -> str:
    """A change with its sign: +11.4, -2.4, 0."""
    return f"+{value}" if value > 0 else str(value)
