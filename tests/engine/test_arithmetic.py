"""The arithmetic of one rating, as a page prints it (grading/engine/results/ecf_arithmetic.py)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from grading.engine import ECF_2024, RULE_SETS, rate_period
from grading.engine.results.ecf_arithmetic import k_arithmetic, published_p_passes
from tests.engine.federation import random_month

seeds = st.integers(min_value=0, max_value=2**32 - 1)
months = st.builds(random_month, seeds, players=st.integers(2, 60), games=st.integers(1, 400))


def arithmetic_of(result, inputs, position):
    """The explanation of one player, given only what a published rating keeps."""
    p = result.player(position)
    halves = [int(line.score * 2) for line in p.games]
    if p.method == "P":
        return p, published_p_passes(
            p.state.games,
            p.state.opponents_total,
            int(p.state.points * 2),
            halves,
            [line.pass1_opponent_rating for line in p.games],
            [line.opponent_rating for line in p.games],
            p.dummy,
            result.rules,
        )
    return p, k_arithmetic(
        p.prior.rating,
        halves,
        [line.opponent_rating for line in p.games],
        [line.opponent_type for line in p.games],
        p.age,
        inputs.adjustment_a,
        inputs.adjustment_b,
        result.rules,
    )


@settings(max_examples=60, deadline=None)
@given(months)
def test_the_arithmetic_from_what_is_published_gives_every_rating_the_run_gave(inputs):
    result = rate_period(inputs)
    for position in result.rated_positions().tolist():
        p, arithmetic = arithmetic_of(result, inputs, position)
        if p.method == "P":
            first, second = arithmetic
            assert (first.rating, second.rating, second.type) == (p.pass1, p.pass2, p.type)
            assert second.rating == p.rating
            assert first.prior_games == second.prior_games == (p.prior.games if p.category == "partial" else 0)
        else:
            assert arithmetic.rating == p.rating
            assert arithmetic.k == p.k_factor
            assert [g.increment for g in arithmetic.games] == [line.increment for line in p.games]
            assert arithmetic.change == sum(line.increment for line in p.games)


def test_a_new_players_p_rating_step_by_step():
    # A new adult (dummy 1800) beats 1700 and 1900 and loses to 2000.
    # G = 3 + 1 = 4; T = 1700 + 1900 + 2000 + 1800 = 7400; S = 2 + 1/2 = 2.5;
    # p = 2.5 / 4 = 0.625, rounded 0.63 -> dp +95; T / G + dp = 1850 + 95 = 1945.
    first, second = published_p_passes(3, 5600, 4, [2, 2, 0], [1700, 1900, 2000], [1700, 1900, 2000], 1800, ECF_2024)
    assert first == second
    assert (second.games, second.total, second.points) == (4, 7400, Fraction(5, 2))
    assert (second.p, second.percent, second.dp) == (Fraction(5, 8), 63, 95)
    assert (second.average, second.exact, second.rating, second.type) == (1850, 1945, 1945, "partial")
    assert (second.prior_games, second.prior_total, second.prior_points) == (0, 0, 0)
    assert not second.floored


def test_a_partially_rated_players_earlier_games_count_in_both_passes():
    # Earlier: 4 games, opponents 6000, 2 points. This month: one win over a new player who was
    # 1800 (their dummy) in pass 1 and 1650 in pass 2. State after: 5 games, 7650, 3 points.
    # Pass 1: G = 4 + 1 + 1 = 6, T = 6000 + 1800 + 1800 = 9600, S = 2 + 1 + 0.5 = 3.5;
    #   p = 0.5833 -> 0.58 -> dp +57; 9600 / 6 + 57 = 1657.
    # Pass 2: T = 6000 + 1650 + 1800 = 9450; 9450 / 6 + 57 = 1575 + 57 = 1632.
    first, second = published_p_passes(5, 7650, 6, [2], [1800], [1650], 1800, ECF_2024)
    assert (first.prior_games, first.prior_total, first.prior_points) == (4, 6000, 2)
    assert (first.games, first.total, first.points, first.percent, first.dp) == (6, 9600, Fraction(7, 2), 58, 57)
    assert (first.rating, second.total, second.rating) == (1657, 9450, 1632)


def test_a_p_rating_below_the_floor_is_raised_to_it():
    # A six-year-old (dummy 600) loses 9 games to players rated 100: G = 10, T = 900 + 600 = 1500,
    # S = 0.5, p = 0.05 -> dp -470; 150 - 470 = -320, raised to the floor of 100.
    _, second = published_p_passes(9, 900, 0, [0] * 9, [100] * 9, [100] * 9, 600, ECF_2024)
    assert (second.exact, second.rating, second.floored) == (-320, 100, True)


def test_a_k_rating_game_by_game():
    # Prior 1500, an adult: beats 1600 (D +100: offset 2.8, + 10), draws 1550 (D +50: 1.4 + 0),
    # loses to 1450 (D -50: -1.4 - 10). K 20, Q 20: increments 12.8, 1.4, -11.4; change 2.8;
    # 1500 + 2.8 = 1502.8 -> 1503.
    k = k_arithmetic(1500, [2, 1, 0], [1600, 1550, 1450], ["full"] * 3, 40, 0, 0, ECF_2024)
    assert [(g.d, g.d_offset, g.s_offset, g.q) for g in k.games] == [
        (100, Fraction(28, 10), 10, 20),
        (50, Fraction(14, 10), 0, 20),
        (-50, Fraction(-14, 10), -10, 20),
    ]
    assert [g.increment for g in k.games] == [Fraction(128, 10), Fraction(14, 10), Fraction(-114, 10)]
    assert (k.k, k.base_k, k.junior_k, k.capped) == (20, 20, False, False)
    assert (k.change, k.exact, k.rating) == (Fraction(28, 10), Fraction(15028, 10), 1503)


def test_a_junior_whose_rating_rises_has_k_40():
    # The same games at 15: the sum is positive, so K = 40 and each increment doubles:
    # change 5.6; 1505.6 -> 1506.
    k = k_arithmetic(1500, [2, 1, 0], [1600, 1550, 1450], ["full"] * 3, 15, 0, 0, ECF_2024)
    assert (k.k, k.junior_k, k.change, k.rating) == (40, True, Fraction(56, 10), 1506)


def test_forty_games_cap_k_at_700_over_40():
    # 40 wins over players of the same rating: K x N = 800 > 700, so K = 700 / 40 = 17.5;
    # each win (0 + 10) x 17.5 / 20 = 8.75; change 350; 1500 + 350 = 1850.
    k = k_arithmetic(1500, [2] * 40, [1500] * 40, ["full"] * 40, None, 0, 0, ECF_2024)
    assert (k.k, k.base_k, k.capped) == (Fraction(35, 2), 20, True)
    assert (k.games[0].increment, k.change, k.rating) == (Fraction(35, 4), 350, 1850)


def test_a_partial_opponent_halves_the_increment_under_the_2020_rules():
    # ecf-2020: Q = 40 against an opponent whose rating used is Partial: (2.8 + 10) x 20 / 40 = 6.4.
    k = k_arithmetic(1500, [2], [1600], ["partial"], 40, 0, 0, RULE_SETS["ecf-2020"])
    assert (k.games[0].q, k.games[0].increment, k.rating) == (40, Fraction(64, 10), 1506)


def test_the_periods_adjustment_is_added_after_the_games():
    # A = 3, B = 0.01: 3 + 1500 x 0.01 = 18; 1500 + 12.8 + 18 = 1530.8 -> 1531.
    k = k_arithmetic(1500, [2], [1600], ["full"], 40, "3", "0.01", ECF_2024)
    assert (k.adjustment, k.exact, k.rating) == (18, Fraction(15308, 10), 1531)
