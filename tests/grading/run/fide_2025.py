"""A list on fide-2025 from 2026-10 with players at the boundaries of FIDE's 2024 rules, and its
October games: what tests/grading/run/test_fide_2025_through_the_site.py rates and
tests/grading/run/test_fide_2025_explained.py explains."""

import datetime

from chess.months import Month
from events.models import Game
from grading.models import PlayerRating
from grading.rule_set_changes import do_change_rule_set
from tests.builders import PlayerFactory, rating_list, take_on

OCTOBER = datetime.date(2026, 10, 1)


def state(code, month="2026-10"):
    return PlayerRating.objects.get(player__code=code, month=month, superseded_at=None)


def one_game_a_day(event):
    """Each game of ``event`` on a day of its own (round n on day n of the month): no player has
    more than twelve hours of games on a date (docs/rules.md 16.2)."""
    for game in Game.objects.filter(event=event):
        game.date = OCTOBER + datetime.timedelta(days=game.round - 1)
        game.save(update_fields=["date"])
    event.end_date = OCTOBER + datetime.timedelta(days=Game.objects.filter(event=event).count() - 1)
    event.save(update_fields=["end_date"])


# Code, rating taken on (40 games, so K is not a newcomer's 40), birth year.
RATED = [
    ("100001A", 1410, 1980),  # F1: loses to W1, falls to 1400
    ("100002A", 1409, 1980),  # F2: loses to W2, falls to 1399: unrated
    ("100003A", 1410, 1980),  # W1
    ("100004A", 1409, 1980),  # W2
    ("100005A", 1800, 2008),  # J1: turns 18 in 2026, a junior all year
    ("100006A", 1800, 2007),  # J2: turned 18 in 2025, no longer
    ("100007A", 1800, 1980),
    ("100008A", 1800, 1980),
    ("100009A", 2650, 1985),  # T1: 2650, the 400-point rule lifted
    ("100010A", 2649, 1985),  # T2: 2649, not
    ("100011A", 2150, 1985),
    ("100012A", 2149, 1985),
    ("100013A", 2400, 1985),  # H1: K 10, +2.5
    ("100014A", 2207, 1985),
    ("100015A", 2400, 1985),  # H2: K 10, -2.5
    ("100016A", 2593, 1985),
    ("100017A", 1799, 1980),
    ("100018A", 2700, 1985),  # P: 2700, no 400-point rule, K 10 (tests/grading/run/test_fide_2025_explained.py)
    ("100019A", 2200, 1985),
    ("100021A", 2500, 1985),
    ("100022A", 2650, 1985),
    *[(f"1001{n:02d}A", rating, 1985) for n, rating in enumerate([2359, 2359, 2359, 2358, 2358], start=20)],
    *[(f"1002{n:02d}A", 2360, 1985) for n in range(5)],
    *[(f"1003{n:02d}A", 2300, 1985) for n in range(5)],
]
NEWCOMERS = ["200001A", "200002A", "200003A"]


def set_up_fide_2025_list():
    """The players of RATED taken on in 2026-09 (40 games each) and NEWCOMERS, the list on
    fide-2025 from 2026-10."""
    for code, _, born in RATED:
        PlayerFactory(code=code, birth_date=datetime.date(born, 6, 1))
    for code in NEWCOMERS:
        PlayerFactory(code=code)
    take_on(
        "otb-standard", "2026-09", *(f"{code},{rating},full,40,{40 * rating},20,2026-09" for code, rating, _ in RATED)
    )
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-10"), "fide-2025", acting_user=None)


def october_games():
    games = [
        ("100003A", "100001A", "1-0"),
        ("100004A", "100002A", "1-0"),
        ("100005A", "100007A", "1-0"),
        ("100006A", "100008A", "1-0"),
        ("100009A", "100011A", "1-0"),
        ("100010A", "100012A", "1-0"),
        ("100013A", "100014A", "1-0"),
        ("100016A", "100015A", "1-0"),
    ]
    # N1: 2.5 of 5 against 2359, 2359, 2359, 2358, 2358; N2 2.5 of 5 against 2360s; N3 5 of 5
    # against 2300s.
    n1 = ["1-0", "1-0", "1/2-1/2", "0-1", "0-1"]
    games += [("200001A", f"1001{n:02d}A", result) for n, result in zip(range(20, 25), n1)]
    games += [("200002A", f"1002{n:02d}A", result) for n, result in zip(range(5), n1)]
    games += [("200003A", f"1003{n:02d}A", "1-0") for n in range(5)]
    return games
