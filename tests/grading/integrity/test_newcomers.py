"""Closed groups of newcomers (docs/integrity.md): players unrated at the start who meet almost
only each other and a rated player or two, where a host wins nearly everything against them or
they come out with first ratings made among themselves."""

import itertools

import numpy as np

from grading.integrity.detectors.improbable import RatedGames
from grading.integrity.detectors.newcomers import newcomer_groups

NEWCOMERS = (11, 12, 13, 14, 15, 16)


def games(rows):
    return RatedGames(*np.array(rows, dtype=np.int64).reshape(-1, 6).T)


def closed_event(event=5, host_result=2):
    """Six newcomers in a round robin of their own, and player 1 (rated 1800) playing each."""
    rows = [(event, a, b, 0, 0, (a + b) % 3) for a, b in itertools.combinations(NEWCOMERS, 2)]
    return rows + [(event, 1, newcomer, 1800, 0, host_result) for newcomer in NEWCOMERS]


def test_newcomers_among_themselves_and_a_host_who_beats_them_all_are_flagged():
    # 15 games among the six and 6 against player 1: 2 x 15 + 6 = 36 of their 36 games (share
    # 1.0, at least 0.8), one rated player met, who scored 12 half points of 12 (at least 0.8).
    found = newcomer_groups(games(closed_event() + [(6, 2, 3, 1500, 1500, 1)]))

    assert found.members.tolist() == list(NEWCOMERS)
    assert (found.within[0], found.host_games[0], found.games[0], found.share[0]) == (15, 6, 36, 1.0)
    assert (found.host[0], found.top_host_games[0], found.top_host_halves[0]) == (1, 6, 12)
    assert found.flagged().tolist() == [True]


def test_a_host_who_shared_the_points_is_not_flagged_while_nobody_is_rated_yet():
    found = newcomer_groups(games(closed_event(host_result=1)))

    assert found.share[0] == 1.0
    assert found.flagged().tolist() == [False]


def test_newcomers_who_go_on_to_play_at_first_ratings_made_among_themselves_are_flagged():
    # Next month four of them play each other again, now rated: their first ratings came from
    # the group alone (15 + 6 = 21 games among them, 6 with the host: 2 x 21 + 6 = 48 of 48).
    later = [(7, a, b, 1650, 1650, 1) for a, b in itertools.combinations(NEWCOMERS[:4], 2)]
    found = newcomer_groups(games(closed_event(host_result=1) + later))

    assert found.rated_after.tolist() == [4]
    assert found.flagged().tolist() == [True]


def test_newcomers_who_play_the_wider_federation_are_no_closed_group():
    # Each newcomer also plays four rated players of an open Swiss: 2 x 15 + 6 = 36 of 60.
    swiss = [(8, newcomer, 100 + 10 * newcomer + k, 0, 1600, 1) for newcomer in NEWCOMERS for k in range(4)]
    found = newcomer_groups(games(closed_event() + swiss))

    assert len(found.members) == 0


def test_a_scan_of_another_event_leaves_the_group_out():
    rows = closed_event() + [(6, 2, 3, 1500, 1500, 1)]

    assert len(newcomer_groups(games(rows), np.array([6])).members) == 0
    assert newcomer_groups(games(rows), np.array([5])).members.tolist() == list(NEWCOMERS)


def test_newcomers_whose_rated_opponents_all_lose_to_them_are_flagged_at_once():
    # Five rated players (1600) each lose to the six newcomers: 30 games, the newcomers 60 half
    # points of 60 (at least 0.8), so their first ratings, made of those games, come out high
    # inside the group. Five hosts are within MAX_HOSTS (6); nobody is rated yet.
    rows = [(5, a, b, 0, 0, (a + b) % 3) for a, b in itertools.combinations(NEWCOMERS, 2)]
    rows += [(5, host, newcomer, 1600, 0, 0) for host in range(1, 6) for newcomer in NEWCOMERS]
    found = newcomer_groups(games(rows))

    assert (found.hosts[0], found.host_games[0], found.newcomer_halves[0]) == (5, 30, 60)
    assert found.rated_after.tolist() == [0]
    assert found.flagged().tolist() == [True]
