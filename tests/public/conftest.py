"""A small federation with known numbers, published the way rating runs publish.

OTB standard: taken on for 2025-10, rated for 2026-09 (David Fletcher K-rated 1850 -> 1848,
Alice Fletcher P-rated 1150P -> 1400P), and 2026-10 published then revised (Grace Dunn 1690,
revised to 1695). 55 filler players of Southbank (1000 to 1270) keep the list over one page (50 a page).
"""

import datetime
from dataclasses import dataclass

import pytest

from tests.factories import ClubFactory, EntryFactory, EventFactory, PlayerFactory, play, publish_month, rate_game

FILLERS = 55


@dataclass
class Federation:
    northquay: object
    southbank: object
    alice: object
    david: object
    grace: object
    odd: object
    congress: object
    ratings: dict  # (player code, month) -> PlayerRating on otb-standard


@pytest.fixture
def federation(db):
    northquay = ClubFactory(code="NQC", name="Northquay")
    southbank = ClubFactory(code="SBK", name="Southbank")
    alice = PlayerFactory(
        code="200001A",
        surname="Fletcher",
        forenames="Alice",
        sex="F",
        birth_date=datetime.date(2015, 3, 1),
        club=northquay,
    )
    david = PlayerFactory(
        code="200002B",
        surname="Fletcher",
        forenames="David",
        sex="M",
        birth_date=datetime.date(1980, 6, 1),
        club=northquay,
    )
    grace = PlayerFactory(
        code="200003C", surname="Dunn", forenames="Grace", sex="F", birth_date=datetime.date(1955, 1, 1), club=southbank
    )
    odd = PlayerFactory(
        code="200004D", surname="O'Neil <script>alert(1)</script>", forenames="Bob & Co", club=southbank
    )
    fillers = [
        PlayerFactory(
            code=f"3{n:05d}A",
            surname=f"Filler{n:02d}",
            forenames="Sam",
            club=southbank,
            birth_date=datetime.date(1990, 1, 1),
        )
        for n in range(FILLERS)
    ]

    taken_on = [
        {"player": alice, "rating": 1150, "type": "partial", "games": 4, "opponents_total": 4800, "points": 2},
        {"player": david, "rating": 1850, "games": 120, "opponents_total": 200000, "points": 60},
        {"player": grace, "rating": 1700, "games": 300, "opponents_total": 500000, "points": 150},
        {"player": odd, "rating": 1500, "games": 20, "opponents_total": 30000, "points": 10},
    ] + [
        {"player": filler, "rating": 1000 + 5 * n, "games": 50, "opponents_total": 50000, "points": 25}
        for n, filler in enumerate(fillers)
    ]
    _, first = publish_month("otb-standard", "2025-10", [{**row, "last_played": "2025-10"} for row in taken_on])
    publish_month(
        "online",
        "2025-10",
        [{"player": alice, "rating": 1100, "type": "partial", "games": 3, "last_played": "2025-10"}],
    )

    congress = EventFactory(
        code="NQ2609",
        name="Northquay Congress",
        start_date=datetime.date(2026, 9, 5),
        end_date=datetime.date(2026, 9, 6),
    )
    pins = {
        player.pk: EntryFactory(event=congress, pin=pin, player=player)
        for pin, player in enumerate([david, alice, grace], start=1)
    }
    d, a, g = pins[david.pk], pins[alice.pk], pins[grace.pk]
    r1 = play(d, g, "1-0", round=1, board=1)
    play(a, None, "BYE-1", round=1, board=2)
    r2 = play(a, g, "1-0", round=2, board=1)
    play(d, None, "BYE-1/2", round=2, board=2)
    r3 = play(d, a, "1/2-1/2", round=3, board=1, date=datetime.date(2026, 9, 6))

    _, september = publish_month(
        "otb-standard",
        "2026-09",
        [
            # K: (-4.0 + 10) x 20 / 20 = +6.0 against Grace, (-8.4 + 0) x 20 / 20 = -8.4 against Alice:
            # 1850 - 2.4 = 1847.6, rounded 1848.
            {
                "player": david,
                "rating": 1848,
                "games": 122,
                "opponents_total": 200000 + 1700 + 1400,
                "points": 61.5,
                "category": "full",
                "method": "K",
                "prior_rating": 1850,
                "k_factor": 20,
                "age": 46,
            },
            # P: G = 4 + 2 + 1 = 7, T = 4800 + 1850 + 1700 + 1100 = 9450, S = 2 + 1.5 + 0.5 = 4,
            # p = 0.5714 -> 0.57, dp = +50, 9450 / 7 + 50 = 1400.
            {
                "player": alice,
                "rating": 1400,
                "type": "partial",
                "games": 6,
                "opponents_total": 8350,
                "points": 3.5,
                "category": "partial",
                "method": "P",
                "prior_rating": 1150,
                "dummy_rating": 1100,
                "pass1": 1400,
                "pass2": 1400,
                "age": 11,
            },
        ],
    )
    rate_game(september[david.pk], r1, "w", 1, 1700, increment="6.0")
    rate_game(september[david.pk], r3, "w", "0.5", 1400, opponent_type="partial", increment="-8.4")
    rate_game(september[alice.pk], r2, "w", 1, 1700, pass1_opponent_rating=1700)
    rate_game(september[alice.pk], r3, "b", "0.5", 1850, pass1_opponent_rating=1850)

    publish_month(
        "otb-standard",
        "2026-10",
        [
            {"player": grace, "rating": 1690, "games": 301, "category": "full", "method": "K", "prior_rating": 1700},
        ],
    )
    publish_month(
        "otb-standard",
        "2026-10",
        [
            {"player": grace, "rating": 1695, "games": 301, "category": "full", "method": "K", "prior_rating": 1700},
        ],
    )
    ratings = {
        (player.code, month): row
        for month, rows in [("2025-10", first), ("2026-09", september)]
        for player_id, row in rows.items()
        for player in (alice, david, grace)
        if player.pk == player_id
    }
    return Federation(northquay, southbank, alice, david, grace, odd, congress, ratings)
