"""Closed pools (docs/integrity.md): players whose games are mostly among themselves and whose
ratings rose together."""

import itertools

import numpy as np

from grading.integrity.signals.improbable import RatedGames
from grading.integrity.signals.pools import closed_pools, components


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
