"""docs/rules.md part 3, section 14: rating floors and the lifetime counters behind them."""

import dataclasses
import datetime

import numpy as np
import pytest

from grading.engine import ECF_2024, RULE_SETS, Game, Month, RatingState
from grading.engine.rules.floors import floor_arithmetic, peak_floor
from tests.engine.helpers import PERIOD, full, partial, player, rate


def game(white, black, result="1-0", day=4, event=None):
    return Game(white, black, result, datetime.date(2026, 10, day), event)


def with_counters(state: RatingState, **counters) -> RatingState:
    return dataclasses.replace(state, **counters)


@pytest.mark.parametrize(
    ("peak", "floor"),
    [
        (1464, 1200),  # file 001: 1464 - 200 = 1264, down to the step 1200
        (1399, 0),  # 1199 is under the lowest step: no peak floor
        (1400, 1200),
        (1655, 1400),  # 1455 -> 1400
        (2600, 2100),  # 2400, but no step above 2100
        (0, 0),  # no peak
    ],
)
def test_the_peak_floor_is_the_highest_step_200_points_under_the_peak(peak, floor):
    assert peak_floor(np.array([peak]), RULE_SETS["ecf-2024+floors"]).tolist() == [floor]


def five_losses(rules):
    """A Full 1210 whose peak was 1464 loses five games to players rated 1210."""
    players = [player("a", standard=with_counters(full(1210), peak=1464))]
    players += [player(f"o{i}", standard=full(1210)) for i in range(5)]
    return rate(players, [game("a", f"o{i}", "0-1", day=1 + i) for i in range(5)], rules=rules)


def test_a_peak_floor_holds_a_k_rating_up():
    # Each game: D = 0 -> D offset 0, S offset -10; K 20, Q 20: -10 a game, 1210 - 50 = 1160.
    # Floors: absolute min(100 + 4 x 0 + 2 x 0 + 1, 150) = 101 (the five games, without an
    # event, are one event of three or more); peak 1464 - 200 = 1264 -> 1200. The floor is 1200.
    a = five_losses("ecf-2024+floors").player_by_id("a")

    assert (a.method, a.unfloored, a.floor, a.rating) == ("K", 1160, 1200, 1200)
    assert (a.state.rating, a.state.peak, a.state.wins, a.state.draws, a.state.events3) == (1200, 1464, 0, 0, 1)


def test_without_the_option_the_counters_are_kept_and_no_floor_applies():
    result = five_losses("ecf-2024")
    a, o0 = result.player_by_id("a"), result.player_by_id("o0")

    assert (a.rating, a.floor, a.unfloored) == (1160, None, None)
    assert (a.state.peak, a.state.events3) == (1464, 1)  # 1160 is under the peak
    # An opponent: one win, +10 -> 1220, their first Full rating published with a peak.
    assert (o0.rating, o0.state.peak, o0.state.wins, o0.state.events3) == (1220, 1220, 1, 0)


def test_the_absolute_floor_counts_this_periods_games_and_stops_at_150():
    # Prior: 10 wins, 4 draws, 1 event of three games. This month, event E: two losses and a
    # draw against 130s: D 0, so -10, -10, 0 -> 130 - 20 = 110.
    # Absolute floor: 100 + 4 x 10 + 2 x (4 + 1) + (1 + 1) = 152 -> at most 150; no peak floor.
    players = [player("a", standard=with_counters(full(130), wins=10, draws=4, events3=1))]
    players += [player(f"o{i}", standard=full(130)) for i in range(3)]
    games = [game("a", "o0", "0-1", 1, "E"), game("a", "o1", "0-1", 2, "E"), game("a", "o2", "1/2-1/2", 3, "E")]

    a = rate(players, games, rules="ecf-2024+floors").player_by_id("a")

    assert (a.unfloored, a.floor, a.rating) == (110, 150, 150)
    assert (a.state.wins, a.state.draws, a.state.events3) == (10, 5, 2)


def test_a_floor_under_the_methods_rating_changes_nothing():
    # 1600, peak 1700 -> peak floor 1500; a win against a 1600: +10 -> 1610.
    players = [player("a", standard=with_counters(full(1600), peak=1700)), player("b", standard=full(1600))]

    a = rate(players, [game("a", "b")], rules="ecf-2024+floors").player_by_id("a")

    assert (a.rating, a.floor, a.unfloored) == (1610, 1500, None)


def test_only_a_player_whose_prior_state_is_full_has_a_floor():
    # A Partially rated player and a new one: P ratings, no floor, whatever their counters.
    players = [
        player("p", standard=with_counters(partial(1300, 5, 6500, "2.5"), peak=1900, wins=40)),
        player("n"),
        player("o", standard=full(1500)),
    ]
    result = rate(players, [game("p", "o", "0-1"), game("n", "o", "0-1", day=5)], rules="ecf-2024+floors")

    assert [result.player_by_id(pid).floor for pid in ("p", "n")] == [None, None]
    assert result.player_by_id("p").state.peak == 1900  # a P rating does not lower the Full peak
    assert result.player_by_id("o").floor == 100 + 4 * 2  # 108: two wins, no event of three


def test_an_event_counts_once_it_has_three_rated_games_and_games_without_one_form_one_event():
    # Event A: three games (counts); event B: two (does not); three games with no event (count).
    players = [player("a", standard=full(1500))] + [player(f"o{i}", standard=full(1500)) for i in range(8)]
    events = ["A", "A", "A", "B", "B", None, None, None]
    results = ["1-0", "1/2-1/2", "0-1", "1-0", "1-0", "1/2-1/2", "0-1", "0-1"]
    games = [game("a", f"o{i}", results[i], 1 + i, events[i]) for i in range(8)]

    state = rate(players, games).player_by_id("a").state

    assert (state.wins, state.draws, state.events3) == (3, 2, 2)


def elo_rated(rating, games=100, peak=None):
    return RatingState(rating, "full", games, rating * games, games // 2, Month.parse("2026-09"), peak=peak)


def test_an_elo_rating_is_held_up_by_its_peak_floor():
    # 2110, peak 2350, 100 games: K 20. Four losses to 2110s: PD 0.50 each,
    # 20 x (0 - 4 x 0.50) = -40 -> 2070. Peak floor: 2350 - 200 = 2150 -> 2100.
    players = [player("p", standard=elo_rated(2110, peak=2350))]
    players += [player(f"o{i}", standard=elo_rated(2110)) for i in range(4)]
    games = [game("p", f"o{i}", "0-1", 1 + i) for i in range(4)]

    p = rate(players, games, rules="fide-2017+floors").player_by_id("p")

    assert (p.unfloored, p.floor, p.rating) == (2070, 2100, 2100)
    assert (p.state.rating, p.state.peak, p.state.events3) == (2100, 2350, 1)


def test_the_floor_parameters_are_a_rule_sets_own():
    rules = dataclasses.replace(ECF_2024, name="test", floors=True, peak_floor_drop=300, peak_floor_step=50)
    # 1464 - 300 = 1164: under 1200, no peak floor; 1700 - 300 = 1400 -> 1400 (steps of 50).
    assert peak_floor(np.array([1464, 1700, 1690]), rules).tolist() == [0, 1400, 1350]


def test_a_period_without_games_leaves_the_counters_as_they_were():
    players = [player("a", standard=with_counters(full(1500), wins=3)), player("b"), player("c")]
    result = rate(players, [game("b", "c")], rules="ecf-2024+floors")

    assert not result.players.rated[0] and result.prior_states.wins.tolist() == [3, 0, 0]
    assert result.player_by_id("b").state.wins == 1 and result.period == PERIOD


def test_the_floors_arithmetic_is_the_runs():
    # The golden file's player A: 20 wins, 11 draws, 7 events; peak 1464; K rating 1190.
    steps = floor_arithmetic(RULE_SETS["ecf-2024+floors"], 20, 11, 7, 1464, 1190)

    assert (steps.absolute_sum, steps.absolute, steps.peak_floor, steps.floor, steps.rating) == (
        209,
        150,
        1200,
        1200,
        1200,
    )
    assert floor_arithmetic(RULE_SETS["ecf-2024+floors"], 1, 0, 0, None, 1500).peak_floor is None
