"""Closed groups of newcomers: players unrated at the start who meet almost only each other and
a rated player or two (their hosts), where a host scores nearly everything against them, or the
newcomers come out of it with first ratings made inside the group (docs/integrity.md).

Every other detector leaves a game with an unrated side out, since it tells nothing of
expectation, yet a run rates such games: a newcomer's first rating is made from them, and the
rated players who beat newcomers gain as the newcomers' ratings come to count. Newcomers are
*grouped* when they played each other (connected by their games with both sides unrated). A
group of at least MIN_NEWCOMERS is *closed* when at least CLOSED of its members' games in the
games given (a year's) are among themselves or against at most MAX_HOSTS rated players. A closed
group is flagged when a host scored at least HOST_SHARE of the points in at least HOST_GAMES
games against its members; when the newcomers scored that share against their hosts (rated
players losing to them make their first ratings high, inside the group); or when members went
on to play rated: their first ratings were made inside the group.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.arrays import dense_index, distinct, find_sorted, is_in
from grading.integrity.detectors.improbable import UNRATED, RatedGames
from grading.integrity.detectors.pools import components

MIN_NEWCOMERS = 4
CLOSED = 0.8
MAX_HOSTS = 6
HOST_SHARE = 0.8
HOST_GAMES = 4


@dataclass(frozen=True)
class NewcomerGroups:
    """One row a closed group of newcomers: its members (``members``, sorted, ``start`` where each
    group's begin), its games among themselves, against its hosts and in all, its host who scored
    most against it (0 for none) with their games and half points, and how many members went on
    to play rated."""

    members: np.ndarray
    start: np.ndarray
    size: np.ndarray
    within: np.ndarray
    host_games: np.ndarray
    games: np.ndarray
    hosts: np.ndarray
    host: np.ndarray
    top_host_games: np.ndarray
    top_host_halves: np.ndarray
    newcomer_halves: np.ndarray  # the newcomers' half points against all their hosts
    rated_after: np.ndarray

    @property
    def share(self) -> np.ndarray:
        """The share of the members' games among themselves or against their hosts (a game among
        them is one of each player's)."""
        return (2 * self.within + self.host_games) / np.maximum(self.games, 1)

    def flagged(self) -> np.ndarray:
        gained = (self.top_host_games >= HOST_GAMES) & (self.top_host_halves >= 2 * HOST_SHARE * self.top_host_games)
        lost = (self.host_games >= HOST_GAMES) & (self.newcomer_halves >= 2 * HOST_SHARE * self.host_games)
        return gained | lost | (self.rated_after > 0)

    def games_of(self, row: int, games: RatedGames) -> np.ndarray:
        """The positions of the group's games among ``games``: among themselves and with their hosts."""
        end = self.start[row + 1] if row + 1 < len(self.start) else len(self.members)
        members = self.members[self.start[row] : end]
        white, black = is_in(games.white, members), is_in(games.black, members)
        newcomer = np.where(white, games.white_rating, games.black_rating) == UNRATED
        return np.flatnonzero((white | black) & newcomer)


def newcomer_groups(games: RatedGames, scope: np.ndarray | None = None) -> NewcomerGroups:
    """The closed groups of newcomers among ``games``; with ``scope`` (event ids, sorted), those
    with a game in one of those events."""
    both = (games.white_rating == UNRATED) & (games.black_rating == UNRATED)
    ids = distinct(np.concatenate((games.white[both], games.black[both])))
    group = components(len(ids), find_sorted(ids, games.white[both])[1], find_sorted(ids, games.black[both])[1])
    size = np.bincount(group, minlength=len(ids))
    big = size[group] >= MIN_NEWCOMERS
    if scope is not None:
        touched = both & is_in(games.event, scope)
        big &= is_in(group, group[find_sorted(ids, games.white[touched])[1]]) if touched.any() else False
    ids, group = ids[big], group[big]
    if not len(ids):
        return empty()
    _, group = np.unique(group, return_inverse=True)
    return closed_groups(games, ids, group)


def closed_groups(games: RatedGames, ids: np.ndarray, group: np.ndarray) -> NewcomerGroups:
    """Of the groups ``group`` (0 to m - 1) of newcomers ``ids`` (sorted), those closed."""
    count = int(group.max()) + 1
    white_in, white_at = find_sorted(ids, games.white)
    black_in, black_at = find_sorted(ids, games.black)
    white_group, black_group = np.where(white_in, group[white_at], -1), np.where(black_in, group[black_at], -1)
    games_of = np.bincount(white_group[white_in], minlength=count) + np.bincount(black_group[black_in], minlength=count)
    inside = white_in & black_in & (white_group == black_group)
    within = np.bincount(white_group[inside], minlength=count)
    # A member unrated against a rated player outside: a host's game, scored from the host's side.
    white_hosts = black_in & ~white_in & (games.black_rating == UNRATED) & (games.white_rating != UNRATED)
    black_hosts = white_in & ~black_in & (games.white_rating == UNRATED) & (games.black_rating != UNRATED)
    host = np.concatenate((games.white[white_hosts], games.black[black_hosts]))
    host_group = np.concatenate((black_group[white_hosts], white_group[black_hosts]))
    host_halves = np.concatenate((games.white_halves[white_hosts], 2 - games.white_halves[black_hosts]))
    pair_index, pairs = dense_index(host_group.astype(np.int64) * (int(host.max(initial=0)) + 1) + host)
    pair_games = np.bincount(pair_index, minlength=pairs)
    pair_halves = np.bincount(pair_index, weights=host_halves, minlength=pairs)
    first = np.unique(pair_index, return_index=True)[1]  # each (group, host) once
    pair_group, pair_host = host_group[first], host[first]
    hosts = np.bincount(pair_group, minlength=count)
    hosts_scored = np.bincount(host_group, weights=host_halves, minlength=count).astype(np.int64)
    host_games = np.bincount(pair_group, weights=pair_games[pair_index[first]], minlength=count).astype(np.int64)
    # Each group's host who scored most against it.
    best = np.lexsort((-pair_halves[pair_index[first]], pair_group))
    lead = best[np.unique(pair_group[best], return_index=True)[1]]
    top = np.zeros(count, dtype=np.int64)
    top_games, top_halves = np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)
    top[pair_group[lead]] = pair_host[lead]
    top_games[pair_group[lead]] = pair_games[pair_index[first][lead]]
    top_halves[pair_group[lead]] = pair_halves[pair_index[first][lead]]
    rated_white, rated_black = white_in & (games.white_rating != UNRATED), black_in & (games.black_rating != UNRATED)
    rated_members = distinct(np.concatenate((games.white[rated_white], games.black[rated_black])))
    rated_after = np.bincount(group[find_sorted(ids, rated_members)[1]], minlength=count)
    # Sides: a game among members is two of their games, a host's game one.
    closed = (2 * within + host_games >= CLOSED * games_of) & (hosts <= MAX_HOSTS)
    size = np.bincount(group, minlength=count)
    kept = np.flatnonzero(closed & (size >= MIN_NEWCOMERS))
    order = np.lexsort((ids, group))
    members, member_group = ids[order], group[order]
    chosen = is_in(member_group, kept)
    members, member_group = members[chosen], member_group[chosen]
    start = np.flatnonzero(np.concatenate(([True], member_group[1:] != member_group[:-1]))) if len(members) else members
    return NewcomerGroups(
        members=members,
        start=start,
        size=size[kept],
        within=within[kept],
        host_games=host_games[kept],
        games=games_of[kept],
        hosts=hosts[kept],
        host=top[kept],
        top_host_games=top_games[kept],
        top_host_halves=top_halves[kept],
        newcomer_halves=2 * host_games[kept] - hosts_scored[kept],
        rated_after=rated_after[kept],
    )


def empty() -> NewcomerGroups:
    nothing = np.zeros(0, dtype=np.int64)
    return NewcomerGroups(*(nothing for _ in NewcomerGroups.__dataclass_fields__))
