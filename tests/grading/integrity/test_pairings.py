"""Repeated pairings (docs/integrity.md): two players meeting far more often than their events
make likely with one-sided results, or meeting again and again (a match, a club) with results
one-sided beyond belief."""

import numpy as np
import pytest

from grading.integrity.signals.improbable import RatedGames
from grading.integrity.signals.pairings import ONE_SIDED_ALONE, repeated_pairings


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


# Two established players (uncertain by 45 each) rated 1500: their difference is uncertain by
# sqrt(45² + 45²) = 63.6, read as generously as is plausible to the one who scored more, 1.645 x
# 63.6 = 105 points apart: E = 1 / (1 + 10^(-105 / 400)) = 0.6466; draws at 1500, 0.165 between
# equals, x exp(-(105 / 300)²) = 0.885: 0.146; a win 0.6466 - 0.073 = 0.573.
WIN = 0.5732


def test_six_one_sided_meetings_in_six_large_swisses_are_flagged():
    # Expected meetings: 6 events x 0.2 = 1.2; they met 6 times (>= 3 x 1.2), and player 1 won
    # all six: 0.573^6 = 0.0355 <= 0.05.
    pairs = repeated_pairings(games([row for event in range(1, 7) for row in swiss_with_a_meeting(event)]))

    assert len(pairs.first) == 1
    assert (pairs.first[0], pairs.second[0], pairs.meetings[0], pairs.halves[0]) == (1, 2, 6, 12)
    assert pairs.expected_meetings[0] == pytest.approx(1.2)
    assert pairs.upper[0] == pytest.approx(WIN**6, rel=1e-3)
    assert pairs.flagged().tolist() == [True]


def test_five_such_meetings_are_not():
    # 0.573^5 = 0.0619: above 0.05.
    pairs = repeated_pairings(games([row for event in range(1, 6) for row in swiss_with_a_meeting(event)]))

    assert pairs.upper[0] == pytest.approx(WIN**5, rel=1e-3)
    assert pairs.flagged().tolist() == [False]


def test_the_winner_is_named_first_whichever_id_is_lower():
    pairs = repeated_pairings(games([row for event in range(1, 7) for row in swiss_with_a_meeting(event, 0)]))

    assert (pairs.first[0], pairs.second[0], pairs.halves[0]) == (2, 1, 12)
    assert pairs.flagged().tolist() == [True]


def test_shared_results_are_not_one_sided():
    # Six draws: 6 half points of 12 for each, likely either way.
    pairs = repeated_pairings(games([row for event in range(1, 7) for row in swiss_with_a_meeting(event, 1)]))

    assert pairs.upper[0] > 0.5
    assert pairs.flagged().tolist() == [False]


def test_a_match_is_expected_to_pair_its_two_players_every_game():
    # A six-game match, all won by one side: s = 2, r = 6, 6 meetings expected, 6 met; 0.573^6 =
    # 0.0355 is not below ONE_SIDED_ALONE (0.002): an ordinary bad match.
    pairs = repeated_pairings(games([(9, 1, 2, 1500, 1500, 2)] * 6))

    assert pairs.expected_meetings[0] == pytest.approx(6.0)
    assert pairs.flagged().tolist() == [False]


def test_a_match_of_twelve_games_all_won_between_equals_is_flagged_however_likely_their_meetings():
    # 0.573^12 = 0.00126 <= ONE_SIDED_ALONE (0.002), though a match makes every meeting likely.
    pairs = repeated_pairings(games([(9, 1, 2, 1500, 1500, 2)] * 12))

    assert pairs.meetings[0] == pairs.expected_meetings[0] == 12
    assert pairs.upper[0] == pytest.approx(WIN**12, rel=1e-3)
    assert pairs.upper[0] <= ONE_SIDED_ALONE
    assert pairs.flagged().tolist() == [True]


def test_pairs_that_met_fewer_than_four_times_are_not_listed():
    pairs = repeated_pairings(games([row for event in range(1, 4) for row in swiss_with_a_meeting(event)]))

    assert len(pairs.first) == 0
