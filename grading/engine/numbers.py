"""Exact numbers written as JSON decimals (the offline calculation file)."""

from __future__ import annotations


def points(halves: int) -> str:
    return f"{halves // 2}.{5 * (halves % 2)}"


def score(halves: int) -> str:
    return ("0", "0.5", "1")[halves]


def micro(value: int) -> str:
    """Millionths as a decimal number, trailing zeros dropped (at least one decimal)."""
    sign = "-" if value < 0 else ""
    whole, fraction = divmod(abs(value), 10**6)
    return f"{sign}{whole}.{f'{fraction:06d}'.rstrip('0') or '0'}"
