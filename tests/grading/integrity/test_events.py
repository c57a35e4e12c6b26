"""Events and arbiters (docs/integrity.md): an event mostly flagged, an event whose players never
play anyone else, an arbiter whose events are flagged far more often than the federation's."""

import numpy as np

from grading.integrity.detectors.events import arbiter_shares, event_flags
from grading.integrity.detectors.improbable import RatedGames, event_scores
from grading.integrity.detectors.pairings import repeated_pairings
from grading.integrity.detectors.pools import Pools, closed_pools
from grading.integrity.detectors.sandbagging import sandbagging


def pool(rise):
    """One closed pool of players 1-4 (as closed_pools gives it) whose members rose ``rise`` on
    average, every one of them, its winner (player 1) scoring as expected among them."""
    return Pools(
        members=np.array([1, 2, 3, 4]),
        start=np.array([0]),
        size=np.array([4]),
        share=np.array([1.0]),
        rise=np.array([float(rise)]),
        rose=np.array([1.0 if rise > 0 else 0.0]),
        winner=np.array([1]),
        winner_games=np.array([6]),
        winner_halves=np.array([6]),
        winner_expected=np.array([6.0]),
        winner_upper=np.array([0.6]),
        winner_rise=np.array([rise]),
    )


POOL = pool(150)
NO_POOL = Pools(*(np.zeros(0, dtype=np.int64) for _ in Pools.__dataclass_fields__))


def flags(rows, pools=NO_POOL):
    event, player, flagged = (np.array(column) for column in zip(*rows))
    return event_flags(event, player, flagged.astype(bool), pools)


def test_an_event_with_half_its_players_flagged_is_flagged():
    # Event 7: 2 of 4 players flagged (>= 0.5 * 4); event 8: 1 of 4.
    found = flags([(7, 1, 1), (7, 2, 1), (7, 5, 0), (7, 6, 0), (8, 1, 1), (8, 5, 0), (8, 6, 0), (8, 9, 0)])

    assert found.flagged_players.tolist() == [2, 1]
    assert found.flagged().tolist() == [True, False]


def test_an_event_whose_players_are_all_of_one_flagged_closed_pool_is_isolated():
    found = flags([(7, 1, 0), (7, 2, 0), (7, 3, 0), (8, 1, 0), (8, 2, 0), (8, 5, 0)], POOL)

    assert found.isolated.tolist() == [True, False]
    assert found.flagged().tolist() == [True, False]


def test_an_island_club_whose_ratings_stay_put_is_no_isolated_event():
    # The same four, closed among themselves, but nobody rose and nobody won beyond belief.
    found = flags([(7, 1, 0), (7, 2, 0), (7, 3, 0)], pool(0))

    assert found.flagged().tolist() == [False]


def test_an_arbiter_whose_events_are_flagged_far_more_often_than_the_federations():
    # 20 events: arbiter 1 ran 3, 2 flagged (0.67); arbiter 2 ran 17, none. The federation's
    # share is 2 / 20 = 0.1; arbiter 1's is at least 3 * 0.1 with at least 2 flagged.
    arbiter = np.array([1, 1, 1] + [2] * 17)
    flagged = np.array([True, True, False] + [False] * 17)
    shares = arbiter_shares(arbiter, flagged)

    assert shares.federation_share == 0.1
    assert (shares.events.tolist(), shares.flagged_events.tolist()) == ([3, 17], [2, 0])
    assert shares.flagged().tolist() == [True, False]


def test_one_flagged_event_is_not_enough_to_name_an_arbiter():
    shares = arbiter_shares(np.array([1] + [2] * 19), np.array([True] + [False] * 19))

    assert shares.flagged().tolist() == [False, False]


def test_no_games_flag_nothing():
    none = RatedGames(*(np.zeros(0, dtype=np.int64) for _ in range(6)))
    scores = event_scores(none)

    assert len(repeated_pairings(none).first) == 0
    assert len(closed_pools(none, np.zeros(0, dtype=np.int64)).members) == 0
    assert len(sandbagging(scores, np.zeros(0, dtype=np.int64)).player) == 0
    assert len(event_flags(scores.event, scores.player, scores.flagged(), NO_POOL).event) == 0
