"""Closed pools (docs/integrity.md): players whose games are mostly among themselves and whose
ratings rose together."""

import itertools

import numpy as np
import pytest

from grading.integrity.detectors import model
from grading.integrity.detectors.improbable import RatedGames
from grading.integrity.detectors.pools import closed_pools, components


def round_robin(event, players, rating, result=1):
    """Every pair of ``players`` once, all at ``rating``."""
    return [(event, a, b, rating, rating, result) for a, b in itertools.combinations(players, 2)]


def pools(rows_by_month):
    rows = [row for rows in rows_by_month.values() for row in rows]
    months = [month for month, rows in rows_by_month.items() for _ in rows]
    games = RatedGames(*np.array(rows, dtype=np.int64).reshape(-1, 6).T)
    return closed_pools(games, np.array(months))


def test_four_players_among_themselves_rising_30_a_month_are_flagged():
    # Players 1-4 play a round robin among themselves each month, their ratings used 1500, 1530,
    # ... 1650: every game within the group (share 1.0), each rose 150 (>= 100), all four rose.
    found = pools({month: round_robin(month, (1, 2, 3, 4), 1500 + 30 * month) for month in range(6)})

    assert found.members.tolist() == [1, 2, 3, 4]
    assert (found.size[0], found.share[0], found.rise[0], found.rose[0]) == (4, 1.0, 150, 1.0)
    assert found.flagged().tolist() == [True]


def test_a_club_among_itself_whose_ratings_stay_put_is_closed_but_not_flagged():
    found = pools({month: round_robin(month, (1, 2, 3, 4), 1500) for month in range(6)})

    assert found.members.tolist() == [1, 2, 3, 4]
    assert found.flagged().tolist() == [False]


def test_players_who_also_play_the_wider_federation_are_no_closed_pool():
    # Each month the four also play a Swiss of 8 against 7 other players each (new each month):
    # 3 games of 10 within the group, a share of 0.3.
    rows = {}
    for month in range(6):
        rows[month] = round_robin(month, (1, 2, 3, 4), 1500 + 30 * month)
        rows[month] += [
            (100 + month, player, 1000 + 100 * month + 10 * player + k, 1500 + 30 * month, 1500, 1)
            for player in (1, 2, 3, 4)
            for k in range(7)
        ]
    found = pools(rows)

    assert len(found.members) == 0


def test_components_follow_a_long_chain():
    # 0-1-2-...-9 joined in a line, and 10-11 apart.
    label = components(12, np.array([*range(9), 10]), np.array([*range(1, 10), 11]))

    assert label.tolist() == [0] * 10 + [10, 10]


def ring_won_by_player_1(months):
    """Players 1-4 in a round robin of their own each month of ``months``, all at 1500, player 1
    winning each of their games and the others drawing among themselves."""
    rows = {}
    for month in months:
        rows[month] = [
            (month, a, b, 1500, 1500, 2 if a == 1 else 1) for a, b in itertools.combinations((1, 2, 3, 4), 2)
        ]
    return rows


def ordinary_games(rows, months, per_month=4):
    """Each of players 1-4 also plays ``per_month`` players from outside each of ``months``."""
    for month in months:
        rows.setdefault(month, [])
        rows[month] += [
            (100 + month, player, 1000 + 100 * month + 10 * player + k, 1500, 1500, 1)
            for player in (1, 2, 3, 4)
            for k in range(per_month)
        ]
    return rows


def ring_chance(months):
    """Player 1's chance of winning all three of their games a month among the ring for
    ``months`` months, read at the first month's ratings (1500 each) as strong as is plausible:
    1.645 spreads of sqrt(45² + (sqrt(7² + 7²) x months since the first)²)."""
    chance = 1.0
    for month in range(months):
        win, _ = model.outcomes(model.GENEROUS * np.hypot(45, np.hypot(7, 7) * month), 1500)
        chance *= win**3
    return chance


def test_a_ring_whose_winner_takes_every_game_among_them_is_flagged_though_nobody_rose():
    # Six months of round robins: player 1 won 18 games of 18 among them. In the first month, read
    # at 1500 + 1.645 x 45 = 1574 against 1500, a win is 0.5273 (E = 0.6049, draws 0.165 x
    # exp(-(74 / 300)²) = 0.1553); later months a little likelier, the difference less certain
    # the further from the first: 0.000020 in all, at most WINNER (0.001). Their four ordinary
    # games a month in the other six months do not open the ring: within the months they met,
    # every game was among them (over the year, 18 of 42 each).
    found = pools(ordinary_games(ring_won_by_player_1(range(6)), range(6, 12)))

    assert found.members.tolist() == [1, 2, 3, 4]
    assert found.share[0] == 1.0
    assert (found.winner[0], found.winner_games[0], found.winner_halves[0]) == (1, 18, 36)
    assert ring_chance(1) == pytest.approx(0.5273**3, rel=1e-3)
    assert found.winner_upper[0] == pytest.approx(ring_chance(6), rel=1e-6)
    assert found.winner_upper[0] == pytest.approx(0.0000198, rel=1e-2)
    assert found.rise[0] == 0
    assert found.flagged().tolist() == [True]


def test_two_months_of_such_wins_are_not_enough():
    # 6 of 6 in two months: about 0.022.
    found = pools(ring_won_by_player_1(range(2)))

    assert found.winner_upper[0] == pytest.approx(ring_chance(2), rel=1e-6)
    assert found.winner_upper[0] > 0.02
    assert found.flagged().tolist() == [False]


def test_a_ring_that_plays_outsiders_as_often_in_the_same_months_is_not_closed():
    # Three games among them and four outside each month they met: 3 of 7, under CLOSED (0.6).
    found = pools(ordinary_games(ring_won_by_player_1(range(6)), range(6)))

    assert len(found.members) == 0


def test_a_ring_that_rises_on_its_feeders_is_flagged_by_the_feeders_losses():
    # Players 1 and 2 lose every game to the other four, month after month; 3 to 6 draw among
    # themselves: nobody wins beyond belief, the average does not move (what the feeders lose the
    # others win), but a feeder's four losses and a draw a month for six months (6 half points of
    # 60), read as weak as is plausible and less certain month by month, are below WINNER (0.001).
    rows = {}
    for month in range(6):
        rows[month] = [
            (month, a, b, 1500, 1500, 0 if a in (1, 2) and b not in (1, 2) else 1)
            for a, b in itertools.combinations((1, 2, 3, 4, 5, 6), 2)
        ]
    found = pools(rows)

    assert found.members.tolist() == [1, 2, 3, 4, 5, 6]
    # A feeder: 6 half points of 60 (the draws between the two feeders).
    assert found.winner[0] in (1, 2) and (found.winner_games[0], found.winner_halves[0]) == (30, 6)
    assert found.winner_upper[0] < 0.001
    assert found.flagged().tolist() == [True]
