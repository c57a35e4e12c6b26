"""docs/rules.md section 4: the P rating, with one dummy draw."""

from fractions import Fraction

from tests.engine.helpers import PERIOD, full, game, partial, player, rate, rating_of


def test_a_new_adult_drawing_a_1500_is_rated_1650():
    # G = 1 + 1 = 2; T = 1500 + 1800 (dummy) = 3300; S = 0.5 + 0.5 = 1; p = 0.50 -> dp 0
    # 3300 / 2 + 0 = 1650
    result = rate([player("n"), player("a", standard=full(1500))], [game("n", "a", "1/2-1/2")])
    n = result.player_by_id("n")
    assert (n.category, n.method, n.dummy, n.pass1, n.pass2) == ("new", "P", 1800, 1650, 1650)
    assert (n.rating, n.type) == (1650, "partial")


def test_the_p_rating_rounds_the_average_half_up():
    # T = 1501 + 1800 = 3301; 3301 / 2 = 1650.5 -> 1651
    result = rate([player("n"), player("a", standard=full(1501))], [game("n", "a", "1/2-1/2")])
    assert rating_of(result, "n") == 1651


def test_p_is_rounded_half_up_to_two_decimals_before_the_table():
    # 7 games against 1500s: one draw, six losses. G = 8, S = 0.5 + 0.5 = 1, p = 1/8 = 0.125 -> 0.13
    # dp(0.13) = -322 (0.12 would give -336); T = 7 * 1500 + 1800 = 12300; 12300 / 8 = 1537.5
    # 1537.5 - 322 = 1215.5 -> 1216
    games = [game("n", "a", "1/2-1/2", day=1)] + [game("a", "n", "1-0", day=2 + i) for i in range(6)]
    result = rate([player("n"), player("a", standard=full(1500))], games)
    assert rating_of(result, "n") == 1216


def test_a_p_rating_on_ten_games_is_full():
    # 10 draws against 1500s: G = 11, T = 15000 + 1800 = 16800, S = 5.5, p = 0.50
    # 16800 / 11 = 1527.27 -> 1527; G - 1 = 10 >= 10 -> Full
    games = [game("n", "a", "1/2-1/2", day=1 + i) for i in range(10)]
    result = rate([player("n"), player("a", standard=full(1500))], games)
    n = result.player_by_id("n")
    assert (n.rating, n.type) == (1527, "full")


def test_a_p_rating_on_nine_games_is_partial():
    # 9 draws: G = 10, T = 13500 + 1800 = 15300 -> 1530, 9 games -> Partial
    games = [game("n", "a", "1/2-1/2", day=1 + i) for i in range(9)]
    result = rate([player("n"), player("a", standard=full(1500))], games)
    assert (rating_of(result, "n"), result.player_by_id("n").type) == (1530, "partial")


def test_a_partially_rated_players_accumulators_carry_into_the_p_rating():
    # prior: 4 games, opponents_total 6000, 2.5 points; this month beats and loses to a 1500
    # G = 4 + 2 + 1 = 7; T = 6000 + 3000 + 1800 = 10800; S = 2.5 + 1 + 0.5 = 4
    # p = 4 / 7 = 0.571 -> 0.57 -> dp 50; 10800 / 7 = 1542.857; + 50 = 1592.857 -> 1593
    result = rate(
        [player("p", standard=partial(1450, 4, 6000, "2.5")), player("a", standard=full(1500))],
        [game("p", "a", "1-0"), game("a", "p", "1-0", day=5)],
    )
    p = result.player_by_id("p")
    assert (p.category, p.rating, p.type) == ("partial", 1593, "partial")
    # the new state never keeps the dummy draw: 6 games, 6000 + 3000, 3.5 points
    assert (p.state.games, p.state.opponents_total, p.state.points) == (6, 9000, Fraction(7, 2))


def test_a_partially_rated_players_accumulators_carry_into_the_next_months_p_rating():
    # October: as above -> state 6 games, 9000, 3.5 points, rating 1593 (partial)
    october = rate(
        [player("p", standard=partial(1450, 4, 6000, "2.5")), player("a", standard=full(1500))],
        [game("p", "a", "1-0"), game("a", "p", "1-0", day=5)],
    )
    carried = october.player_by_id("p").state
    # November: one draw against a 1700
    # G = 6 + 1 + 1 = 8; T = 9000 + 1700 + 1800 = 12500; S = 3.5 + 0.5 + 0.5 = 4.5
    # p = 4.5 / 8 = 0.5625 -> 0.56 -> dp 43; 12500 / 8 = 1562.5; + 43 = 1605.5 -> 1606
    november = PERIOD + 1
    result = rate(
        [player("p", standard=carried), player("b", standard=full(1700))],
        [game("p", "b", "1/2-1/2", period=november)],
        period=november,
    )
    p = result.player_by_id("p")
    assert (p.category, p.rating, p.state.games, p.state.opponents_total) == ("partial", 1606, 7, 10700)


def test_a_partially_rated_player_reaching_ten_games_becomes_full():
    # prior 8 games, 12000, 4 points; two draws with a 1500 now: G = 11, T = 12000 + 3000 + 1800 = 16800
    # S = 4 + 1 + 0.5 = 5.5, p = 0.50; 16800 / 11 = 1527.27 -> 1527; 10 games -> Full
    result = rate(
        [player("p", standard=partial(1500, 8, 12000, "4")), player("a", standard=full(1500))],
        [game("p", "a", "1/2-1/2"), game("a", "p", "1/2-1/2", day=5)],
    )
    assert (rating_of(result, "p"), result.player_by_id("p").type) == (1527, "full")


def test_a_p_rating_never_falls_below_100():
    # online list, new adult (dummy 1800 - 100 = 1700) loses 9 games to 100-rated players:
    # G = 10, T = 900 + 1700 = 2600, S = 0.5, p = 0.05 -> dp -470; 260 - 470 = -210 -> 100
    games = [game("a", "n", "1-0", day=1 + i) for i in range(9)]
    result = rate([player("n"), player("a", online=full(100))], games, list_code="online")
    assert rating_of(result, "n") == 100


def test_a_perfect_score_is_tempered_by_the_dummy_draw():
    # 3 wins against 1500s: G = 4, S = 3.5, p = 0.875 -> 0.88 -> dp 336
    # T = 4500 + 1800 = 6300; 6300 / 4 = 1575; + 336 = 1911
    games = [game("n", "a", "1-0", day=1 + i) for i in range(3)]
    result = rate([player("n"), player("a", standard=full(1500))], games)
    assert rating_of(result, "n") == 1911
