"""docs/rules.md part 2: the Elo method, rule by rule, with the worked examples of its sources."""

import datetime
from fractions import Fraction

import pytest

from grading.engine import AT_PERIOD_START, EngineInputError, Game, Month, PendingMonth, RatingState, check_state
from grading.engine.rules.elo import fide_performance, performance_of_400
from tests.engine.helpers import PERIOD, player, rate


def rated(rating: int, games: int = 50, peak: int | None = None, last: str = "2026-09") -> RatingState:
    return RatingState(rating, "full", games, rating * games, games // 2, Month.parse(last), peak=peak)


def pending(*months: tuple[str, int, int, str], last: str = "2026-09") -> RatingState:
    entries = tuple(PendingMonth(Month.parse(m), g, t, Fraction(p)) for m, g, t, p in months)
    return RatingState(None, "pending", 0, 0, 0, Month.parse(last), pending=entries)


def game(white, black, result="1-0", day=4, event=None, white_used=AT_PERIOD_START, black_used=AT_PERIOD_START):
    return Game(white, black, result, datetime.date(2026, 10, day), event, white_used, black_used)


def elo(players, games, rules="fide-2017"):
    return rate(players, games, rules=rules)


# --- section 11: rated players ------------------------------------------------------------------


def test_file_003s_player_rated_2635_scoring_10_5_against_9_66_expected_gains_8_4_and_is_rated_2643():
    # Ten wins against 2200s: diff 435, counted as 400 -> D offset 8.4 -> PD 0.5 + 8.4 / 20 = 0.92.
    # A draw against a 2665: diff -30 -> D offset -0.8 -> PD 0.46. Expected 10 x 0.92 + 0.46 = 9.66.
    # Peak 2700 and 50 games: K 10. Change 10 x (10.5 - 9.66) = 8.4; 2635 + 8.4 = 2643.4 -> 2643.
    players = [player("p", standard=rated(2635, peak=2700)), player("top", standard=rated(2665))]
    players += [player(f"o{i}", standard=rated(2200)) for i in range(10)]
    games = [game("p", f"o{i}", day=1 + i) for i in range(10)] + [game("top", "p", "1/2-1/2", day=20)]

    p = elo(players, games).player_by_id("p")

    assert (p.category, p.method, p.k, p.k_rule) == ("rated", "elo", 10, "top")
    assert p.expected == Fraction("9.66") and p.score == Fraction("10.5")
    assert p.change == Fraction("8.4") and p.rating == 2643
    assert p.games[0].difference == 435 and p.games[0].difference_used == 400
    assert p.games[0].expected == Fraction("0.92") and p.games[-1].expected == Fraction("0.46")
    assert p.state.peak == 2700 and p.state.games == 61 and p.state.last_played == PERIOD


def test_file_002s_difference_of_35_expects_0_55():
    # D offset of 35 is 1.0; PD = 0.50 + 1.0 / 20 = 0.55. A draw: K 20 x (0.5 - 0.55) = -1.0.
    result = elo([player("a", standard=rated(1835)), player("b", standard=rated(1800))], [game("a", "b", "1/2-1/2")])

    a, b = result.player_by_id("a"), result.player_by_id("b")
    assert a.games[0].expected == Fraction("0.55") and a.games[0].increment == Fraction(-1)
    assert b.games[0].expected == Fraction("0.45") and b.games[0].increment == Fraction(1)
    assert (a.rating, b.rating) == (1834, 1801)


def test_k_is_40_for_fewer_than_30_games_and_the_700_cap_makes_it_17_for_41_games():
    # 29 games before: K 40; 40 x 41 = 1640 > 700, so K = floor(700 / 41) = 17.
    # 41 draws against equals: PD 0.5 each, change 0: the rating stays 1500.
    players = [player("n", standard=rated(1500, games=29))] + [player(f"o{i}", standard=rated(1500)) for i in range(41)]
    n = elo(players, [game("n", f"o{i}", "1/2-1/2", day=1 + i % 28) for i in range(41)]).player_by_id("n")

    assert (n.k_uncapped, n.k, n.k_rule) == (40, 17, "new-player")
    assert n.rating == 1500 and n.state.games == 70


@pytest.mark.parametrize(
    ("state", "born", "rules", "k", "rule"),
    [
        (rated(2250), "2010-05-01", "fide-2017", 40, "junior"),  # 16 and below 2300
        (rated(2350), "2010-05-01", "fide-2017", 20, "base"),  # a junior at 2300 or more
        (rated(2350, peak=2400), None, "fide-2017", 10, "top"),  # once 2400, K 10 for good
        (rated(2350, peak=2399), None, "fide-2017", 20, "base"),
        (rated(2350, games=10, peak=2450), None, "fide-2017", 40, "new-player"),  # the first rule wins
        (rated(2350, games=10, peak=2450), "2010-05-01", "fide-2017-rapid", 20, "flat"),
    ],
)
def test_the_first_k_rule_that_applies_sets_k(state, born, rules, k, rule):
    # One win against an equal: PD 0.5, change K x 0.5.
    result = elo(
        [player("p", born=born, standard=state), player("o", standard=rated(state.rating))], [game("p", "o")], rules
    )

    p = result.player_by_id("p")
    assert (p.k, p.k_rule) == (k, rule)
    assert p.rating == state.rating + k // 2


def test_a_negative_change_of_2_5_rounds_half_up_to_minus_2():
    # For exactly -2.5: K 10, a loss at PD 0.25 (diff -190 -> D offset -5.0): 10 x (0 - 0.25) = -2.5.
    result = elo(
        [player("p", standard=rated(2400, peak=2400)), player("o", standard=rated(2590))], [game("o", "p", "1-0")]
    )
    p = result.player_by_id("p")
    assert p.games[0].expected == Fraction("0.25") and p.change == Fraction("-2.5")
    assert p.rating == 2398  # floor(-2.5 + 0.5) = -2


def test_a_rated_players_rating_never_falls_below_1000():
    # 1005 losing to an equal: 20 x (0 - 0.5) = -10 -> 995, floored to 1000.
    result = elo([player("p", standard=rated(1005)), player("o", standard=rated(1005))], [game("o", "p")])
    assert result.player_by_id("p").rating == 1000


def test_games_against_unrated_opponents_change_nothing_for_a_rated_player():
    result = elo([player("p", standard=rated(1800, last="2026-01")), player("u")], [game("p", "u")])

    p = result.player_by_id("p")
    assert (p.k, p.rating, p.changed) == (None, 1800, False)
    assert p.games[0].counted is False and p.games[0].opponent_rating is None
    assert p.state.last_played == Month.parse("2026-01")  # the state is the prior one


def test_an_opponent_counts_at_the_rating_they_had_when_the_event_began():
    # The event began in September: b was 1900 then (1800 now) and a was unrated then.
    # a (rated 1800 now) counts b at 1900: diff -100 -> D offset -2.8 -> PD 0.36; a win: 20 x 0.64 = 12.8.
    # b counts a as unrated: b's game does not count.
    result = elo(
        [player("a", standard=rated(1800)), player("b", standard=rated(1800))],
        [game("a", "b", white_used=None, black_used=1900)],
    )

    a, b = result.player_by_id("a"), result.player_by_id("b")
    assert a.games[0].opponent_rating == 1900 and a.games[0].increment == Fraction("12.8") and a.rating == 1813
    assert b.games[0].counted is False and b.rating == 1800


def test_between_two_rated_players_with_the_same_k_the_two_increments_are_opposite():
    result = elo([player("a", standard=rated(2010)), player("b", standard=rated(1777))], [game("a", "b", "0-1")])
    assert result.player_by_id("a").games[0].increment == -result.player_by_id("b").games[0].increment


# --- section 12: unrated players ----------------------------------------------------------------


def newcomer_against_1800s(score_halves: list[int], rules="fide-2017"):
    """An unrated player against eight 1800s in one event, scoring these half points."""
    players = [player("new")] + [player(f"o{i}", standard=rated(1800)) for i in range(8)]
    results = {2: "1-0", 1: "1/2-1/2", 0: "0-1"}
    games = [game("new", f"o{i}", results[h], day=1 + i, event="E") for i, h in enumerate(score_halves)]
    return elo(players, games, rules).player_by_id("new")


@pytest.mark.parametrize(
    ("halves", "branch", "rating"),
    [
        ([2, 2, 2, 2, 0, 0, 0, 0], "even", 1800),  # 4/8: Ra
        ([2, 2, 2, 2, 2, 0, 0, 0], "above", 1840),  # 5/8: 1800 + 20 x (10 - 8)
        ([2, 2, 0, 0, 0, 0, 0, 0], "below", 1607),  # 2/8: p 0.25, dp -193
    ],
)
def test_file_002s_first_ratings_from_an_average_of_1800(halves, branch, rating):
    new = newcomer_against_1800s(halves)

    assert (new.category, new.method, new.type, new.rating) == ("unrated", "first", "full", rating)
    assert new.first.average == 1800 and new.first.branch == branch and new.first.reached
    wins, draws = halves.count(2), halves.count(1)  # the lifetime counters: eight games in one event
    assert new.state == RatingState(
        rating, "full", 8, 14400, Fraction(sum(halves), 2), PERIOD, peak=rating, wins=wins, draws=draws, events3=1
    )


def test_four_games_are_not_enough_and_stay_pending_for_26_months():
    new = newcomer_against_1800s([2, 0, 0, 0])

    assert (new.rating, new.type, new.first.branch) == (None, "pending", None)
    assert new.state.pending == (PendingMonth(PERIOD, 4, 7200, 1),)
    assert new.state.games == 0 and new.state.last_played == PERIOD


def test_a_first_event_without_a_point_is_disregarded_and_a_later_one_counts():
    # Event A (days 1-3): three losses, disregarded. Event B (days 10-14): 5 games, 2.5 points -> 1800.
    players = [player("new")] + [player(f"o{i}", standard=rated(1800)) for i in range(8)]
    games = [game("new", f"o{i}", "0-1", day=1 + i, event="A") for i in range(3)]
    games += [game(f"o{i}", "new", ("0-1", "1-0")[i % 2], day=10 + i, event="B") for i in range(3, 8)]
    # B: o3 wins, o4 loses, o5 wins, o6 loses, o7 wins: new scores 2 of 5, p 0.40 -> dp -72 -> 1728.

    new = elo(players, games).player_by_id("new")

    assert [line.disregarded for line in new.games] == [True] * 3 + [False] * 5
    assert new.first.games == 5 and new.first.points == 2 and new.rating == 1728


def test_a_player_with_a_pending_month_keeps_every_counted_game():
    # Pending from 2025-09 (13 months back): 2 games, 3600, 1 point. This month: 3 losses -> 5 games,
    # 1 point, T 9000: Ra 1800, p 0.20 -> dp -240 -> 1560.
    players = [player("new", standard=pending(("2025-09", 2, 3600, "1")))]
    players += [player(f"o{i}", standard=rated(1800)) for i in range(3)]
    new = elo(players, [game(f"o{i}", "new", day=1 + i, event="A") for i in range(3)]).player_by_id("new")

    assert not any(line.disregarded for line in new.games)
    assert (new.first.games, new.first.points, new.first.percent, new.first.bonus) == (5, 1, 20, -240)
    assert new.rating == 1560 and new.state.pending == ()


def test_a_pending_month_older_than_26_months_is_dropped():
    # 2024-08 = 2026-10 - 26: outside the window (2024-09 .. 2026-10); 2024-09 still counts.
    players = [player("new", standard=pending(("2024-08", 3, 5400, "3"), ("2024-09", 1, 1800, "0")))]
    players += [player(f"o{i}", standard=rated(1800)) for i in range(3)]
    new = elo(players, [game("new", f"o{i}", "1/2-1/2", day=1 + i) for i in range(3)]).player_by_id("new")

    assert [entry.month for entry in new.state.pending] == [Month.parse("2024-09"), PERIOD]
    assert new.first.games == 4 and new.type == "pending"


def test_a_first_rating_below_1000_leaves_the_player_pending():
    # Five losses to 1100s: Ra 1100, S 0 is not half a point: pending. With one draw: 0.5 / 5,
    # p 0.1 -> dp -366 -> 734: below 1000, still pending.
    players = [player("new")] + [player(f"o{i}", standard=rated(1100)) for i in range(5)]
    results = ["0-1", "0-1", "0-1", "0-1", "1/2-1/2"]
    new = elo(players, [game("new", f"o{i}", r, day=1 + i) for i, r in enumerate(results)]).player_by_id("new")

    assert new.first.rating == 734 and not new.first.reached
    assert (new.rating, new.type, new.state.pending[0].games) == (None, "pending", 5)


def test_two_unrated_players_change_nothing_for_each_other():
    result = elo([player("a"), player("b")], [game("a", "b")])

    a = result.player_by_id("a")
    assert (a.rating, a.type, a.state, a.changed) == (None, None, None, False)


def test_more_points_never_give_a_lower_first_rating():
    by_points = {}
    for wins in range(9):
        for draws in range(9 - wins):
            halves = [2] * wins + [1] * draws + [0] * (8 - wins - draws)
            if sum(halves):
                by_points[sum(halves)] = newcomer_against_1800s(halves).rating
    ratings = [by_points[points] for points in sorted(by_points)]
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings)


# --- input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "field", "message"),
    [
        (RatingState(1500, "partial", 5, 7500, 2, None), "type", "is not 'full' or 'pending'"),
        (rated(950), "rating", "950 is below the rating floor 1000"),
        (rated(1500, peak=1400), "peak", "1400 is below the rating 1500"),
        (pending(("2026-10", 1, 1800, "1")), "pending[0].month", "2026-10 is not before period 2026-10"),
        (pending(("2026-05", 1, 1800, "1"), ("2026-05", 2, 3600, "1")), "pending[1].month", "2026-05 is also"),
        (RatingState(1500, "pending", 0, 0, 0, None), "rating", "a pending state has no rating"),
    ],
)
def test_bad_elo_states_name_the_field(state, field, message):
    with pytest.raises(EngineInputError) as error:
        elo([player("a", standard=state), player("b", standard=rated(1500))], [game("a", "b")])
    assert error.value.field == f"players[0].ratings.otb-standard.{field}"
    assert message in error.value.message


def test_one_state_is_checked_alone_by_the_checks_a_run_makes_naming_its_own_fields():
    check_state(pending(("2026-09", 1, 1800, "1")), Month.parse("2026-10"), "fide-2017")  # a pending state: fine

    with pytest.raises(EngineInputError) as error:
        check_state(pending(("2026-09", 0, 0, "0")), Month.parse("2026-10"), "fide-2017")
    assert (error.value.field, error.value.message) == ("pending[0].games", "0 is out of range (1 to 999999999999)")
    with pytest.raises(EngineInputError) as error:
        check_state(rated(950), Month.parse("2026-10"), "fide-2017-rapid")
    assert (error.value.field, error.value.message) == ("rating", "950 is below the rating floor 1000")


def test_an_adjustment_with_an_elo_rule_set_is_refused():
    with pytest.raises(EngineInputError, match="adjustment: the Elo method"):
        rate(
            [player("a", standard=rated(1500)), player("b", standard=rated(1500))],
            [game("a", "b")],
            rules="fide-2017",
            a="0.5",
        )


# --- section 13: performance ratings -----------------------------------------------------------


def test_performance_ratings_of_file_001():
    # Against 1800, 1900, 2000 (Ra 1900) scoring 2 of 3: p 0.67 -> dp 125 -> 2025.
    assert fide_performance([1800, 1900, 2000], [2, 2, 0]) == 2025
    # Algorithm of 400: (5700 + 400 x (2 - 1)) / 3 = 2033.3 -> 2033.
    assert performance_of_400([1800, 1900, 2000], [2, 2, 0]) == 2033
    assert fide_performance([], []) is None
