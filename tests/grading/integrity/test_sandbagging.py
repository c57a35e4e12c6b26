"""Sandbagging (docs/integrity.md): a drop through losses to much weaker players shortly before
results far above the lowered rating."""

import numpy as np
import pytest

from grading.integrity.detectors.improbable import RatedGames, event_scores
from grading.integrity.detectors.sandbagging import sandbagging


def games(rows):
    return RatedGames(*np.array(rows, dtype=np.int64).reshape(-1, 6).T)


# Event 10: player 1, rated 2000, loses four games to players rated 1700, 300 below (at least
# WEAKER, 150). Read as weak as is plausible, 2000 - 1.645 x 45 = 1926 against 1700: D = +226,
# E = 0.7795 (the curve flattened by the opponents' 45), draws at level 1850 0.26 x exp(-(226 /
# 300)²) = 0.1472, a loss 1 - 0.7795 - 0.0736 = 0.1431; four losses 0.1431^4 = 0.00042, at most
# THROWN (0.01): a drop.
DROP = [(10, 1, opponent, 2000, 1700, 0) for opponent in (2, 3, 4, 5)]


def rebound(event, rating, result=2):
    # Player 1 at ``rating`` beats four players rated 2040: from 1850, read at 1924, a win is
    # 0.2127 a game and four wins 0.00204, at most REBOUND (0.01); the drop's chance times the
    # rebound's, 0.00042 x 0.00204 = 8.6e-7, at most JOINT (0.0001).
    return [(event, 1, opponent, rating, 2040, result) for opponent in (6, 7, 8, 9)]


def flagged(rows, months):
    scores = event_scores(games(rows), form=False)  # a drop's own games are no form to read
    return sandbagging(scores, np.array([months[event] for event in scores.event]))


def test_a_drop_then_wins_far_above_the_lowered_rating_are_flagged():
    found = flagged(DROP + rebound(11, 1850), {10: 5, 11: 6})

    assert found.player.tolist() == [1]
    assert (found.drop_event[0], found.rebound_event[0]) == (10, 11)
    assert (found.drop_rating[0], found.rebound_rating[0]) == (2000, 1850)


def test_a_drop_of_80_points_is_enough_when_the_losses_were_that_improbable():
    # At 1920 the four wins are 0.2827^4 = 0.0064; with the drop's 0.00042, 2.7e-6: flagged,
    # though the rating fell only 80 points (at least FELL, 40).
    found = flagged(DROP + rebound(11, 1920), {10: 5, 11: 6})

    assert found.player.tolist() == [1]


def test_an_ordinary_event_after_a_bad_one_is_not():
    # The four games against 2040s drawn: 4 half points of 8 at 1850, likely enough.
    assert len(flagged(DROP + rebound(11, 1850, result=1), {10: 5, 11: 6}).player) == 0


def test_wins_at_a_rating_not_lowered_are_not():
    # 1970 is only 30 under the drop's 2000 (at least 40 asked).
    assert len(flagged(DROP + rebound(11, 1970), {10: 5, 11: 6}).player) == 0


def test_wins_more_than_three_months_later_are_not():
    assert len(flagged(DROP + rebound(11, 1850), {10: 5, 11: 9}).player) == 0


def test_losses_to_players_of_ones_own_strength_are_no_drop():
    # Four losses to 1900s (100 below): unlucky, not thrown to much weaker players.
    rows = [(10, 1, opponent, 2000, 1900, 0) for opponent in (2, 3, 4, 5)] + rebound(11, 1850)
    assert len(flagged(rows, {10: 5, 11: 6}).player) == 0


def test_a_drop_and_a_rebound_each_modest_are_flagged_when_together_beyond_belief():
    # Three losses to 1700s, 0.1431^3 = 0.00293 (a drop); at 1920, three wins against 2040s,
    # 0.2827^3 = 0.0226 (a rebound); together 0.000066, at most JOINT (0.0001): flagged. Two
    # wins (0.2827^2 = 0.0799) with the same drop are 0.000234 together: not.
    drop = DROP[:3]
    three, two = rebound(11, 1920)[:3], rebound(11, 1920)[:2]
    scores = event_scores(games(drop + three), form=False)

    assert scores.lower[scores.event == 10][0] * scores.upper[scores.event == 11][0] == pytest.approx(
        0.1431**3 * 0.2827**3, rel=1e-2
    )
    assert flagged(drop + three, {10: 5, 11: 6}).player.tolist() == [1]
    assert len(flagged(drop + two, {10: 5, 11: 6}).player) == 0
