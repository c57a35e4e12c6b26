"""Repeated pairings (docs/integrity.md): two players meeting far more often than their events
make likely, with one-sided results."""

import numpy as np
import pytest

from grading.integrity.signals.improbable import RatedGames
from grading.integrity.signals.pairings import repeated_pairings


def games(rows):
    return RatedGames(*np.array(rows, dtype=np.int64).reshape(-1, 6).T)


def swiss_with_a_meeting(event, white_halves=2):
    """An event of 41 players in which player 1 plays 8 games, one of them against player 2:
    r / (s - 1) = 8 / 40 = 0.2 meetings expected of any two players. The others are new each time."""
    others = 100 * event
    rows = [(event, 1, 2, 1500, 1500, white_halves)]
    rows += [(event, 1, others + opponent, 1500, 1500, 1) for opponent in range(3, 10)]
    rows += [(event, others + other, others + other + 1, 1500, 1500, 1) for other in range(10, 42, 2)]
    return rows


def test_five_one_sided_meetings_in_five_large_swisses_are_flagged():
    # Expected meetings: 5 events * 0.2 = 1.0; they met 5 times (>= 3 * 1.0), and player 1 won
    # all five at evens: P(10 half points of 10) = 0.5^10 = 1/1024 = 0.00098 <= 0.05.
    pairs = repeated_pairings(games([row for event in range(1, 6) for row in swiss_with_a_meeting(event)]))

    assert len(pairs.first) == 1
    assert (pairs.first[0], pairs.second[0], pairs.meetings[0], pairs.halves[0]) == (1, 2, 5, 10)
    assert pairs.expected_meetings[0] == pytest.approx(1.0)
    assert pairs.upper[0] == pytest.approx(0.5**10)
    assert pairs.flagged().tolist() == [True]


def test_the_winner_is_named_first_whichever_id_is_lower():
    pairs = repeated_pairings(games([row for event in range(1, 6) for row in swiss_with_a_meeting(event, 0)]))

    assert (pairs.first[0], pairs.second[0], pairs.halves[0]) == (2, 1, 10)
    assert pairs.flagged().tolist() == [True]


def test_shared_results_are_not_one_sided():
    # Five draws: 5 half points of 10 for each, P(at least 5) = 0.62: not flagged.
    pairs = repeated_pairings(games([row for event in range(1, 6) for row in swiss_with_a_meeting(event, 1)]))

    assert pairs.upper[0] > 0.5
    assert pairs.flagged().tolist() == [False]


def test_a_match_is_expected_to_pair_its_two_players_every_game():
    # A six-game match, all won by one side: s = 2, r = 6, 6 meetings expected, 6 met.
    pairs = repeated_pairings(games([(9, 1, 2, 1500, 1500, 2)] * 6))

    assert pairs.expected_meetings[0] == pytest.approx(6.0)
    assert pairs.flagged().tolist() == [False]


def test_pairs_that_met_fewer_than_four_times_are_not_listed():
    pairs = repeated_pairings(games([row for event in range(1, 4) for row in swiss_with_a_meeting(event)]))

    assert len(pairs.first) == 0
