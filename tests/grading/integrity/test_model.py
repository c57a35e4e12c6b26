"""The watch's model of a game (docs/integrity.md): expected scores from a logistic curve, draws by
level and gap, and a score's tails built game by game."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.integrity.detectors import model
from grading.integrity.detectors.tails import half_point_distribution, score_tails


def test_equals_at_2200_draw_two_games_in_five_and_share_the_rest():
    # The draw rate between equals at 2200 is 0.40; the expected score 0.5: a win 0.5 - 0.40 / 2.
    win, draw = model.outcomes(0, 2200)

    assert (win, draw) == pytest.approx((0.30, 0.40))


def test_draws_halve_at_a_250_point_gap_and_all_but_vanish_at_800():
    # exp(-(250 / 300)²) = exp(-0.694) = 0.4994; exp(-(800 / 300)²) = exp(-7.1) = 0.0008.
    assert model.draw_chance(2200, 250) == pytest.approx(0.40 * 0.4994, abs=1e-4)
    assert model.draw_chance(2200, 800) < 0.001


def test_fewer_draws_between_club_players():
    # Between 1400 (0.14) and 1800 (0.24): at 1600, 0.19.
    assert model.draw_chance(1600, 0) == pytest.approx(0.19)


def test_a_player_190_below_scores_a_quarter():
    # 1 / (1 + 10^(190 / 400)) = 1 / (1 + 2.985) = 0.2509.
    assert model.expected(-190) == pytest.approx(0.2509, abs=1e-4)


def test_uncertainty_flattens_the_curve():
    # An opponent uncertain by 45 points: scale 173.7 x sqrt(1 + pi x 45² / (8 x 173.7²)) = 176.0,
    # and a 326-point underdog expects 1 / (1 + e^(326 / 176.0)) = 0.1356, against 0.1327 without.
    assert model.expected(-326, 45) == pytest.approx(0.1356, abs=1e-4)
    assert model.expected(-326) == pytest.approx(0.1327, abs=1e-4)


def test_a_game_has_three_outcomes():
    assert half_point_distribution(np.array([[0.3]]), np.array([[0.4]]))[0].tolist() == pytest.approx([0.3, 0.4, 0.3])


def test_the_tails_of_two_draws_between_equals_at_2200():
    # Two games, each lost 0.3, drawn 0.4, won 0.3: P(0) = 0.09, P(1) = 2 x 0.3 x 0.4 = 0.24,
    # P(2) = 0.4² + 2 x 0.3 x 0.3 = 0.34: at least two half points of four, 1 - 0.09 - 0.24 = 0.67.
    upper, lower = score_tails(np.array([0, 0]), np.array([0.3, 0.3]), np.array([0.4, 0.4]), np.array([1, 1]))

    assert (upper[0], lower[0]) == pytest.approx((0.67, 0.67))


def test_a_rising_rating_widens_only_upwards_and_only_up_to_the_games_read():
    # Player 1 rated 1500 in month 0 and 1620 in month 4: 30 a month, LAG_MONTHS (6) of it = 180
    # points read stronger, sqrt(45² + 180²) = 185.5; read weaker, 45 alone.
    uncertainty = model.Uncertainty(np.array([1, 1, 2]), np.array([1500, 1620, 1500]), np.array([0, 4, 4]))

    up = uncertainty.spread(np.array([1]), np.array([1620]), np.array([4]), 1)
    down = uncertainty.spread(np.array([1]), np.array([1620]), np.array([4]), -1)
    assert (up[0], down[0]) == pytest.approx((np.hypot(45, 180), 45))
    assert uncertainty.spread(np.array([1]), np.array([1500]), np.array([0]), 1)[0] == pytest.approx(45)


def test_a_new_rating_and_a_junior_are_less_certain():
    # Player 1 played unrated in the games given: sqrt(45² + 150²) = 156.6; player 2 a junior:
    # sqrt(45² + 100²) = 109.7.
    uncertainty = model.Uncertainty(np.array([1, 1, 2]), np.array([0, 1400, 1500]), juniors=np.array([2]))

    assert uncertainty.spread(np.array([1, 2])).tolist() == pytest.approx([np.hypot(45, 150), np.hypot(45, 100)])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=5), st.data())
def test_the_tails_are_those_of_every_outcome_counted_one_by_one(chances, data):
    # Brute force: each game's three outcomes with their probabilities, every combination.
    win = np.array([w * (1 - d) for w, d in chances])
    draw = np.array([d for _, d in chances])
    halves = data.draw(st.integers(min_value=0, max_value=2 * len(chances)))
    exact = {0: 1.0}
    for w, d in zip(win, draw):
        step = {}
        for total, chance in exact.items():
            for h, outcome in ((0, 1 - w - d), (1, d), (2, w)):
                step[total + h] = step.get(total + h, 0.0) + chance * outcome
        exact = step
    observed = [halves // len(chances)] * len(chances)
    observed[0] += halves - sum(observed)
    upper, lower = score_tails(np.zeros(len(chances), dtype=np.int64), win, draw, np.array(observed))

    assert upper[0] == pytest.approx(sum(c for t, c in exact.items() if t >= halves), abs=1e-12)
    assert lower[0] == pytest.approx(sum(c for t, c in exact.items() if t <= halves), abs=1e-12)
