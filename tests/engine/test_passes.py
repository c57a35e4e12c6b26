"""docs/rules.md section 5: the three passes and the opponent ratings each one uses."""

from fractions import Fraction

from tests.engine.helpers import full, game, partial, player, rate, rating_of

# F: Fully Rated 1600, 50 games. P: Partially Rated 1400 (3 games, 4500, 1.5 points).
# N: New adult (dummy 1800). Games: N beats F, P draws N, F beats P.
PLAYERS = [
    player("F", standard=full(1600, games=50, opponents_total=80000, points="25")),
    player("P", standard=partial(1400, 3, 4500, "1.5")),
    player("N"),
]
GAMES = [game("N", "F", "1-0"), game("P", "N", "1/2-1/2"), game("F", "P", "1-0")]


def test_pass_1_uses_prior_ratings_and_new_opponents_dummy_ratings():
    # N: F full -> prior 1600; P partial -> prior 1400
    #    G = 3, T = 1600 + 1400 + 1800 = 4800, S = 1 + 0.5 + 0.5 = 2, p = 0.67 -> dp 125
    #    4800 / 3 + 125 = 1725
    # P: N new -> N's dummy 1800; F -> 1600; prior accumulators
    #    G = 3 + 2 + 1 = 6, T = 4500 + 1800 + 1600 + 1800 = 9700, S = 1.5 + 0.5 + 0 + 0.5 = 2.5
    #    p = 0.4167 -> 0.42 -> dp -57; 9700 / 6 = 1616.67; - 57 = 1559.67 -> 1560
    result = rate(PLAYERS, GAMES)
    assert result.player_by_id("N").pass1 == 1725
    assert result.player_by_id("P").pass1 == 1560
    assert [line.pass1_opponent_rating for line in result.player_by_id("P").games] == [1800, 1600]


def test_pass_2_uses_the_opponents_pass_1_ratings():
    # N: F 1600, P's A 1560: T = 1600 + 1560 + 1800 = 4960; 4960 / 3 = 1653.33; + 125 = 1778.33 -> 1778
    # P: N's A 1725, F 1600: T = 4500 + 1725 + 1600 + 1800 = 9625; 9625 / 6 = 1604.17; - 57 -> 1547
    result = rate(PLAYERS, GAMES)
    n, p = result.player_by_id("N"), result.player_by_id("P")
    assert (n.pass2, n.rating, n.type) == (1778, 1778, "partial")
    assert (p.pass2, p.rating, p.type) == (1547, 1547, "partial")
    assert [(g.opponent, g.opponent_rating, g.opponent_type) for g in p.games] == [
        ("N", 1725, "partial"),
        ("F", 1600, "full"),
    ]
    # the stored state counts the pass-2 opponents: 4500 + 1725 + 1600 = 7825
    assert (p.state.games, p.state.opponents_total) == (5, 7825)


def test_pass_3_uses_the_opponents_pass_2_ratings():
    # F lost to N (B 1778): D = 178 -> 4.6; -10 -> -5.4
    # F beat P (B 1547):    D = -53 -> -1.4; +10 -> 8.6
    # ecf-2024, K = 20, Q = 20: change = 3.2 -> 1603.2 -> 1603
    result = rate(PLAYERS, GAMES)
    f = result.player_by_id("F")
    assert [(g.opponent_rating, g.opponent_type, g.increment) for g in f.games] == [
        (1778, "partial", Fraction("-5.4")),
        (1547, "partial", Fraction("8.6")),
    ]
    assert f.rating == 1603
    # lifetime sums with the pass-3 opponents: 80000 + 1778 + 1547
    assert (f.state.games, f.state.opponents_total, f.state.points) == (52, 83325, 26)


def test_q_is_40_against_partial_opponents_under_ecf_2020():
    # the same month under ecf-2020 (everyone still active in its 60-month window):
    # both of F's opponents have a Partial B -> Q = 40
    # -5.4 * 20 / 40 = -2.7; 8.6 * 20 / 40 = 4.3; change 1.6 -> 1601.6 -> 1602
    result = rate(PLAYERS, GAMES, rules="ecf-2020")
    f = result.player_by_id("F")
    assert [g.increment for g in f.games] == [Fraction("-2.7"), Fraction("4.3")]
    assert f.rating == 1602


def test_q_is_40_against_a_new_player_with_a_partial_rating():
    # new adult loses to a full 1500: T = 1500 + 1800 = 3300, S = 0.5, G = 2, p = 0.25 -> -193
    # 1650 - 193 = 1457 (Partial). Full 1500: D = -43 -> -1.2; +10 = 8.8
    # ecf-2020: 8.8 * 20 / 40 = 4.4 -> 1504.4 -> 1504;  ecf-2024: 8.8 -> 1508.8 -> 1509
    players = [player("a", standard=full(1500)), player("n")]
    assert rating_of(rate(players, [game("a", "n")], rules="ecf-2020"), "a") == 1504
    assert rating_of(rate(players, [game("a", "n")], rules="ecf-2024"), "a") == 1509


def test_q_is_20_against_an_opponent_whose_pass_2_rating_is_full():
    # partial 1500 with 9 prior games (13500, 4.5 points) draws a full 1500:
    # G = 11, T = 13500 + 1500 + 1800 = 16800, S = 5.5, p = 0.50 -> 1527.27 -> 1527, Full (10 games)
    # the full 1500: D = 27 -> 0.8, draw -> 0.8 * 20 / 20 = 0.8 -> 1500.8 -> 1501 (Q 40 would give 1500)
    players = [player("a", standard=full(1500)), player("p", standard=partial(1500, 9, 13500, "4.5"))]
    result = rate(players, [game("a", "p", "1/2-1/2")], rules="ecf-2020")
    assert result.player_by_id("p").type == "full"
    assert rating_of(result, "a") == 1501


def test_ratings_within_a_pass_are_simultaneous():
    # two new adults draw: both use the other's dummy in pass 1 and the other's A in pass 2,
    # whatever order they come in: A = B = (1800 + 1800) / 2 = 1800 for both
    result = rate([player("x"), player("y")], [game("x", "y", "1/2-1/2")])
    assert {(p.pass1, p.pass2) for p in map(result.player_by_id, "xy")} == {(1800, 1800)}
