"""GIFT: a small federation with one improbable result, for the integrity watch's scans and pages.
The detectors' own tests need no database (they run with ``-p no:django`` too): Django's builders
are imported by the fixture that uses them."""

import datetime

import pytest


@pytest.fixture
def gift(db):
    """A (1500) beats six players rated 1900 in GIFT. Read as strong as is plausible, 1500 + 1.645
    x 45 = 1574 against 1900, a win is 0.1026 a game (docs/integrity.md's worked example); six
    wins 0.1026^6 = 1/857,158, at most IMPROBABLE (1/10,000). F (1500) and L to R (1900) are rated
    alike and play nothing yet."""
    from tests.builders import PlayerFactory, approved_event, take_on

    weak = ["100001A", "100006F"]
    strong = ["100002B", "100003C", "100004D", "100005E", "100007G", "100008H"]
    strong += ["100011L", "100012M", "100013N", "100014P", "100015Q", "100016R"]
    for code in weak + strong:
        PlayerFactory(code=code)
    take_on(
        "otb-standard",
        "2026-08",
        *(f"{code},1500,full,50,75000,25,2026-08" for code in weak),
        *(f"{code},1900,full,50,95000,25,2026-08" for code in strong),
    )
    return approved_event(
        "GIFT",
        "otb-standard",
        datetime.date(2026, 9, 12),
        [("100001A", opponent, "1-0") for opponent in strong[:6]],
    )
