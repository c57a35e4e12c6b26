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


FIDE_2025 = RULE_SETS["fide-2025"]


def test_a_2700_under_fide_2025_counts_each_difference_whole_and_reads_pd_past_400():
    # Section 17.2: Ro 2700 >= 2650, no 400-point rule. Beats a 2200: diff 500, whole, PD 0.96
    # (485-517), 10 x 0.04 = +0.4; draws a 2650: diff 50, PD 0.57, -0.7; loses to a 2500: diff
    # 200, PD 0.76, -7.6. 10 x (1.5 - 2.29) = -7.9 -> -8: 2692.
    done = elo_arithmetic(2700, [2, 1, 0], [2200, 2650, 2500], "top", FIDE_2025)

    win = done.games[0]
    assert (win.difference, win.difference_used, win.expected, win.increment) == (
        500,
        500,
        Fraction("0.96"),
        Fraction("0.4"),
    )
    assert done.exempt and win.exempt and win.past_largest and not win.limited
    assert [g.past_largest for g in done.games] == [True, False, False]  # 50 and 200: within 400 anyway
    assert (done.expected, done.change, done.rounded, done.rating) == (Fraction("2.29"), Fraction("-7.9"), -8, 2692)


def test_the_2200_side_of_the_same_game_keeps_the_400_point_rule():
    # 2200 - 2700 = -500, counted as -400 (2200 < 2650): PD 0.08, 20 x -0.08 = -1.6 -> -2: 2198.
    done = elo_arithmetic(2200, [0], [2700], "base", FIDE_2025)

    game = done.games[0]
    assert (game.difference, game.difference_used, game.expected) == (-500, -400, Fraction("0.08"))
    assert game.limited and not game.exempt and not game.past_largest and not done.exempt
    assert (done.rounded, done.rating) == (-2, 2198)


def test_a_2649_under_fide_2025_is_not_exempt():
    # 2649 beats a 2149: 500 counted as 400, PD 0.92, 10 x 0.08 = 0.8 -> +1: 2650.
    done = elo_arithmetic(2649, [2], [2149], "top", FIDE_2025)

    assert not done.exempt and done.games[0].limited and done.games[0].difference_used == 400
    assert done.rating == 2650


@pytest.mark.parametrize(
    ("rules", "rounded", "half_away", "differ", "rating"),
    [("fide-2025", -3, True, True, 2397), ("fide-2017", -2, False, False, 2398)],
)
def test_a_change_of_minus_2_5_is_minus_3_halves_away_from_zero_and_minus_2_half_up(
    rules, rounded, half_away, differ, rating
):
    # A 2400 (K 10) loses to a 2593: diff -193, PD 0.25, 10 x (0 - 0.25) = -2.5. Half up: -2;
    # FIDE's 2024 rules, half away from zero: -3.
    done = elo_arithmetic(2400, [0], [2593], "top", RULE_SETS[rules])

    assert done.change == Fraction("-2.5") and done.half_up == -2
    assert (done.rounded, done.half_away, done.halves_differ, done.rating) == (rounded, half_away, differ, rating)


def test_a_change_of_plus_2_5_is_plus_3_both_ways():
    # The 2593 side: diff 193, PD 0.75, K 10 x 0.25 = +2.5: half up and away from zero agree.
    done = elo_arithmetic(2593, [2], [2400], "top", FIDE_2025)

    assert (done.change, done.rounded, done.half_up, done.halves_differ) == (Fraction("2.5"), 3, 3, False)


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
