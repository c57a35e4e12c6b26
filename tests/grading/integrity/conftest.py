"""GIFT: a small federation with one improbable result, for the integrity watch's scans and pages.
The signals' own tests need no database (they run with ``-p no:django`` too): Django's builders
are imported by the fixture that uses them."""

import datetime

import pytest


@pytest.fixture
def gift(db):
    """A (1500) beats four players rated 1690 in GIFT: D = -190, the table's offset -50 tenths,
    p = (100 - 50) / 200 = 0.25 a game; eight half points of eight: 0.25^8 = 1/65,536, at most
    IMPROBABLE (1/10,000). F (1500) and G to J (1690) are rated alike and play nothing yet."""
    from tests.builders import PlayerFactory, approved_event, take_on

    weak, strong = ["100001A", "100006F"], ["100002B", "100003C", "100004D", "100005E"]
    strong += ["100007G", "100008H", "100009J", "100010K"]
    for code in weak + strong:
        PlayerFactory(code=code)
    take_on(
        "otb-standard",
        "2026-08",
        *(f"{code},1500,full,50,75000,25,2026-08" for code in weak),
        *(f"{code},1690,full,50,84500,25,2026-08" for code in strong),
    )
    return approved_event(
        "GIFT",
        "otb-standard",
        datetime.date(2026, 9, 12),
        [("100001A", opponent, "1-0") for opponent in ["100002B", "100003C", "100004D", "100005E"]],
    )
