"""Rating periods: one calendar month, written ``YYYY-MM``."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

# A month as the site writes it everywhere: in addresses, files, the database and the API.
MONTH_PATTERN = r"[0-9]{4}-(0[1-9]|1[0-2])"
_MONTH = re.compile(MONTH_PATTERN)


@dataclass(frozen=True, order=True, slots=True)
class Month:
    year: int
    month: int

    def __post_init__(self):
        if not 1 <= self.month <= 12:
            raise ValueError(f"month must be 01 to 12, not {self.month:02d}")
        if not 1 <= self.year <= 9999:
            raise ValueError(f"year out of range: {self.year}")

    @classmethod
    def parse(cls, text: str) -> Month:
        """Read ``YYYY-MM``; anything else raises ValueError with the text in it."""
        match = _MONTH.fullmatch(text.strip()) if isinstance(text, str) else None
        if not match:
            raise ValueError(f"{text!r} is not a month in the form YYYY-MM")
        try:
            return cls(int(text.strip()[:4]), int(match[1]))
        except ValueError:
            raise ValueError(f"{text!r} is not a month in the form YYYY-MM") from None

    @classmethod
    def of(cls, day: datetime.date) -> Month:
        return cls(day.year, day.month)

    @property
    def index(self) -> int:
        """Months since year 0: differences of indexes count months."""
        return self.year * 12 + self.month - 1

    @classmethod
    def from_index(cls, index: int) -> Month:
        return cls(index // 12, index % 12 + 1)

    def __add__(self, months: int) -> Month:
        return Month.from_index(self.index + months)

    def __sub__(self, months: int) -> Month:
        return Month.from_index(self.index - months)

    def first_day(self) -> datetime.date:
        return datetime.date(self.year, self.month, 1)

    def last_day(self) -> datetime.date:
        return (self + 1).first_day() - datetime.timedelta(days=1)

    def __contains__(self, day: datetime.date) -> bool:
        return (day.year, day.month) == (self.year, self.month)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"
