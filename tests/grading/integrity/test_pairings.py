"""Repeated pairings (docs/integrity.md): two players meeting far more often than their events
make likely with one-sided results, or meeting again and again (a match, a club) with results
one-sided beyond belief."""

import numpy as np
import pytest

from grading.integrity.detectors import model
from grading.integrity.detectors.improbable import RatedGames
from grading.integrity.detectors.pairings import ONE_SIDED, ONE_SIDED_ALONE, ONE_SIDED_MATCH, repeated_pairings


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


# Two established players rated 1500, uncertain by 45 each: in a match they have no other games,
# so their difference is uncertain by sqrt(45² + 45²) = 63.6, read as generously as is plausible
# to the one who scored more, 1.645 x 63.6 = 105 points apart: E = 1 / (1 + 10^(-105 / 400)) =
# 0.6466; draws at 1500, 0.165 between equals, x exp(-(105 / 300)²) = 0.885: 0.146; a win
# 0.6466 - 0.073 = 0.573.
WIN = 0.5732


def swiss_chances(events):
    """Player 1's chance of a win against player 2 in ``events`` Swisses: player 1's seven other
    games an event narrow their uncertainty (1 / (1 / 45² + games / 96,327), model.narrowed);
    player 2 played only player 1."""
    first = np.sqrt(model.narrowed(45**2, 7 * events))
    win, _ = model.outcomes(model.GENEROUS * np.hypot(first, 45), 1500)
    return win


def test_eleven_one_sided_meetings_in_eleven_large_swisses_are_flagged():
    # Expected meetings: 11 events x 0.2 = 2.2; they met 11 times (>= 3 x 2.2), and player 1 won
    # all eleven: player 1's 77 other games narrow them to 27.8, the pair to 52.9, read 87.0
    # apart: a win 0.5468, and 0.5468^11 = 0.00131, at most ONE_SIDED (0.002).
    pairs = repeated_pairings(games([row for event in range(1, 12) for row in swiss_with_a_meeting(event)]))

    assert len(pairs.first) == 1
    assert (pairs.first[0], pairs.second[0], pairs.meetings[0], pairs.halves[0]) == (1, 2, 11, 22)
    assert pairs.expected_meetings[0] == pytest.approx(2.2)
    assert pairs.upper[0] == pytest.approx(swiss_chances(11) ** 11, rel=1e-6)
    assert pairs.upper[0] <= ONE_SIDED
    assert pairs.flagged().tolist() == [True]


def test_eight_such_meetings_are_not():
    pairs = repeated_pairings(games([row for event in range(1, 9) for row in swiss_with_a_meeting(event)]))

    assert pairs.upper[0] == pytest.approx(swiss_chances(8) ** 8, rel=1e-6)
    assert pairs.upper[0] > ONE_SIDED
    assert pairs.flagged().tolist() == [False]


def test_the_winner_is_named_first_whichever_id_is_lower():
    pairs = repeated_pairings(games([row for event in range(1, 12) for row in swiss_with_a_meeting(event, 0)]))

    assert (pairs.first[0], pairs.second[0], pairs.halves[0]) == (2, 1, 22)
    assert pairs.flagged().tolist() == [True]


def test_shared_results_are_not_one_sided():
    # Eleven draws: 11 half points of 22 for each, likely either way.
    pairs = repeated_pairings(games([row for event in range(1, 12) for row in swiss_with_a_meeting(event, 1)]))

    assert pairs.upper[0] > 0.5
    assert pairs.flagged().tolist() == [False]


def test_a_match_is_expected_to_pair_its_two_players_every_game():
    # A six-game match, all won by one side: s = 2, r = 6, 6 meetings expected, 6 met, all of them
    # in a match; 0.573^6 = 0.0355 is above ONE_SIDED_MATCH (0.01): an ordinary bad match.
    pairs = repeated_pairings(games([(9, 1, 2, 1500, 1500, 2)] * 6))

    assert pairs.expected_meetings[0] == pytest.approx(6.0)
    assert pairs.match_meetings[0] == 6
    assert pairs.upper[0] == pytest.approx(WIN**6, rel=1e-3)
    assert pairs.flagged().tolist() == [False]


def test_a_match_of_twelve_games_all_won_between_equals_is_flagged_however_likely_their_meetings():
    # 0.573^12 = 0.00126: at most ONE_SIDED_MATCH (0.01), a match's threshold (a federation plays
    # few matches), though above ONE_SIDED_ALONE (0.001), the threshold of any pair.
    pairs = repeated_pairings(games([(9, 1, 2, 1500, 1500, 2)] * 12))

    assert pairs.meetings[0] == pairs.expected_meetings[0] == pairs.match_meetings[0] == 12
    assert pairs.upper[0] == pytest.approx(WIN**12, rel=1e-3)
    assert ONE_SIDED_ALONE < pairs.upper[0] <= ONE_SIDED_MATCH
    assert pairs.flagged().tolist() == [True]


def test_eleven_wins_are_flagged_in_a_match_and_not_at_club_nights():
    # 0.573^11 = 0.0022. In a match: at most ONE_SIDED_MATCH (0.01), flagged. At eleven club
    # nights of sixteen, one game each: they met more than their events make likely (11 x 1 / 15
    # = 0.73), but 0.0022 is above ONE_SIDED (0.002): one of a club's many pairs, not flagged.
    match = repeated_pairings(games([(9, 1, 2, 1500, 1500, 2)] * 11))
    rows = [(20 + night, 1, 2, 1500, 1500, 2) for night in range(11)]
    rows += [
        (20 + night, 100 * night + 3 + k, 100 * night + 4 + k, 1500, 1500, 1)
        for night in range(11)
        for k in range(0, 14, 2)
    ]
    nights = repeated_pairings(games(rows))

    assert match.upper[0] == nights.upper[0] == pytest.approx(WIN**11, rel=1e-3)
    assert (match.match_meetings[0], nights.match_meetings[0]) == (11, 0)
    assert nights.expected_meetings[0] == pytest.approx(11 / 15)
    assert (match.flagged().tolist(), nights.flagged().tolist()) == ([True], [False])


def test_pairs_that_met_fewer_than_four_times_are_not_listed():
    pairs = repeated_pairings(games([row for event in range(1, 4) for row in swiss_with_a_meeting(event)]))

    assert len(pairs.first) == 0


def test_a_run_of_wins_is_read_at_the_ratings_of_the_first_meeting():
    # Two meetings a month for eight months, all won by player 1, whose rating rises 20 a month
    # as player 2's falls 20. Read at each meeting's ratings, the last ones (280 apart) look
    # likely and the run has a chance of 0.0081. Read at the first meeting's (1500 each), the
    # difference uncertain by sqrt(63.6² + (sqrt(7² + 7²) x months since)²), the run has
    # 0.000286: flagged.
    rows = [(10 + month, 1, 2, 1500 + 20 * month, 1500 - 20 * month, 2) for month in range(8) for _ in range(2)]
    months = np.repeat(np.arange(8), 2)
    chance = 1.0
    for month in range(8):
        win, _ = model.outcomes(model.GENEROUS * np.hypot(np.hypot(45, 45), np.hypot(7, 7) * month), 1500)
        chance *= win**2
    pairs = repeated_pairings(games(rows), month=months)

    assert pairs.upper[0] == pytest.approx(chance, rel=1e-6)
    assert pairs.upper[0] == pytest.approx(0.000286, rel=1e-2)
    assert pairs.flagged().tolist() == [True]


def test_a_run_against_a_player_who_rose_to_meet_them_is_read_at_the_ratings_of_each_meeting():
    # Player 2 (1200) lost to player 1 (1500) in month 0, rose to 1500 by month 3, and then lost
    # twelve times in a row to player 1 at 1500 each, two a month. Read at the first meeting's
    # 300-point difference every loss is likely (a win about 0.90, the run 0.32); but the
    # difference did not move in player 1's favour since, it closed: each meeting is read at its
    # own (the smaller), 0 points, the spread widening sqrt(7² + 7²) = 9.9 a month from month 0
    # (a win 0.589 in month 3 to 0.63 in month 8): the run 0.0031, at most ONE_SIDED_MATCH, each
    # meeting an event of the two of them.
    rows = [(10, 1, 2, 1500, 1200, 2)]
    rows += [(10 + month, 1, 2, 1500, 1500, 2) for month in range(3, 9) for _ in range(2)]
    months = np.array([0] + [month for month in range(3, 9) for _ in range(2)])
    spread = np.hypot(np.hypot(45, 45), np.hypot(7, 7) * months)
    win, _ = model.outcomes(np.where(months == 0, 300, 0) + model.GENEROUS * spread, (1500 + rows[0][4]) / 2)
    win[1:], _ = model.outcomes(model.GENEROUS * spread[1:], 1500)
    at_first, _ = model.outcomes(300 + model.GENEROUS * spread, 1350)
    pairs = repeated_pairings(games(rows), month=months)

    assert pairs.upper[0] == pytest.approx(np.prod(win), rel=1e-6)
    assert pairs.upper[0] == pytest.approx(0.0031, rel=1e-2)
    assert pairs.match_meetings[0] == pairs.meetings[0] == 13
    assert pairs.upper[0] <= ONE_SIDED_MATCH < np.prod(at_first)
    assert pairs.flagged().tolist() == [True]
