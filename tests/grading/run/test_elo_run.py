"""A list rated by the Elo method through the database: the ECF states it starts from, two
months, and an event begun the month before (docs/rules.md part 2, docs/decisions.md)."""

import datetime
import json

import pytest
from django.core.management import call_command

from grading.models import ListEntry, PlayerRating
from grading.run.elo_results import ELO_LINE
from tests.builders import approved_event, elo_federation, elo_october, succeeded

pytestmark = pytest.mark.django_db


@pytest.fixture
def elo_list():
    elo_federation()


def state(code, month):
    return PlayerRating.objects.get(player__code=code, month=month, superseded_at=None)


def test_a_list_switched_to_elo_rates_from_the_ecf_states_it_inherits(elo_list, rate):
    elo_october()

    succeeded(rate("otb-standard", "2026-10"))

    # A (1500 carried over, 50 games, peak 1500): K 20. Beats B: diff -400, PD 0.08:
    # 20 x 0.92 = 18.4. C and D are unrated: those games do not count. 1518.4 -> 1518.
    a = state("111111A", "2026-10")
    assert (a.rating, a.type, a.category, a.method, a.k_factor, a.peak) == (1518, "full", "rated", "elo", 20, 1518)
    assert (a.games, a.opponents_total, a.points, a.k_rule) == (51, 76900, 26, "base")
    # B: diff 400, PD 0.92, a loss: -18.4 -> 1881.6 -> 1882; the peak stays 1900.
    b = state("222222B", "2026-10")
    assert (b.rating, b.peak) == (1882, 1900)
    # D's Partial record is one pending month (2026-08: 5 games, 6000, 2.5): with the loss to A
    # G 6, T 7500, S 2.5: Ra 1250, p = 2.5 / 6 = 0.42 -> dp -57: a first rating of 1193.
    d = state("444444D", "2026-10")
    assert (d.rating, d.type, d.category, d.method, d.peak, d.pending) == (1193, "full", "unrated", "first", 1193, [])
    # C: one game, half a point: pending.
    c = state("333333C", "2026-10")
    assert (c.rating, c.type, c.pending) == (
        None,
        "pending",
        [{"month": "2026-10", "games": 1, "opponents_total": 1500, "points": "0.5"}],
    )
    # The list: the rated players; not C (pending) nor E (an ECF rating below the floor).
    listed = dict(ListEntry.objects.filter(period__month="2026-10").values_list("player__code", "rating"))
    assert listed == {"111111A": 1518, "222222B": 1882, "444444D": 1193}
    # A's breakdown: each game, the rating used (null: unrated), whether it counted, PD and K x (W - PD).
    lines = [dict(zip(ELO_LINE, line, strict=True)) for line in a.breakdown]
    assert [(line["opponent_rating"], line["counted"], line["expected"], line["increment"]) for line in lines] == [
        (1900, "counted", 8, 18_400_000),
        (None, "not counted", None, None),
        (None, "not counted", None, None),
    ]


def test_a_game_of_an_event_begun_the_month_before_counts_the_ratings_of_its_start(elo_list, rate):
    # Two games, so neither event is a match of two players (docs/rules.md 16.5); C and E's
    # game changes nothing below.
    october = [("111111A", "444444D", "0-1"), ("333333C", "555555E", "1/2-1/2")]
    approved_event("OCT", "otb-standard", datetime.date(2026, 10, 10), october)
    succeeded(rate("otb-standard", "2026-10"))
    # D: pending month 2026-08 (5, 6000, 2.5) and a win over A (1500): G 6, T 7500, S 3.5:
    # Ra 1250 + 20 x (7 - 6) = 1270.
    assert state("444444D", "2026-10").rating == 1270
    november = [("444444D", "222222B", "1-0"), ("111111A", "333333C", "1/2-1/2")]
    event = approved_event("LONG", "otb-standard", datetime.date(2026, 11, 2), november)
    event.start_date = datetime.date(2026, 10, 28)  # the event began in October
    event.save()

    succeeded(rate("otb-standard", "2026-11", today=datetime.date(2026, 12, 3)))

    # When the event began D was unrated (rated only from October's list): B's game does not
    # count and B keeps 1900. D counts B at 1900, B's rating when it began. D (1270, 6 games:
    # K 40): diff -630 counts as -400, PD 0.08: 40 x 0.92 = 36.8 -> 1306.8 -> 1307.
    d = state("444444D", "2026-11")
    assert (d.rating, d.k_factor) == (1307, 40)
    b = state("222222B", "2026-11")
    assert (b.rating, b.k_factor, b.last_played) == (1900, None, "2026-09")
    assert dict(zip(ELO_LINE, b.breakdown[0], strict=True))["opponent_rating"] is None


def test_the_exported_list_names_its_rule_set_and_method(elo_list, rate, capsys):
    approved_event("OCT", "otb-standard", datetime.date(2026, 10, 10), [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))

    call_command("export_list", "--list", "otb-standard", "--period", "2026-10", "--format", "json")

    exported = json.loads(capsys.readouterr().out)
    assert (exported["rule_set"], exported["method"]) == ("fide-2017", "elo")
    # A 1500 beat B 1900 (18.4 -> +18); D's Partial record is pending and not listed.
    assert [(p["code"], p["rating"]) for p in exported["players"]] == [("222222B", 1882), ("111111A", 1518)]
