"""Improbable results (docs/integrity.md): a score against the score the ratings expected."""

import numpy as np
import pytest

from grading.integrity.detectors.improbable import IMPROBABLE, RatedGames, event_scores


def games(rows):
    """(event, white, black, white's rating, black's rating, white's half points) rows."""
    columns = np.array(rows, dtype=np.int64).T
    return RatedGames(*columns)


# Worked example (docs/integrity.md): a player rated 1500 beats players rated 1900. Read as
# strong as is plausible, 1500 + 1.645 x 45 = 1574, against 1900: D = -326; the curve, flattened
# by each opponent's uncertainty (45), expects 1 / (1 + e^(326 / 176.0)) = 0.1356; draws at level
# 1700 are 0.215 between equals, x exp(-(326 / 300)²) = 0.307: 0.0660; a win 0.1356 - 0.0330 =
# 0.1026 a game.
WIN = 0.1026


def test_three_wins_against_players_400_above_are_unlikely_but_not_flagged():
    # 0.1026^3 = 0.00108, about 1 in 926: above IMPROBABLE (1 in 10,000).
    scores = event_scores(games([(7, 1, opponent, 1500, 1900, 2) for opponent in (2, 3, 4)]))
    mine = scores.player == 1

    assert scores.games[mine][0] == 3
    assert scores.upper[mine][0] == pytest.approx(WIN**3, rel=1e-3)
    assert not scores.flagged()[mine][0]


def test_six_such_wins_are_flagged():
    # 0.1026^6 = 0.00000117, about 1 in 857,000 <= 0.0001.
    scores = event_scores(games([(7, 1, opponent, 1500, 1900, 2) for opponent in range(2, 8)]))

    assert scores.upper[scores.player == 1][0] == pytest.approx(WIN**6, rel=1e-3)
    assert scores.flagged().tolist() == [True] + [False] * 6
    assert WIN**6 <= IMPROBABLE < WIN**3


def test_four_wins_against_players_190_above_happen_about_once_in_220_events():
    # Read at 1574 against 1690: D = -116, E = 0.3409, draws at 1595: 0.189 x exp(-(116 / 300)²) =
    # 0.1625, a win 0.3409 - 0.0813 = 0.2597; four wins 0.2597^4 = 0.00455 (1 in 220). The old
    # model, a win as the square of the expected score, made it 1 in 65,536.
    scores = event_scores(games([(7, 1, opponent, 1500, 1690, 2) for opponent in (2, 3, 4, 5)]))

    assert scores.upper[scores.player == 1][0] == pytest.approx(0.2597**4, rel=1e-3)
    assert not scores.flagged().any()


def test_a_junior_is_read_more_generously():
    # A junior's spread is sqrt(45² + 100²) = 109.7: read at 1500 + 1.645 x 109.7 = 1680, six
    # wins against 1900s are 0.0000169 (1 in 59,000), against 1 in 857,000 for an adult.
    rows = [(7, 1, opponent, 1500, 1900, 2) for opponent in range(2, 8)]
    adult, junior = event_scores(games(rows)), event_scores(games(rows), juniors=np.array([1]))

    assert junior.spread[0] == pytest.approx(109.7, abs=0.1)
    assert junior.upper[0] == pytest.approx(1.688e-5, rel=1e-3)
    assert junior.upper[0] > 10 * adult.upper[0]


def test_a_player_who_beats_expectation_in_every_event_is_read_at_their_form():
    # Player 1 (1500) beats four 1900s in each of three events: alone, each event is 0.1026^4 =
    # 0.000111 (1 in 9,000). With form, the other two events' 8 games were 8 x (1 - 0.0909) =
    # 7.27 points above expectation (1 / (1 + 10^(400 / 400)) = 0.0909 a game): 700 x 7.27 /
    # (8 + 10) = 283, so 1783. Those eight games also tell of them: their spread narrows to
    # 1 / sqrt(1 / 45² + 8 / 96,327) = 41.6, read at 1783 + 1.645 x 41.6 = 1851 against 1900, a
    # win 0.3065, and four wins are 0.0088.
    rows = [(event, 1, 10 * event + k, 1500, 1900, 2) for event in (7, 8, 9) for k in range(4)]
    plain, read = event_scores(games(rows), form=False), event_scores(games(rows))
    mine = plain.player == 1

    assert plain.upper[mine] == pytest.approx([WIN**4] * 3, rel=1e-3)
    assert read.form[mine].tolist() == [283] * 3
    assert read.spread[mine] == pytest.approx([41.63] * 3, abs=0.01)
    assert read.upper[mine] == pytest.approx([0.3065**4] * 3, rel=1e-3)
    assert not read.flagged()[mine].any()


def test_a_single_events_gifts_stand_out_against_ordinary_form():
    # Player 1 drew four games at evens in each of two events (no surplus), then beat six 1900s:
    # read at 1500, their spread narrowed by the eight games to 41.6, at 1568 a win is 0.1003
    # and six wins 0.1003^6 = 0.0000010.
    rows = [(event, 1, 10 * event + k, 1500, 1500, 1) for event in (7, 8) for k in range(4)]
    rows += [(9, 1, 90 + k, 1500, 1900, 2) for k in range(6)]
    scores = event_scores(games(rows))
    mine = (scores.player == 1) & (scores.event == 9)

    assert scores.form[mine].tolist() == [0]
    assert scores.upper[mine] == pytest.approx([0.1003**6], rel=1e-2)
    assert scores.flagged()[mine].all()


def test_the_losers_lower_tail_says_how_unlikely_their_losses_were():
    # Each 1900, read as weak as is plausible (1826), lost one game to 1500: a loss is the
    # winner's 0.1026.
    scores = event_scores(games([(7, 1, opponent, 1500, 1900, 2) for opponent in (2, 3, 4, 5)]))

    assert scores.lower[scores.player != 1] == pytest.approx([WIN] * 4, rel=1e-3)


def test_the_expected_scores_shown_are_those_the_chance_was_read_with():
    # The row's games and the player's expected score in each, at their reading (1500 with no
    # form against 1900 uncertain by 45: 1 / (1 + e^(400 / 176.0)) = 0.0934), add up to the row's
    # expected half points.
    scores = event_scores(games([(7, 1, opponent, 1500, 1900, 2) for opponent in (2, 3, 4)]))
    row = int(np.flatnonzero(scores.player == 1)[0])
    played, expected = scores.games_of(row)

    assert sorted(played.tolist()) == [0, 1, 2]
    assert expected == pytest.approx([0.0934] * 3, abs=1e-4)
    assert 2 * expected.sum() == pytest.approx(scores.expected_halves[row])


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
