"""Reading the dates arbiters' software writes, and writing dates in messages."""

import re
from datetime import date

# FIDE rates an event whose last day is at most this many days after its first, unless the rating
# officer approved its length (docs/rules.md 16.3): the engine applies it, an event asks it to know
# whether its length awaits approval.
LONGEST_DAYS = 89

_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "mär": 3,
    "mrz": 3,
    "apr": 4,
    "may": 5,
    "mai": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "okt": 10,
    "nov": 11,
    "dec": 12,
    "dez": 12,
}
_MONTH_FIRST = re.compile(r"^([a-zä]{3})[a-zä]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$")
_DAY_FIRST = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?[\s.-]+([a-zä]{3})[a-zä]*\.?[\s,-]+(\d{4})$")
# A separator may have spaces round it, as some pairing programs write "28. 07. 2005".
_NUMERIC = re.compile(r"^(\d{1,4}) ?[./\- ] ?(\d{1,2}) ?[./\- ] ?(\d{1,4})$")

# Orders tried for a date written with three numbers, by which part has four digits.
YMD, DMY, YDM, MDY = "YMD", "DMY", "YDM", "MDY"
_ORDERS_YEAR_FIRST = (YMD, YDM)
_ORDERS_YEAR_LAST = (DMY, MDY)
_ORDERS_SHORT = (YMD, DMY, YDM, MDY)  # TRF16 writes YY/MM/DD, so that comes first


def _year(text):
    year = int(text)
    if len(text) <= 2:
        return 2000 + year if year < 70 else 1900 + year
    return year


def _make(year, month, day):
    try:
        return date(year, month, day)
    except ValueError:
        return None


def candidates(text: str) -> list[tuple[str, date]]:
    """Every (order, date) that ``text`` can be read as, the likeliest first ([] if none)."""
    s = " ".join(text.strip().lower().split())
    if m := _MONTH_FIRST.match(s):
        month, day, year = m.groups()
        found = _make(int(year), _MONTHS.get(month, 0), int(day))
        return [(MDY, found)] if found else []
    if m := _DAY_FIRST.match(s):
        day, month, year = m.groups()
        found = _make(int(year), _MONTHS.get(month, 0), int(day))
        return [(DMY, found)] if found else []
    if re.fullmatch(r"\d{8}", s):
        s = f"{s[:4]}/{s[4:6]}/{s[6:]}"
    m = _NUMERIC.match(s)
    if not m:
        return []
    a, b, c = m.groups()
    if len(a) == 4:
        orders = _ORDERS_YEAR_FIRST
    elif len(c) == 4:
        orders = _ORDERS_YEAR_LAST
    elif len(a) <= 2 and len(c) <= 2:
        orders = _ORDERS_SHORT
    else:
        return []
    found = []
    for order in orders:
        parts = dict(zip(order, (a, b, c), strict=True))
        day = _make(_year(parts["Y"]), int(parts["M"]), int(parts["D"]))
        if day and day not in (d for _, d in found):
            found.append((order, day))
    return found


def read_pair(start_text: str, end_text: str) -> tuple[date | None, date | None]:
    """The start and end dates, read the same way where the writing is ambiguous, with the end
    on or after the start and within a year of it when any reading allows that."""
    starts, ends = candidates(start_text), candidates(end_text)
    pairs = [(s, e) for s in starts for e in ends]
    plausible = [(s, e) for s, e in pairs if s[1] <= e[1] and (e[1] - s[1]).days <= 366]
    if plausible:
        # Stable sort: the same order for both dates first, otherwise the likeliest readings.
        s, e = sorted(plausible, key=lambda pair: pair[0][0] != pair[1][0])[0]
        return s[1], e[1]
    return (starts[0][1] if starts else None), (ends[0][1] if ends else None)


def read_dmy(text: str) -> date | None:
    """dd/mm/yyyy as the ECF file writes it (also dd.mm.yyyy and dd-mm-yyyy)."""
    m = re.fullmatch(r"(\d{1,2})[./-](\d{1,2})[./-](\d{4})", text.strip())
    return _make(int(m.group(3)), int(m.group(2)), int(m.group(1))) if m else None


def read_iso_or_dmy(text: str) -> date | None:
    """yyyy-mm-dd, or dd/mm/yyyy (never mm/dd/yyyy)."""
    m = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", text.strip())
    return _make(*map(int, m.groups())) if m else read_dmy(text)


def written(day: date) -> str:
    """A date as messages write it: dd/mm/yyyy, the year in four digits even before 1000
    (strftime writes year 1 as "1")."""
    return f"{day.day:02d}/{day.month:02d}/{day.year:04d}"
