"""Rating floors through the database (docs/rules.md section 14): the counters kept with every
state from the take-on on, a list whose rule set has floors, and the pages that show them."""

import datetime

import pytest

from chess.months import Month
from grading.models import PlayerRating
from grading.rule_set_changes import do_change_rule_set
from grading.takeon import do_import_ratings
from tests.builders import PlayerFactory, approved_event, rating_list, succeeded

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 10, 10)


@pytest.fixture
def federation():
    """A rated 1210 whose highest rating was 1464, and three players rated 1210."""
    for code in ("100001A", "100002B", "100003C", "100004D"):
        PlayerFactory(code=code, birth_date=datetime.date(1980, 1, 1))
    data = "code,rating,type,games,opponents_total,points,last_played,peak,wins,draws,events3\n"
    data += "100001A,1210,full,60,72600,30,2026-08,1464,20,10,6\n"
    data += "".join(f"{code},1210,full,60,72600,30,2026-08,,,,\n" for code in ("100002B", "100003C", "100004D"))
    do_import_ratings(data.encode(), rating_list("otb-standard"), Month.parse("2026-09"))
    # A loses twice and draws once against 1210s: -10, -10, 0 by the K rating, 1190.
    approved_event(
        "AUTUMN",
        "otb-standard",
        DAY,
        [("100001A", "100002B", "0-1"), ("100003C", "100001A", "1-0"), ("100001A", "100004D", "1/2-1/2")],
    )


def october(code):
    return PlayerRating.objects.get(player__code=code, month="2026-10", superseded_at=None)


def test_every_state_keeps_its_counters_and_peak_whatever_the_rule_set(federation, rate):
    succeeded(rate("otb-standard", "2026-10"))

    a, b = october("100001A"), october("100002B")
    assert (a.rating, a.floor, a.unfloored_rating) == (1190, None, None)  # ecf-2024: no floors
    # 20 + 0 wins, 10 + 1 draws, 6 + 1 event of three games; the peak stays 1464.
    assert (a.wins, a.draws, a.events3, a.peak) == (20, 11, 7, 1464)
    # B: taken on without a peak (its Full rating, 1210), one win: 1220, the new peak.
    assert (b.rating, b.wins, b.events3, b.peak) == (1220, 1, 0, 1220)


def test_a_list_with_floors_holds_a_rating_up_and_the_pages_say_how(federation, rate, client):
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-10"), "ecf-2024+floors", acting_user=None)
    succeeded(rate("otb-standard", "2026-10"))

    a = october("100001A")
    # Floors: absolute 100 + 4 x 20 + 2 x 11 + 7 = 209, at most 150; peak 1464 - 200 = 1264 -> 1200.
    assert (a.rating, a.floor, a.unfloored_rating) == (1200, 1200, 1190)
    assert october("100004D").floor == 100 + 2  # a draw; no peak floor under 1400

    page = client.get("/players/100001A/otb-standard/2026-10/").content.decode()
    assert "The rating floor" in page
    assert "100 + 4 × 20 wins + 2 × 11 draws + 1 × 7 events of 3 games or more = 209, at most 150" in page
    assert "1464, less 200 = 1264, down to a multiple of 100 from 1200 to 2100: <strong>1200</strong>" in page
    assert "The method's rating, 1190, is under it: the rating is the floor, <strong>1200</strong>" in page
    assert "(published: " not in page  # the arithmetic ends at 1190, which the floor explains
    player = client.get("/players/100001A/").content.decode()
    assert 'title="Held up by its rating floor: the method gave 1190">floor</a>' in player  # the current rating
    assert 'title="Held up by its rating floor: the method gave 1190">floor</abbr>' in player  # its history


def test_the_calculation_reads_the_peak_before_as_the_engine_does():
    from types import SimpleNamespace

    from grading.engine import RULE_SETS
    from grading.selectors.calculations import prior_peak

    kept_none = SimpleNamespace(type="full", peak=None, rating=2140)

    # The Elo method takes a Full rating for the peak where none was kept (a state from before
    # the method kept peaks); the ECF method reads the peak it keeps, here none.
    assert prior_peak(RULE_SETS["fide-2017+floors"], kept_none) == 2140
    assert prior_peak(RULE_SETS["ecf-2024+floors"], kept_none) is None
    assert prior_peak(RULE_SETS["ecf-2024+floors"], SimpleNamespace(type="full", peak=1464, rating=1210)) == 1464
    assert prior_peak(RULE_SETS["fide-2017+floors"], None) is None
