"""How ratings work, for lists rated by FIDE's 2024 rules: each such list's own rules, with the
numbers of its rule set, the conditions that leave games out, and the text of lists still on
fide-2017 as it was."""

import html
from dataclasses import replace

import pytest

import grading.selectors.rule_sets
from chess.months import Month
from grading.engine import RULE_SETS
from grading.rule_set_changes import do_change_rule_set
from tests.builders import rating_list
from tests.public.test_elo_pages import text

pytestmark = pytest.mark.django_db

NOVEMBER = Month.parse("2026-11")  # after the federation's latest list: in force today


def help_page(client) -> str:
    return html.unescape(text(client.get("/help/")))


@pytest.fixture
def on_fide_2024(federation):
    """OTB standard on fide-2025 and OTB rapid on fide-2024-rapid from November; online on fide-2017."""
    do_change_rule_set(rating_list("otb-standard"), NOVEMBER, "fide-2025", acting_user=None)
    do_change_rule_set(rating_list("otb-rapid"), NOVEMBER, "fide-2024-rapid", acting_user=None)
    do_change_rule_set(rating_list("online"), NOVEMBER, "fide-2017", acting_user=None)


def test_a_list_on_fide_2025_has_its_own_rules_explained(client, on_fide_2024):
    page = help_page(client)

    assert "OTB standard is rated by them, as fide-2025; OTB rapid is rated by them, as fide-2024-rapid." in page
    assert "Under fide-2025 (OTB standard)" in page
    assert (
        "The lowest rating is 1400. A rated player whose month leaves them under 1400 becomes unrated from that month"
    ) in page
    assert (
        "2 imaginary games against opponents rated 1800, both drawn, are added: the rating is the opponents' average "
        "with them, (T + 2 × 1800) ÷ (G + 2), plus the performance table's dp for the score with them, "
        "(points + 2 × ½) ÷ (G + 2), and at most 2200."
    ) in page
    assert "Juniors are juniors by their year of birth: until the end of the year they turn 18." in page
    assert "K is 20; 40 for a player with fewer than 30 games rated, and for a junior (until the end of" in page
    # fide-2025's exemption, with FIDE's table 8.1.2 past 400.
    assert "does not hold for a player rated 2650 or more: their difference counts whole" in page
    assert "PD 0.93 from 412, 0.94 from 433, 0.95 from 457, 0.96 from 485" in page and "1.00 from 736 on" in page
    assert "a difference over 400 counts as 400, but not for a player rated 2650 or more under fide-2025" in page
    assert "+2.5 gives +3 and −2.5 gives −3 (rounded half up, as before, −2.5 gave −2)" in page
    assert (
        "each player needs 120 minutes for 60 moves where either is rated 2400 or more, 90 where either is rated "
        "1800 or more, and 60 otherwise. A first time control that names a number of moves names at least 30. "
        "An event a rating officer has approved as fast classic (45 minutes and 30 seconds a move or more)"
    ) in page


def test_a_rapid_list_on_fide_2024_rapid_has_its_conditions_and_no_exemption(client, on_fide_2024):
    page = help_page(client)
    rapid = page[page.index("Under fide-2024-rapid (OTB rapid)") : page.rindex("Games an Elo list does not rate")]

    assert "K is 20 for every player. A game between players rated 600 or more apart, one of them rated above " in rapid
    assert "A rapid list rates games of more than 10 and less than 60 minutes for 60 moves; a blitz list more " in rapid
    assert "2650" not in rapid and "Juniors" not in rapid and "The time limit" not in rapid
    assert "The lowest rating is 1400." in rapid and "at most 2200" in rapid


def test_the_conditions_that_leave_games_out_are_explained_for_each_rule_set_in_force(client, on_fide_2024):
    page = help_page(client)
    section = page[page.index("Games an Elo list does not rate On a list") :]

    assert (
        "Playing time (fide-2017): each player's time for 60 moves, increments included, must be 120 minutes when "
        "the event's highest rating is 2200 or more, 90 when it is 1600 or more, and 60 otherwise"
    ) in section
    assert (
        "The time limit, game by game (fide-2025): each player's time for 60 moves must be 120 minutes where either "
        "player is rated 2400 or more, 90 where either player is rated 1800 or more, and 60 otherwise"
    ) in section
    assert "Rapid and blitz (fide-2024-rapid): a game between players 600 or more points apart" in section
    assert '"not rapid play", "not blitz play"' in section
    assert "Hours a day (fide-2025, fide-2017): no player may have more than 12 hours of games" in section
    assert "Length: an event of more than 90 days" in section and "Matches (two players)" in section
    assert 'href="#not-rated"' in client.get("/help/").content.decode()


def test_lists_still_on_fide_2017_keep_their_text(client, federation):
    do_change_rule_set(rating_list("online"), NOVEMBER, "fide-2017", acting_user=None)

    page = help_page(client)

    assert "count a player as rated from 1000 up. A rated player's rating moves by K × (W − ΣPD)" in page
    assert "(a difference over 400 counts as 400)." in page
    assert (
        "Under fide-2017: K is 20; 40 for a player with fewer than 30 games rated, and for a junior rated under "
        in page
    )
    assert (
        "A first rating needs 5 games against rated opponents and at least half a point; the games of each month "
        "count for 26 months. It is the opponents' average, plus 20 for each half point over 50%"
    ) in page
    assert "FIDE's rules from 2024" not in page and "imaginary" not in page and "2650" not in page
    assert "The time limit, game by game" not in page


def test_the_numbers_are_the_rule_sets_own(client, federation, monkeypatch):
    # A fide-2025 with other numbers: the page says them, never FIDE's written elsewhere.
    other = replace(
        RULE_SETS["fide-2025"], rating_floor=1500, first_rating_cap=2300, elo_uncapped_from=2700, first_rating_draws=3
    )
    monkeypatch.setattr(grading.selectors.rule_sets, "RULE_SETS", {**RULE_SETS, "fide-2025": other})
    do_change_rule_set(rating_list("otb-standard"), NOVEMBER, "fide-2025", acting_user=None)

    page = help_page(client)

    assert "The lowest rating is 1500. A rated player whose month leaves them under 1500" in page
    assert "3 imaginary games against opponents rated 1800" in page and "(T + 3 × 1800) ÷ (G + 3)" in page
    assert "and at most 2300." in page
    assert "does not hold for a player rated 2700 or more" in page
