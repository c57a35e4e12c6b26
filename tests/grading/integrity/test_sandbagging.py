"""Sandbagging (docs/integrity.md): a drop through losses to much weaker players shortly before
results far above the lowered rating."""

import numpy as np

from grading.integrity.signals.improbable import RatedGames, event_scores
from grading.integrity.signals.sandbagging import sandbagging


def games(rows):
    return RatedGames(*np.array(rows, dtype=np.int64).reshape(-1, 6).T)


# Event 10: player 1, rated 2000, loses four games to players rated 1700 (D = +300, PD = 170/200 =
# 0.85 a game): P(no half point of eight) = (0.15²)^4 = 0.0225^4 = 0.00000026 <= 0.001, against
# opponents 300 below (at least 200): a drop.
DROP = [(10, 1, opponent, 2000, 1700, 0) for opponent in (2, 3, 4, 5)]


def rebound(event, rating, result=2):
    # Player 1 at ``rating`` against four players rated 2040: from 1850, D = -190, PD = 0.25; four
    # wins are 0.25^8 = 0.000015 <= 0.01.
    return [(event, 1, opponent, rating, 2040, result) for opponent in (6, 7, 8, 9)]


def flagged(rows, months):
    scores = event_scores(games(rows), form=False)  # a drop's own games are no form to read
    return sandbagging(scores, np.array([months[event] for event in scores.event]))


def test_a_drop_then_wins_far_above_the_lowered_rating_are_flagged():
    found = flagged(DROP + rebound(11, 1850), {10: 5, 11: 6})

    assert found.player.tolist() == [1]
    assert (found.drop_event[0], found.rebound_event[0]) == (10, 11)
    assert (found.drop_rating[0], found.rebound_rating[0]) == (2000, 1850)


def test_an_ordinary_event_after_a_bad_one_is_not():
    # The four games against 2040s drawn: 4 half points of 8 at 0.25 a game, likely enough.
    assert len(flagged(DROP + rebound(11, 1850, result=1), {10: 5, 11: 6}).player) == 0


def test_wins_at_a_rating_not_lowered_are_not():
    # 1950 is only 50 under the drop's 2000 (at least 100 asked).
    assert len(flagged(DROP + rebound(11, 1950), {10: 5, 11: 6}).player) == 0


def test_wins_more_than_three_months_later_are_not():
    assert len(flagged(DROP + rebound(11, 1850), {10: 5, 11: 9}).player) == 0


def test_losses_to_players_of_ones_own_strength_are_no_drop():
    # Four losses to 1900s (100 below): unlucky, not thrown to much weaker players.
    rows = [(10, 1, opponent, 2000, 1900, 0) for opponent in (2, 3, 4, 5)] + rebound(11, 1850)
    assert len(flagged(rows, {10: 5, 11: 6}).player) == 0
