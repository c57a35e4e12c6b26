"""Closed pools (rings): groups of players whose rated games are mostly among themselves, where
all rose together or one of them won (or lost) far more of the games among them than is likely
(docs/integrity.md).

Two players are *tied* when their games against each other are at least TIE of each one's games
(and at least two). The groups are the connected sets of tied players; a group of MIN_SIZE to
MAX_SIZE players is *closed* when at least CLOSED of its members' games in the months they met
(the months with a game among them) are within it: ordinary games in other months do not open
a ring. A closed group is flagged when its members rose together (their rating used at their
last game was on average at least RISE above the one at their first, and at least ROSE_SHARE of
them rose), or when its *winner*, the member whose score in the games among them is the least
likely, far above or far below (the game model's chances, read generously), scored that with a
chance of at most WINNER: one who gained while the others held or fell, or a feeder who lost
everything so that the others could rise.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.arrays import distinct, find_sorted, is_in, runs, tally
from grading.integrity.detectors import model
from grading.integrity.detectors.improbable import UNRATED, RatedGames, key_parts, player_spreads
from grading.integrity.detectors.pairings import DRIFT, JUNIOR_DRIFT, game_pairs, pairs_met_in
from grading.integrity.detectors.tails import score_tails

TIE = 0.1
MIN_SIZE = 3
MAX_SIZE = 30
CLOSED = 0.6
RISE = 100
ROSE_SHARE = 0.75
WINNER = 0.001


@dataclass(frozen=True)
class Pools:
    """One row a closed group: its players (``members``, sorted, ``start`` where each group's
    begin), its share of games within, and its members' average rise."""

    members: np.ndarray
    start: np.ndarray
    size: np.ndarray
    share: np.ndarray
    rise: np.ndarray
    rose: np.ndarray  # the share of members who rose
    winner: np.ndarray  # the member whose score among them is the least likely, above or below
    winner_games: np.ndarray
    winner_halves: np.ndarray
    winner_expected: np.ndarray  # half points, at their rating used against the others'
    winner_upper: np.ndarray  # the chance of at least (a feeder's: at most) that score, read generously
    winner_rise: np.ndarray

    def flagged(self) -> np.ndarray:
        return ((self.rise >= RISE) & (self.rose >= ROSE_SHARE)) | (self.winner_upper <= WINNER)


def closed_pools(games: RatedGames, month: np.ndarray, scope: np.ndarray | None = None, uncertainty=None) -> Pools:
    """``month``: each game's month index; a player's rise is read from their first month's
    rating used to their last's. With ``scope`` (event ids, sorted), only the groups tied
    through a pair that met in those events (``games_around_ties``). ``uncertainty``: each
    player's uncertainty (improbable.player_spreads), by default read from ``games`` alone."""
    uncertainty = uncertainty or player_spreads(games, month, None)
    totals_of = None
    if scope is not None:
        games, month, totals_of = games_around_ties(games, month, scope)
    _, player, opponent, rating, _, _ = games.sides()
    month = sides_month(games, month)
    ids, index = np.unique(np.concatenate((player, opponent)), return_inverse=True)
    side, other = index[: len(player)], index[len(player) :]
    totals = np.bincount(side, minlength=len(ids)) if totals_of is None else totals_of(ids)
    low, high = np.minimum(side, other), np.maximum(side, other)
    keys, counts = np.unique(low.astype(np.int64) * len(ids) + high, return_counts=True)
    counts //= 2  # each game comes from both sides
    a, b = keys // len(ids), keys % len(ids)
    tied = (counts >= 2) & (counts >= TIE * totals[a]) & (counts >= TIE * totals[b])
    group = components(len(ids), a[tied], b[tied])
    size = np.bincount(group, minlength=len(ids))
    share = shares_in_months_met(group, side, other, month, size)
    closed = np.flatnonzero((size >= MIN_SIZE) & (size <= MAX_SIZE) & (share >= CLOSED))
    rises = player_rises(side, rating, month, len(ids))
    members_of = np.isin(group, closed)
    members = np.flatnonzero(members_of)
    order = np.lexsort((ids[members], group[members]))
    members = members[order]
    member_group = group[members]
    starts = (
        np.flatnonzero(np.concatenate(([True], member_group[1:] != member_group[:-1]))) if len(members) else members
    )
    winners = ring_winners(games, (group, side, other, month), closed, uncertainty, ids)
    rises_of = rises[members]
    return Pools(
        members=ids[members],
        start=starts,
        size=size[member_group[starts]],
        share=share[member_group[starts]],
        rise=np.add.reduceat(rises[members], starts) / size[member_group[starts]] if len(starts) else np.zeros(0),
        rose=np.add.reduceat(rises_of > 0, starts) / size[member_group[starts]] if len(starts) else np.zeros(0),
        **{name: column[member_group[starts]] for name, column in winners.items() if name != "winner_index"},
        winner_rise=rises[winners["winner_index"][member_group[starts]]],
    )


def games_around_ties(games: RatedGames, month: np.ndarray, scope: np.ndarray):
    """The games that decide the groups tied through a pair that met in ``scope``'s events:
    every game of their members, found by widening from the scope's tied pairs to the players
    tied to them until no one is added, so that each group, its games within and its members'
    rises are those of all the games. Returns them, their months, and every player's games in
    all of ``games`` (a function of sorted ids), which a tie and a share are counted against."""
    _, player, _, _, _, _ = games.sides()
    ids, counted = tally(player)
    rated = np.flatnonzero((games.white_rating != UNRATED) & (games.black_rating != UNRATED))
    white, black = games.white[rated], games.black[rated]

    def totals_of(wanted):
        return counted[find_sorted(ids, wanted)[1]]

    keys = game_pairs(games)[0][rated]
    members = tied_players(*pairs_met_in(games, scope, rated_only=True), totals_of)
    while True:
        chosen = is_in(white, members) | is_in(black, members)
        # Every game of a pair with a member is here: their meetings are all counted.
        widened = distinct(np.concatenate((members, tied_players(*runs(np.sort(keys[chosen])), totals_of))))
        if len(widened) == len(members):
            break
        members = widened
    kept = rated[chosen]
    return games.take(kept), month[kept], totals_of


def tied_players(pairs: np.ndarray, counts: np.ndarray, totals_of) -> np.ndarray:
    """The players of ``pairs`` (pair keys) tied by their ``counts`` of games together."""
    a, b = key_parts(pairs)
    tied = (counts >= 2) & (counts >= TIE * totals_of(a)) & (counts >= TIE * totals_of(b))
    return distinct(np.concatenate((a[tied], b[tied])))


def sides_month(games: RatedGames, month: np.ndarray) -> np.ndarray:
    """Each game's month, in the order of games.sides()."""
    both = (games.white_rating != UNRATED) & (games.black_rating != UNRATED)
    return np.concatenate((month[both], month[both]))


def components(count: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The connected sets of ``count`` nodes joined by the edges (a, b): each node's smallest
    member, by propagating the smallest label along the edges until nothing changes."""
    label = np.arange(count)
    while True:
        low = np.minimum(label[a], label[b])
        new = label.copy()
        np.minimum.at(new, a, low)
        np.minimum.at(new, b, low)
        new = new[new]  # follow the labels a step: long chains settle in fewer rounds
        if np.array_equal(new, label):
            return label
        label = new


def player_rises(side: np.ndarray, rating: np.ndarray, month: np.ndarray, count: int) -> np.ndarray:
    """Each player's rating used in their last month less the one in their first."""
    order = np.lexsort((month, side))
    side, rating = side[order], rating[order]
    first = np.searchsorted(side, np.arange(count), "left")
    last = np.searchsorted(side, np.arange(count), "right") - 1
    played = last >= first
    rises = np.zeros(count, dtype=np.int64)
    rises[played] = rating[last[played]] - rating[first[played]]
    return rises


def shares_in_months_met(group, side, other, month, size) -> np.ndarray:
    """Each group's share of its members' games that are within it, over the months with a game
    within it (by group label; 0 where it has none). Every side of a member's games is here
    (``games_around_ties`` keeps them all)."""
    within = group[side] == group[other]
    span = int(month.max()) + 1 if len(month) else 1
    key = group[side].astype(np.int64) * span + month
    met = distinct(key[within])
    counted = is_in(key, met) & (size[group[side]] >= MIN_SIZE)
    played = np.bincount(group[side][counted], minlength=len(size))
    inside = np.bincount(group[side][within & counted], minlength=len(size))
    return np.divide(inside, played, out=np.zeros(len(size)), where=played > 0)


def ring_winners(games, sides, closed, uncertainty, ids) -> dict:
    """For each group label of ``closed``, its member whose score in the games within it is the
    least likely, read generously (model.GENEROUS spreads in their favour): their games, half
    points, expected half points at the ratings used, and the chance of at least that score.
    ``sides``: each side's group, player and opponent (indexes of ``ids``) and month. Every game
    is read at the two players' ratings of their first month in the ring, the difference the
    less certain the further on (as a pair's: pairings.DRIFT): a winner's rise must not make
    their later wins look likely. Columns indexed by group label."""
    group, side, other, month = sides
    count = len(group)
    columns = {
        "winner_index": np.zeros(count, dtype=np.int64),
        "winner": np.zeros(count, dtype=np.int64),
        "winner_games": np.zeros(count, dtype=np.int64),
        "winner_halves": np.zeros(count, dtype=np.int64),
        "winner_expected": np.zeros(count),
        "winner_upper": np.ones(count),
    }
    _, _, _, rating, opponents, halves = games.sides()
    within = (group[side] == group[other]) & is_in(group[side], closed)
    if not within.any():
        return columns
    member, opponent, rating, opponents, halves = (
        side[within],
        other[within],
        rating[within],
        opponents[within],
        halves[within],
    )
    month = month[within]
    rows, row = np.unique(member, return_inverse=True)
    first_month = np.full(count, np.iinfo(np.int64).max)
    np.minimum.at(first_month, member, month)
    at_first = month == first_month[member]
    first_rating = np.bincount(member[at_first], weights=rating[at_first], minlength=count) / np.maximum(
        np.bincount(member[at_first], minlength=count), 1
    )
    drift = np.hypot(
        DRIFT + JUNIOR_DRIFT * uncertainty.is_junior(ids[member]),
        DRIFT + JUNIOR_DRIFT * uncertainty.is_junior(ids[opponent]),
    )
    spread = np.hypot(uncertainty.spread(ids[rows])[row], drift * (month - first_month[member]))
    read, their = first_rating[member], first_rating[opponent]
    level = (read + their) / 2
    win, draw = model.outcomes(read + model.GENEROUS * spread - their, level)
    upper = score_tails(row, win, draw, halves)[0]
    # A feeder, who loses far more among them than is likely, read as weak as is plausible: a ring
    # that rises on its feeders has no one winner.
    win, draw = model.outcomes(read - model.GENEROUS * spread - their, level)
    upper = np.minimum(upper, score_tails(row, win, draw, halves)[1])
    played = np.bincount(row, minlength=len(rows))
    scored = np.bincount(row, weights=halves, minlength=len(rows)).astype(np.int64)
    expected = np.bincount(row, weights=2 * model.expected(rating - opponents), minlength=len(rows))
    # The least likely member of each group first.
    order = np.lexsort((upper, group[rows]))
    lead = order[np.unique(group[rows][order], return_index=True)[1]]
    at = group[rows][lead]
    columns["winner_index"][at] = rows[lead]
    columns["winner"][at] = ids[rows[lead]]
    columns["winner_games"][at] = played[lead]
    columns["winner_halves"][at] = scored[lead]
    columns["winner_expected"][at] = expected[lead]
    columns["winner_upper"][at] = upper[lead]
    return columns
