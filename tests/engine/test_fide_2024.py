"""docs/rules.md part 5: FIDE's rules from March 2024 (fide-2024, fide-2025, fide-2024-rapid), each
rule at its boundary, with fide-2017 beside it where the two differ."""

import datetime
from fractions import Fraction

import numpy as np
import pytest

from grading.engine import (
    RULE_SETS,
    EngineInputError,
    Game,
    Month,
    PendingMonth,
    RatingState,
    StateColumns,
    adjusted_state,
    adjusted_states,
)
from grading.engine.codes import FULL, PENDING
from grading.engine.results.elo_arithmetic import elo_arithmetic
from grading.engine.rules.elo import difference_used, expected_units
from grading.engine.rules.tables import fide_tenths_array
from tests.engine.helpers import PERIOD, player, rate


def rated(rating: int, games: int = 50, peak: int | None = None, **counters) -> RatingState:
    return RatingState(rating, "full", games, rating * games, games // 2, Month.parse("2026-09"), peak=peak, **counters)


def game(white, black, result="1-0", day=4, event=None):
    return Game(white, black, result, datetime.date(2026, 10, day), event)


def loses_to_an_equal(rating: int, rules: str, **state):
    # K 20 (50 games, peak under 2400, an adult): a loss to an equal is 20 x (0 - 0.50) = -10.
    players = [player("p", standard=rated(rating, **state)), player("o", standard=rated(rating))]
    return rate(players, [game("o", "p")], rules=rules).player_by_id("p")


# --- 17.1 the floor 1400 ---------------------------------------------------------------------------


def test_a_1410_who_loses_to_an_equal_is_rated_1400_at_the_floor():
    # 1410 - 10 = 1400: at the floor, still rated.
    p = loses_to_an_equal(1410, "fide-2024")

    assert (p.rating, p.type, p.below_floor) == (1400, "full", None)
    assert p.state.games == 51


def test_a_1409_who_loses_to_an_equal_falls_to_1399_and_becomes_unrated_keeping_only_the_peak():
    # 1409 - 10 = 1399, under 1400: no rating, no pending months, the record gone, the peak kept.
    p = loses_to_an_equal(1409, "fide-2024", peak=1650, wins=20, draws=5)

    assert (p.rating, p.type, p.below_floor, p.change) == (None, "pending", 1399, Fraction(-10))
    state = p.state
    assert (state.rating, state.type, state.games, state.opponents_total, state.points) == (None, "pending", 0, 0, 0)
    assert state.pending == () and state.peak == 1650 and state.last_played == PERIOD
    assert (state.wins, state.draws) == (20, 5)  # the lifetime counters are a record too


def test_under_fide_2017_the_same_loss_gives_1399_with_its_floor_at_1000():
    p = loses_to_an_equal(1409, "fide-2017")

    assert (p.rating, p.type, p.below_floor) == (1399, "full", None)


def test_a_peak_floor_applies_before_the_1400_test():
    # fide-2024+floors, peak 1750: peak floor 1750 - 200 = 1550, rounded down to 1500. The loss
    # gives 1399, raised to the floor 1500 first: still rated.
    p = loses_to_an_equal(1409, "fide-2024+floors", peak=1750)

    assert (p.rating, p.type, p.floor, p.unfloored) == (1500, "full", 1500, 1399)


def test_a_player_unrated_under_the_floor_keeps_their_peak_into_a_later_first_rating():
    # A pending state with a kept peak of 1650 (17.1) earns a first rating of 1657 (the worked
    # example of 17.3 below): the peak is the higher of the two, 1657.
    kept = RatingState(None, "pending", 0, 0, 0, Month.parse("2026-09"), peak=1700)
    players = [player("n", standard=kept)] + [player(f"o{i}", standard=rated(1600)) for i in range(5)]
    results = ["1-0", "0-1", "1-0", "0-1", "1/2-1/2"]
    games = [game("n", f"o{i}", results[i], day=1 + i) for i in range(5)]

    n = rate(players, games, rules="fide-2024").player_by_id("n")

    assert (n.rating, n.state.peak) == (1657, 1700)


def test_a_pending_state_may_keep_a_peak_under_the_2024_rules_only():
    kept = RatingState(None, "pending", 0, 0, 0, Month.parse("2026-09"), peak=1700)
    players = [player("n", standard=kept), player("o", standard=rated(1600))]

    with pytest.raises(EngineInputError, match="a pending state has no peak"):
        rate(players, [game("n", "o")], rules="fide-2017")


# --- 17.2 the expected score past 400 and the rounding ---------------------------------------------


def top_draws_with_a_player_500_below(rating: int, rules: str):
    # Peak 2650, 50 games: K 10. The opponent, 500 below, has K 20.
    players = [player("top", standard=rated(rating, peak=2650)), player("low", standard=rated(rating - 500))]
    result = rate(players, [game("top", "low", "1/2-1/2")], rules=rules)
    return result.player_by_id("top"), result.player_by_id("low")


def test_under_fide_2025_a_2650_is_expected_0_96_against_a_player_500_below():
    # diff 500, not capped for Ro 2650: table 8.1.2's 485-517 band, PD 0.96.
    # A draw: 10 x (0.5 - 0.96) = -4.6, rounded -5: 2645.
    top, low = top_draws_with_a_player_500_below(2650, "fide-2025")

    assert (top.games[0].difference, top.games[0].difference_used) == (500, 500)
    assert top.games[0].expected == Fraction("0.96") and top.rating == 2645
    # The opponent keeps the 400-point rule: diff -500 counted -400, PD 0.08; 20 x 0.42 = 8.4: 2158.
    assert (low.games[0].difference_used, low.games[0].expected, low.rating) == (-400, Fraction("0.08"), 2158)
    assert top.games[0].expected + low.games[0].expected == Fraction("1.04")  # more than 1, as decided


def test_under_fide_2025_a_2649_keeps_the_400_point_rule():
    # diff 500 counted 400: PD 0.92; 10 x (0.5 - 0.92) = -4.2, rounded -4: 2645.
    top, _ = top_draws_with_a_player_500_below(2649, "fide-2025")

    assert (top.games[0].difference_used, top.games[0].expected, top.rating) == (400, Fraction("0.92"), 2645)


def test_under_fide_2024_a_2650_keeps_the_400_point_rule():
    # diff 500 counted 400: PD 0.92; -4.2, rounded -4: 2646.
    top, _ = top_draws_with_a_player_500_below(2650, "fide-2024")

    assert (top.games[0].difference_used, top.games[0].expected, top.rating) == (400, Fraction("0.92"), 2646)


@pytest.mark.parametrize(
    ("opponent", "rules", "change", "rating"),
    [
        # A 2400 (peak 2400: K 10) draws: against a 2589 (diff -189, D offset -5.0, PD 0.25),
        # 10 x (0.5 - 0.25) = +2.5; against a 2211 (diff 189, PD 0.75) -2.5.
        (2589, "fide-2024", "2.5", 2403),  # half away from zero: +3
        (2589, "fide-2017", "2.5", 2403),  # half up: +3 too
        (2211, "fide-2024", "-2.5", 2397),  # half away from zero: -3
        (2211, "fide-2017", "-2.5", 2398),  # half up: -2
        (2211, "fide-2024-rapid", "-5", 2395),  # K 20 for all: 20 x -0.25 = -5
    ],
)
def test_a_change_of_a_half_rounds_away_from_zero_under_the_2024_rules(opponent, rules, change, rating):
    players = [player("p", standard=rated(2400, peak=2400)), player("o", standard=rated(opponent))]
    p = rate(players, [game("p", "o", "1/2-1/2")], rules=rules).player_by_id("p")

    assert (p.change, p.rating) == (Fraction(change), rating)


def test_the_arithmetic_page_follows_the_run_for_the_2024_rules():
    # The 2650 of fide-2025 above, from what a published rating keeps; and the 1409 who fell.
    top = elo_arithmetic(2650, [1], [2150], "top", RULE_SETS["fide-2025"])
    assert (top.games[0].difference_used, top.games[0].expected, top.rounded, top.rating) == (
        500,
        Fraction("0.96"),
        -5,
        2645,
    )
    fell = elo_arithmetic(1409, [0], [1409], "base", RULE_SETS["fide-2024"])
    assert (fell.rounded, fell.rating, fell.unrated, fell.floored) == (-10, 1399, True, False)


# --- 17.3 the first rating ---------------------------------------------------------------------------


def first_rating_of(opponents: list[int], results: list[str], rules: str = "fide-2024"):
    players = [player("n")] + [player(f"o{i}", standard=rated(r)) for i, r in enumerate(opponents)]
    games = [game("n", f"o{i}", result, day=1 + i) for i, result in enumerate(results)]
    return rate(players, games, rules=rules).player_by_id("n")


def test_the_three_worked_first_ratings_of_section_17_3():
    # 1600s, 2.5 of 5: Ra = (8000 + 3600) / 7 = 1657.14, p = 3.5 / 7 = 0.50, dp 0: 1657.
    even = first_rating_of([1600] * 5, ["1-0", "0-1", "1-0", "0-1", "1/2-1/2"])
    assert (even.rating, even.first.average, even.first.percent) == (1657, Fraction(11600, 7), 50)
    # 1500s, 1 of 5: Ra = 11100 / 7 = 1585.71, p = 2 / 7 = 0.29, dp -158: 1427.71, 1428.
    low = first_rating_of([1500] * 5, ["1-0"] + ["0-1"] * 4)
    assert (low.rating, low.first.percent, low.first.bonus, low.first.branch) == (1428, 29, -158, "draws")
    # Five wins against 2300s: Ra = 15100 / 7 = 2157.14, p = 6 / 7 = 0.86, dp 309: 2466, capped.
    top = first_rating_of([2300] * 5, ["1-0"] * 5)
    assert (top.rating, top.first.over_cap, top.first.cap, top.state.peak) == (2200, 2466, 2200, 2200)


@pytest.mark.parametrize(
    ("opponents", "rating", "over_cap"),
    [
        # 2.5 of 5 (p 0.50, dp 0): rating = round((T + 3600) / 7).
        ([2358, 2358, 2359, 2359, 2359], 2199, None),  # (11793 + 3600) / 7 = 15393 / 7 = 2199.0
        ([2360] * 5, 2200, None),  # (11800 + 3600) / 7 = 2200 exactly
        ([2361, 2361, 2361, 2361, 2362], 2200, 2201),  # (11806 + 3600) / 7 = 2200.86 -> 2201, capped
    ],
)
def test_a_first_rating_of_2199_and_2200_stands_and_one_above_is_capped_at_2200(opponents, rating, over_cap):
    n = first_rating_of(opponents, ["1-0", "0-1", "1-0", "0-1", "1/2-1/2"])

    assert (n.rating, n.type, n.first.over_cap) == (rating, "full", over_cap)


def test_a_first_rating_under_1400_is_not_published_and_the_games_wait():
    # 1400s, 0.5 of 5: Ra = (7000 + 3600) / 7 = 1514.29, p = 1.5 / 7 = 0.21, dp -230: 1284.29, 1284,
    # under 1400.
    n = first_rating_of([1400] * 5, ["1/2-1/2"] + ["0-1"] * 4)

    assert (n.first.rating, n.first.reached, n.rating, n.type) == (1284, False, None, "pending")
    assert n.state.pending[0].games == 5
    # Under fide-2017: Ra 1400, p 0.10, dp -366: 1034, at least 1000: rated.
    assert first_rating_of([1400] * 5, ["1/2-1/2"] + ["0-1"] * 4, rules="fide-2017").rating == 1034


def test_the_first_rating_counts_the_pending_months_before_the_imaginary_draws():
    # Three games pending (1500s, 1.5 points) and two this month against 1700s, both won:
    # G 5, T 4500 + 3400 = 7900, S 3.5. Ra = (7900 + 3600) / 7 = 1642.86, p = 4.5 / 7 = 0.64
    # (0.643), dp 102: 1744.86, 1745.
    pending = RatingState(
        None,
        "pending",
        0,
        0,
        0,
        Month.parse("2026-08"),
        pending=(PendingMonth(Month.parse("2026-08"), 3, 4500, Fraction(3, 2)),),
    )
    players = [player("n", standard=pending), player("a", standard=rated(1700)), player("b", standard=rated(1700))]
    n = rate(players, [game("n", "a"), game("b", "n", "0-1")], rules="fide-2024").player_by_id("n")

    first = n.first
    assert (first.games, first.opponents_total, first.percent, first.bonus, n.rating) == (5, 7900, 64, 102, 1745)


# --- 17.4 juniors' K ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("born", "rules", "k", "rule"),
    [
        # Period 2026-10. Born 2008: turns 18 in 2026, 2026 <= 2008 + 18: a junior all 2026.
        ("2008-03-01", "fide-2024", 40, "junior"),
        ("2008-03-01", "fide-2017", 20, "base"),  # 18 years old on 1 October: no junior under 2017's rule
        # Born 2007: turned 18 in 2025, 2026 > 2025: no junior.
        ("2007-12-31", "fide-2024", 20, "base"),
        (None, "fide-2024", 20, "base"),  # unknown birth date: no junior
        ("2008-03-01", "fide-2024-rapid", 20, "flat"),  # K 20 for all
    ],
)
def test_a_junior_has_k_40_until_the_end_of_the_year_they_turn_18(born, rules, k, rule):
    # 50 games, rated 2000, peak 2000: only the junior rule can give 40.
    players = [player("j", born=born, standard=rated(2000)), player("o", standard=rated(2000))]
    j = rate(players, [game("j", "o", "1/2-1/2")], rules=rules).player_by_id("j")

    assert (j.k, j.k_rule) == (k, rule)


def test_a_junior_of_2300_or_more_has_no_junior_k_and_one_under_2300_keeps_it_past_a_2400_peak():
    def k_of(rating, peak):
        players = [player("j", born="2010-06-01", standard=rated(rating, peak=peak)), player("o", standard=rated(2000))]
        return rate(players, [game("j", "o", "1/2-1/2")], rules="fide-2024").player_by_id("j").k_rule

    assert k_of(2300, 2300) == "base"
    assert k_of(2299, 2450) == "junior"  # section 11's order: the junior rule comes before the peak


# --- 17: the rate-file's states -------------------------------------------------------------------


def test_a_rated_state_under_1400_is_refused_as_input_to_a_2024_rule_set():
    players = [player("p", standard=rated(1399)), player("o", standard=rated(1600))]

    with pytest.raises(EngineInputError, match="below the rating floor 1400"):
        rate(players, [game("p", "o")], rules="fide-2024")


# --- 18 FIDE's one-off adjustment ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (1500, 1700),  # 1500 + 0.4 x 500 = 1700
        (1000, 1400),  # 1000 + 0.4 x 1000 = 1400
        (1998, 1999),  # 1998 + 0.4 x 2 = 1998.8: + 1
        (1999, 1999),  # 1999 + 0.4 x 1 = 1999.4: + 0
        (2000, 2000),  # 2000 and over unchanged
        (2450, 2450),
    ],
)
def test_fides_adjustment_raises_a_rating_under_2000_by_four_tenths_of_its_distance(before, after):
    state = adjusted_state(rated(before, peak=before))

    assert (state.rating, state.peak) == (after, after)


def test_fides_adjustment_keeps_a_higher_peak_and_leaves_pending_states_alone():
    assert adjusted_state(rated(1500, peak=1800)).peak == 1800  # 1700 under the peak
    waiting = RatingState(
        None, "pending", 0, 0, 0, None, pending=(PendingMonth(Month.parse("2026-08"), 3, 4500, Fraction(3, 2)),)
    )
    assert adjusted_state(waiting) is waiting


def test_fides_adjustment_on_columns_changes_rated_states_only():
    states = StateColumns(
        type=np.array([FULL, FULL, FULL, PENDING], dtype=np.int8),
        rating=np.array([1500, 1000, 2100, 0]),
        games=np.array([40, 10, 90, 0]),
        opponents_total=np.array([60000, 15000, 190000, 0]),
        points_halves=np.array([40, 10, 90, 0]),
        last_played=np.array([300, 300, 300, 300]),
        peak=np.array([1800, 0, 2200, 0]),  # 0: a peak not given stands for the rating
    )
    adjusted = adjusted_states(states)

    assert adjusted.rating.tolist() == [1700, 1400, 2100, 0]
    assert adjusted.peak.tolist() == [1800, 1400, 2200, 0]
    assert adjusted.games.tolist() == [40, 10, 90, 0]


@pytest.mark.parametrize("name", ["fide-2024", "fide-2025", "fide-2024-rapid"])
def test_the_expected_score_of_every_difference_is_table_8_1_2_read_at_the_difference_used(name):
    # The run reads PD in one lookup; the rule is: cap the difference (unless Ro >= 2650 under
    # fide-2025), then read table 8.1.2. Both, for every difference from -3000 to 3000.
    rules = RULE_SETS[name]
    difference = np.arange(-3000, 3001)
    for own in (2649, 2650, 2800):
        ratings = np.full(len(difference), own)
        used = difference_used(difference, ratings, rules)
        assert (expected_units(difference, rules, ratings) == 100 + fide_tenths_array(used)).all()
    # Table 8.1.2's bands past 400, at their edges: 411 .92, 412 .93, 735 .99, 736 1.00.
    edges = np.array([411, 412, 735, 736, -736])
    assert (100 + fide_tenths_array(edges)).tolist() == [184, 186, 198, 200, 0]
