"""docs/rules.md section 6: the K rating of Fully Rated players."""

from fractions import Fraction

from tests.engine.helpers import full, game, player, rate, rating_of


def test_an_adult_1500_beating_a_1900_gains_18():
    # D = 1900 - 1500 = 400 -> D offset 8.4 (392+); S offset +10
    # increment = (8.4 + 10) * 20 / 20 = 18.4; 1500 + 18.4 = 1518.4 -> 1518
    result = rate([player("a", standard=full(1500)), player("b", standard=full(1900))], [game("a", "b", "1-0")])
    a = result.player_by_id("a")
    assert (a.category, a.method, a.k_factor) == ("full", "K", 20)
    assert a.games[0].increment == Fraction("18.4")
    assert a.rating == 1518 and a.type == "full"


def test_the_1900_losing_to_a_1500_loses_18_point_4_and_rounds_half_up_to_1882():
    # D = 1500 - 1900 = -400 -> -8.4; S offset -10; (-8.4 - 10) * 20 / 20 = -18.4
    # 1900 - 18.4 = 1881.6 -> 1882
    result = rate([player("a", standard=full(1500)), player("b", standard=full(1900))], [game("a", "b", "1-0")])
    assert result.player_by_id("b").games[0].increment == Fraction("-18.4")
    assert rating_of(result, "b") == 1882


def test_a_junior_beating_an_equal_rated_player_gains_20():
    # D = 0 -> 0.0; S offset +10; sum (0 + 10) / 20 > 0 so K = 40: (0 + 10) * 40 / 20 = 20
    result = rate(
        [player("j", born="2012-03-01", standard=full(1500)), player("a", standard=full(1500))], [game("j", "a", "1-0")]
    )
    assert result.player_by_id("j").k_factor == 40
    assert rating_of(result, "j") == 1520
    # the adult opponent: (0 - 10) * 20 / 20 = -10 -> 1490
    assert rating_of(result, "a") == 1490


def test_a_junior_whose_games_do_not_raise_the_rating_keeps_k_20():
    # loss to an equal: sum (0 - 10) / 20 < 0 -> K = 20: -10 -> 1490
    result = rate(
        [player("j", born="2012-03-01", standard=full(1500)), player("a", standard=full(1500))], [game("a", "j", "1-0")]
    )
    assert result.player_by_id("j").k_factor == 20
    assert rating_of(result, "j") == 1490


def test_a_junior_whose_games_sum_to_zero_keeps_k_20():
    # a draw with an equal: sum (0 + 0) / 20 = 0, not > 0 -> K = 20; the rating stays 1500
    result = rate(
        [player("j", born="2012-03-01", standard=full(1500)), player("a", standard=full(1500))],
        [game("j", "a", "1/2-1/2")],
    )
    assert (result.player_by_id("j").k_factor, rating_of(result, "j")) == (20, 1500)


def test_the_junior_k_test_adds_up_all_the_games_of_the_month():
    # vs 1500: win (0 + 10), loss (0 - 10); vs 1600: draw, D = 100 -> 2.8, (2.8 + 0)
    # sum of (D_offset + S_offset) / Q = 2.8 / 20 > 0 -> K = 40
    # change = (10 - 10 + 2.8) * 40 / 20 = 5.6; 1505.6 -> 1506
    result = rate(
        [
            player("j", born="2012-03-01", standard=full(1500)),
            player("a", standard=full(1500)),
            player("b", standard=full(1600)),
        ],
        [game("j", "a", "1-0"), game("a", "j", "1-0", day=5), game("j", "b", "1/2-1/2")],
    )
    assert result.player_by_id("j").k_factor == 40
    assert rating_of(result, "j") == 1506


def test_the_junior_k_test_ignores_the_adjustment():
    # loss to an equal: games' sum -10 / 20 < 0 -> K = 20 even though A = +15 raises the rating:
    # 1500 - 10 + 15 = 1505 (K = 40 would give 1500 - 20 + 15 = 1495)
    result = rate(
        [player("j", born="2012-03-01", standard=full(1500)), player("a", standard=full(1500))],
        [game("a", "j", "1-0")],
        a="15",
    )
    assert result.player_by_id("j").k_factor == 20
    assert rating_of(result, "j") == 1505
    # and a win keeps K = 40 though A = -30 lowers the rating: 1500 + 20 - 30 = 1490
    result = rate(
        [player("j", born="2012-03-01", standard=full(1500)), player("a", standard=full(1500))],
        [game("j", "a", "1-0")],
        a="-30",
    )
    assert result.player_by_id("j").k_factor == 40
    assert rating_of(result, "j") == 1490


def test_a_36_game_month_caps_k_at_700_over_36():
    # 20 * 36 = 720 > 700 -> K = 700 / 36 (not rounded)
    # 2 wins and 34 draws against an equal 1500: sum = 2 * 10 = 20
    # change = 20 * (700 / 36) / 20 = 19.444...; 1519.44 -> 1519 (K = 20 would give 1520)
    games = [game("a", "b", "1-0", day=1), game("a", "b", "1-0", day=2)]
    games += [game("a", "b", "1/2-1/2", day=3 + i % 20) for i in range(34)]
    result = rate([player("a", standard=full(1500)), player("b", standard=full(1500))], games)
    a = result.player_by_id("a")
    assert a.k_factor == Fraction(700, 36)
    assert a.games[0].increment == Fraction(10 * 700, 36 * 20)  # 9.722222...
    assert a.rating == 1519
    # b: 2 losses: -19.444... -> 1480.56 -> 1481
    assert rating_of(result, "b") == 1481


def test_a_35_game_month_keeps_k_20():
    # 20 * 35 = 700 is not > 700 -> K = 20; 2 wins = +20 -> 1520
    games = [game("a", "b", "1-0", day=1), game("a", "b", "1-0", day=2)]
    games += [game("a", "b", "1/2-1/2", day=3 + i % 20) for i in range(33)]
    result = rate([player("a", standard=full(1500)), player("b", standard=full(1500))], games)
    assert result.player_by_id("a").k_factor == 20
    assert rating_of(result, "a") == 1520


def test_a_junior_with_18_games_gets_700_over_18():
    # junior, 18 wins against an equal: sum > 0 -> K = 40; 40 * 18 = 720 > 700 -> K = 700 / 18
    # change = 18 * 10 * (700 / 18) / 20 = 350 -> 1850
    games = [game("j", "a", "1-0", day=1 + i) for i in range(18)]
    result = rate([player("j", born="2012-03-01", standard=full(1500)), player("a", standard=full(1500))], games)
    assert result.player_by_id("j").k_factor == Fraction(700, 18)
    assert rating_of(result, "j") == 1850


def test_a_k_rating_never_falls_below_100():
    # 105 loses to an equal 105: 105 - 10 = 95 -> floor 100
    result = rate([player("a", standard=full(105)), player("b", standard=full(105))], [game("b", "a")])
    assert rating_of(result, "a") == 100


def test_the_adjustment_a_is_added_exactly_as_written_in_decimal():
    # 2040 beats 1975: D = -65 -> -1.8; + 10 = 8.2; with A = -0.7:
    # 2040 + 8.2 - 0.7 = 2047.5 -> half up 2048 (in binary floats the sum is 2047.4999... -> 2047)
    result = rate([player("a", standard=full(2040)), player("b", standard=full(1975))], [game("a", "b")], a="-0.7")
    assert rating_of(result, "a") == 2048


def test_the_adjustment_b_is_a_proportion_of_the_old_rating():
    # a draw between equals: change 0; A = 5, B = 0.01: 1500 + 0 + 5 + 1500 * 0.01 = 1520
    result = rate(
        [player("a", standard=full(1500)), player("b", standard=full(1500))],
        [game("a", "b", "1/2-1/2")],
        a="5",
        b="0.01",
    )
    assert rating_of(result, "a") == 1520
    # B = 0.0003: 1500 * 0.0003 = 0.45 -> 1500.45 -> 1500
    result = rate(
        [player("a", standard=full(1500)), player("b", standard=full(1500))], [game("a", "b", "1/2-1/2")], b="0.0003"
    )
    assert rating_of(result, "a") == 1500


def test_the_adjustment_does_not_touch_p_ratings():
    # new adult draws with a 1500: (1500 + 1800) / 2 + dp(0.50) = 1650, whatever A and B
    result = rate([player("n"), player("a", standard=full(1500))], [game("n", "a", "1/2-1/2")], a="100", b="0.5")
    assert rating_of(result, "n") == 1650


def test_the_new_state_of_a_k_rated_player_keeps_lifetime_sums():
    # prior 50 games, 80000 opponents total, 25 points; beats a 1900 and draws a 1500:
    # games 52, opponents_total 80000 + 1900 + 1500 = 83400, points 26.5
    result = rate(
        [
            player("a", standard=full(1600, games=50, opponents_total=80000, points="25")),
            player("b", standard=full(1900)),
            player("c", standard=full(1500)),
        ],
        [game("a", "b"), game("c", "a", "1/2-1/2")],
    )
    state = result.player_by_id("a").state
    assert (state.games, state.opponents_total, state.points) == (52, 83400, Fraction(53, 2))
    assert (state.type, str(state.last_played)) == ("full", "2026-10")


def test_an_adjustment_with_many_decimals_stays_exact():
    # A = 0.49999999999999999999 (20 decimals, beyond int64 once scaled): 1500.4999... -> 1500
    # (as a binary float A is 0.5 and the rating would round up to 1501)
    result = rate(
        [player("a", standard=full(1500)), player("b", standard=full(1500))],
        [game("a", "b", "1/2-1/2")],
        a="0.49999999999999999999",
    )
    assert rating_of(result, "a") == 1500
    # and with B = 1E-30 as well: 1500 + 0.4999... + 1500E-30 -> 1500
    result = rate(
        [player("a", standard=full(1500)), player("b", standard=full(1500))],
        [game("a", "b", "1/2-1/2")],
        a="0.49999999999999999999",
        b="1E-30",
    )
    assert rating_of(result, "a") == 1500
