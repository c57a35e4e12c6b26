"""Improbable results (docs/integrity.md): a score against the score the ratings expected."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.integrity.signals.improbable import IMPROBABLE, RatedGames, event_scores
from grading.integrity.signals.tails import half_point_distribution, score_tails


def games(rows):
    """(event, white, black, white's rating, black's rating, white's half points) rows."""
    columns = np.array(rows, dtype=np.int64).T
    return RatedGames(*columns)


def test_a_game_is_two_half_points_each_won_with_its_expected_score():
    # p = 0.25: loss 0.75² = 0.5625, draw 2 * 0.25 * 0.75 = 0.375, win 0.25² = 0.0625.
    assert half_point_distribution(np.array([[0.25]])).tolist() == [[0.5625, 0.375, 0.0625]]


def test_the_tails_of_two_draws_at_evens():
    # Two games at p = 0.5, 2 half points of 4: P(H >= 2) = 1 - P(0) - P(1) = 1 - 1/16 - 4/16 = 11/16,
    # and P(H <= 2) the same by symmetry.
    upper, lower = score_tails(np.array([0, 0]), np.array([0.5, 0.5]), np.array([1, 1]))

    assert (upper[0], lower[0]) == pytest.approx((11 / 16, 11 / 16))


def test_three_wins_against_players_190_above_are_unlikely_but_not_flagged():
    # 1500 against 1690: D = -190, PD = (100 - 50) / 200 = 0.25 a game. Three wins are six half
    # points of six: 0.25^6 = 1/4096 = 0.000244, above IMPROBABLE (0.0001).
    scores = event_scores(games([(7, 1, opponent, 1500, 1690, 2) for opponent in (2, 3, 4)]))
    mine = scores.player == 1

    assert scores.games[mine][0] == 3
    assert scores.expected_halves[mine][0] == pytest.approx(1.5)  # 0.25 a game, 0.75 points
    assert scores.upper[mine][0] == pytest.approx(0.25**6)
    assert not scores.flagged()[mine][0]


def test_four_such_wins_are_flagged():
    # 0.25^8 = 1/65536 = 0.0000153 <= 0.0001.
    scores = event_scores(games([(7, 1, opponent, 1500, 1690, 2) for opponent in (2, 3, 4, 5)]))

    assert scores.upper[scores.player == 1][0] == pytest.approx(0.25**8)
    assert scores.flagged().tolist() == [True, False, False, False, False]
    assert 0.25**8 <= IMPROBABLE < 0.25**6


def test_a_player_who_beats_expectation_in_every_event_is_read_at_their_form():
    # Player 1 (1500) beats four 1690s in each of three events: alone, each event is 0.25^8 =
    # 0.000015, flagged. Read with form, the other two events' 8 games were 6 points above
    # expectation (1 - 0.25 a game): shift = 700 * 6 / (8 + 10) = 233, so 1733 against 1690
    # (D = +43, PD = 112/200 = 0.56) and eight half points of eight are 0.56^8 = 0.0097: not flagged.
    rows = [(event, 1, 10 * event + k, 1500, 1690, 2) for event in (7, 8, 9) for k in range(4)]
    plain, read = event_scores(games(rows), form=False), event_scores(games(rows))
    mine = plain.player == 1

    assert plain.upper[mine] == pytest.approx([0.25**8] * 3)
    assert read.upper[mine] == pytest.approx([0.56**8] * 3)
    assert not read.flagged()[mine].any()


def test_a_single_events_gifts_stand_out_against_ordinary_form():
    # Player 1 drew four games at evens in each of two events (no surplus), then beat four 1690s.
    rows = [(event, 1, 10 * event + k, 1500, 1500, 1) for event in (7, 8) for k in range(4)]
    rows += [(9, 1, 90 + k, 1500, 1690, 2) for k in range(4)]
    scores = event_scores(games(rows))

    assert scores.upper[(scores.player == 1) & (scores.event == 9)] == pytest.approx([0.25**8])
    assert scores.flagged()[(scores.player == 1) & (scores.event == 9)].all()


def test_the_losers_lower_tail_says_how_unlikely_their_losses_were():
    # Each 1690 lost one game at PD 0.75: P(H <= 0) = 0.25² = 0.0625.
    scores = event_scores(games([(7, 1, opponent, 1500, 1690, 2) for opponent in (2, 3, 4, 5)]))

    assert scores.lower[scores.player != 1] == pytest.approx([0.0625] * 4)


def test_games_with_an_unrated_player_tell_nothing():
    scores = event_scores(games([(7, 1, 2, 1500, 0, 2), (7, 1, 3, 1500, 1500, 1)]))

    assert scores.games[scores.player == 1].tolist() == [1]
    assert scores.halves[scores.player == 1].tolist() == [1]


def test_each_event_is_scored_apart():
    # The same two players in two events: a row each, their games not pooled.
    scores = event_scores(games([(7, 1, 2, 1500, 1500, 2), (8, 1, 2, 1500, 1500, 0), (8, 2, 1, 1500, 1500, 1)]))

    assert list(zip(scores.event.tolist(), scores.player.tolist(), scores.halves.tolist())) == [
        (7, 1, 2),
        (7, 2, 0),
        (8, 1, 1),
        (8, 2, 3),
    ]


def test_no_games_no_rows():
    assert len(event_scores(games(np.zeros((0, 6)))).player) == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=5), st.data())
def test_the_tails_are_those_of_every_outcome_counted_one_by_one(expected, data):
    # Brute force: each game's three outcomes with their probabilities, every combination.
    halves = data.draw(st.integers(min_value=0, max_value=2 * len(expected)))
    exact = {0: 1.0}
    for p in expected:
        step = {}
        for total, chance in exact.items():
            for h, outcome in ((0, (1 - p) ** 2), (1, 2 * p * (1 - p)), (2, p * p)):
                step[total + h] = step.get(total + h, 0.0) + chance * outcome
        exact = step
    observed = [halves // len(expected)] * len(expected)
    observed[0] += halves - sum(observed)
    upper, lower = score_tails(np.zeros(len(expected), dtype=np.int64), np.array(expected), np.array(observed))

    assert upper[0] == pytest.approx(sum(c for t, c in exact.items() if t >= halves), abs=1e-12)
    assert lower[0] == pytest.approx(sum(c for t, c in exact.items() if t <= halves), abs=1e-12)
