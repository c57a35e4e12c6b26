"""The Elo calculation pages' arithmetic (grading/engine/results/elo_arithmetic.py) from what a rating
keeps: the same numbers as the run, for every player of random federations."""

from fractions import Fraction

import pytest

from grading.engine import RULE_SETS, Month, PendingMonth, rate_period
from grading.engine.results.elo_arithmetic import elo_arithmetic, first_rating_progress
from tests.engine.federation import random_elo_month

FIDE = RULE_SETS["fide-2017"]


def test_file_003s_2635_player_is_explained_step_by_step():
    # Ten wins against 2200s (diff 435 counted as 400, PD 0.92) and a draw with a 2665 (diff -30,
    # PD 0.46); K 10 by the top rule: 10 x (10.5 - 9.66) = 8.4, 2635 + 8 = 2643.
    done = elo_arithmetic(2635, [2] * 10 + [1], [2200] * 10 + [2665], "top", FIDE)

    assert (done.k_rule, done.k_uncapped, done.capped, done.k, done.counted) == ("top", 10, False, 10, 11)
    assert done.games[0].difference == 435 and done.games[0].difference_used == 400 and done.games[0].limited
    assert done.games[0].expected == Fraction("0.92") and done.games[0].increment == Fraction("0.8")
    assert done.games[-1].expected == Fraction("0.46") and not done.games[-1].limited
    assert (done.expected, done.score, done.change, done.rounded, done.rating) == (
        Fraction("9.66"),
        Fraction("10.5"),
        Fraction("8.4"),
        8,
        2643,
    )


def test_the_cap_and_uncounted_games_are_shown_where_they_bit():
    # 41 counted games at K 40 (new player): 40 x 41 = 1640 > 700, K = 700 // 41 = 17. A game
    # against an unrated opponent is not counted. 41 draws with equals: no change.
    done = elo_arithmetic(1500, [1] * 42, [1500] * 41 + [None], "new-player", FIDE)

    assert (done.k_uncapped, done.capped, done.k, done.counted) == (40, True, 17, 41)
    assert done.games[-1] is None and done.change == 0 and done.rating == 1500


def test_a_fall_below_the_floor_is_raised_to_it():
    # 1010 loses to a 1010: PD 0.5, 20 x (0 - 0.5) = -10 -> 1000; a second loss: -20 -> 990 -> floor 1000.
    done = elo_arithmetic(1010, [0, 0], [1010, 1010], "base", FIDE)
    assert (done.rounded, done.rating, done.floored) == (-20, 1000, True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_arithmetic_gives_every_rated_players_rating_as_the_run_did(seed):
    result = rate_period(random_elo_month(seed))
    checked = 0
    for position in range(len(result.player_ids)):
        if not result.players.rated[position] or result.players.k[position] == 0:
            continue
        player = result.player(position)
        lines = player.games
        done = elo_arithmetic(
            player.prior.rating,
            [int(line.score * 2) for line in lines],
            [line.opponent_rating if line.counted else None for line in lines],
            player.k_rule,
            result.rules,
        )
        assert (done.k, done.k_uncapped, done.rating) == (player.k, player.k_uncapped, player.rating)
        assert (done.expected, done.change) == (player.expected, player.change)
        assert [(g.expected, g.increment) if g else None for g in done.games] == [
            (line.expected, line.increment) if line.counted else None for line in lines
        ]
        checked += 1
    assert checked > 50


def test_progress_counts_the_months_inside_the_window_and_says_until_when_the_oldest_counts():
    # In 2026-11 months from 2024-10 on count (26 months, 2026-11 included): 2024-09 is dropped.
    # 2024-10 counts until 2024-10 + 25 months = 2026-11. G 4, T 4 x 1800, S 1.5: not yet 5 games.
    months = [
        PendingMonth(Month.parse("2024-09"), 3, 5400, Fraction(3)),
        PendingMonth(Month.parse("2024-10"), 1, 1800, Fraction(1)),
        PendingMonth(Month.parse("2026-10"), 3, 5400, Fraction(1, 2)),
    ]

    progress = first_rating_progress(months, Month.parse("2026-11"), FIDE)

    assert [str(month.month) for month in progress.months] == ["2024-10", "2026-10"]
    assert (progress.games, progress.opponents_total, progress.points) == (4, 7200, Fraction(3, 2))
    assert (progress.games_needed, str(progress.counts_until)) == (5, "2026-11")
    assert progress.first.rating is None and not progress.first.reached and progress.first.games_short == 1


def test_progress_with_enough_games_shows_the_rating_they_would_give():
    # 5 games against 1100 in all, 1 point: Ra 1100, p = 0.2 -> dp -240: 860, below the floor 1000.
    months = [PendingMonth(Month.parse("2026-10"), 5, 5500, Fraction(1))]

    progress = first_rating_progress(months, Month.parse("2026-11"), FIDE)

    assert (progress.first.branch, progress.first.bonus, progress.first.rating) == ("below", -240, 860)
    assert (progress.first.p, progress.first.exact, progress.first.games_short) == (Fraction(1, 5), 860, 0)
    assert not progress.first.reached
