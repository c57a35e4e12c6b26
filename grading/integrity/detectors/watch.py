"""Every detector over a window of games (a year's), as the monthly scan, an event's scan and the
bench all run them (docs/integrity.md): one function, so that what the bench measures is what
officers see.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.arrays import distinct, find_sorted, is_in
from grading.integrity.detectors.events import ArbiterShares, EventFlags, arbiter_shares, event_flags
from grading.integrity.detectors.improbable import (
    IMPROBABLE,
    EventScores,
    RatedGames,
    event_scores,
    key_parts,
    player_spreads,
    row_keys,
)
from grading.integrity.detectors.newcomers import NewcomerGroups, newcomer_groups
from grading.integrity.detectors.pairings import Pairings, pair_key, repeated_pairings
from grading.integrity.detectors.pools import Pools, closed_pools
from grading.integrity.detectors.sandbagging import (
    FELL,
    WITHIN,
    Sandbagging,
    possible_drops,
    possible_rebounds,
    sandbagging,
)


@dataclass(frozen=True)
class Events:
    """The events of the games: ids (sorted), each one's month index and arbiter (0 for none)."""

    id: np.ndarray
    month: np.ndarray
    arbiter: np.ndarray

    def at(self, event: np.ndarray) -> np.ndarray:
        """The rows of ``event`` (ids, every one of them among these)."""
        return find_sorted(self.id, event)[1]


@dataclass(frozen=True)
class Findings:
    scores: EventScores  # the players read at their form: improbable results
    plain: EventScores  # read at their ratings alone: sandbagging's drops and rebounds
    pairings: Pairings
    sandbagging: Sandbagging
    pools: Pools
    events: EventFlags
    arbiters: ArbiterShares
    threshold: float  # the chance at or under which a player's score in an event is flagged
    flagged_keys: np.ndarray  # row_keys of (event, player) flagged by any detector, sorted
    newcomers: NewcomerGroups

    def flagged_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(event, player) of every player of an event that a detector flagged in it."""
        return key_parts(self.flagged_keys)

    def flagged_events(self) -> np.ndarray:
        """The events flagged (sorted ids): of a flagged row, or flagged as events."""
        return distinct(np.concatenate((key_parts(self.flagged_keys)[0], self.events.event[self.events.flagged()])))

    @property
    def chance_flags(self) -> float:
        """How many improbable results a scan of this many scores would flag by chance alone at
        ``threshold``: each score's stated chance is at most its true one, so at most this."""
        return len(self.scores.event) * self.threshold


def watch(
    games: RatedGames,
    month: np.ndarray,
    events: Events,
    scope: np.ndarray | None = None,
    *,
    threshold: float = IMPROBABLE,
    juniors: np.ndarray | None = None,
) -> Findings:
    """Every detector over ``games``, ``month`` each game's month index, ``events`` theirs. With
    ``scope`` (event ids, sorted: a month's), what concerns those events, read against all the
    games given (a year's): the players and pairs of the scope, the events around a sudden drop
    or rise in it, every closed pool; the arbiters' shares over the scope's events. A score is
    an improbable result at a chance of ``threshold`` or less. ``juniors`` (player ids), whose
    strength is less certain than their rating says, are read more generously."""
    uncertainty = player_spreads(games, month, juniors)
    scores = event_scores(games, scope=scope, month=month, uncertainty=uncertainty, lower=False)  # upper tails read
    pairs = repeated_pairings(games, scope, uncertainty, month)
    plain = event_scores(games, form=False, scope=scope, month=month, uncertainty=uncertainty)
    if scope is not None:
        # Each row at the ratings alone stands by itself: the rows of the events around are added.
        around = np.setdiff1d(around_drops_and_rebounds(games, month, events, plain, scope), scope)
        plain = plain.joined(event_scores(games, form=False, scope=around, month=month, uncertainty=uncertainty))
    sandbags = sandbagging(plain, events.month[events.at(plain.event)])
    pools = closed_pools(games, month, scope, uncertainty)
    newcomers = newcomer_groups(games, scope)
    flagged = scores.flagged(threshold) | sandbagged_rows(scores, sandbags) | paired_rows(scores, games, pairs)
    flagged |= pooled_rows(scores, games, pools)
    by_event = event_flags(scores.event, scores.player, flagged, pools)
    arbiters = arbiter_shares(events.arbiter[events.at(by_event.event)], by_event.flagged())
    keys = distinct(
        np.concatenate((row_keys(scores.event[flagged], scores.player[flagged]), newcomer_rows(games, newcomers)))
    )
    return Findings(scores, plain, pairs, sandbags, pools, by_event, arbiters, threshold, keys, newcomers)


def around_drops_and_rebounds(
    games: RatedGames, month: np.ndarray, events: Events, plain: EventScores, scope: np.ndarray
) -> np.ndarray:
    """The scope's events and, for each player with a possible drop in them, or a possible
    rebound after a rating used FELL higher within WITHIN months, their events within WITHIN
    months either side: where the other half of a sandbagging would be (sorted ids)."""
    months = events.month[events.at(scope[is_in(scope, events.id)])]  # those with games here
    if not len(months):
        return scope
    low, high = months.min() - WITHIN, months.max() + WITHIN
    drops = possible_drops(plain)
    rebounds = np.flatnonzero(possible_rebounds(plain))
    players = distinct(plain.player[rebounds])
    theirs = is_in(games.white, players) | is_in(games.black, players)
    theirs &= (month >= low) & (month <= high)
    side_player = np.concatenate((games.white[theirs], games.black[theirs]))
    side_rating = np.concatenate((games.white_rating[theirs], games.black_rating[theirs]))
    highest = np.zeros(len(players), dtype=np.int64)
    np.maximum.at(highest, find_sorted(players, side_player)[1], side_rating)
    fell = highest[find_sorted(players, plain.player[rebounds])[1]] >= plain.rating[rebounds] + FELL
    candidates = distinct(np.concatenate((plain.player[drops], plain.player[rebounds[fell]])))
    played = is_in(games.white, candidates) | is_in(games.black, candidates)
    theirs = distinct(games.event[played])
    began = events.month[events.at(theirs)]
    return distinct(np.concatenate((scope, theirs[(began >= low) & (began <= high)])))


def sandbagged_rows(scores: EventScores, sandbags: Sandbagging) -> np.ndarray:
    """Whether each row (a player in an event) is a flagged drop or rebound."""
    keys = row_keys(scores.event, scores.player)
    found = np.concatenate(
        (row_keys(sandbags.drop_event, sandbags.player), row_keys(sandbags.rebound_event, sandbags.player))
    )
    return np.isin(keys, found)


def paired_rows(scores: EventScores, games: RatedGames, pairs: Pairings) -> np.ndarray:
    """Whether each row (a player in an event) played a flagged pair's game in that event."""
    flagged = pairs.flagged()
    wanted = pair_key(pairs.first[flagged], pairs.second[flagged])
    met = np.isin(pair_key(games.white, games.black), wanted)
    found = np.concatenate((row_keys(games.event[met], games.white[met]), row_keys(games.event[met], games.black[met])))
    return np.isin(row_keys(scores.event, scores.player), found)


def pooled_rows(scores: EventScores, games: RatedGames, pools: Pools) -> np.ndarray:
    """Whether each row (a player in an event) is a flagged pool's member who played another
    member in that event."""
    ends = np.append(pools.start[1:], len(pools.members))
    flagged = pools.flagged()
    members = pools.members[np.repeat(flagged, ends - pools.start)] if len(pools.members) else pools.members
    within = is_in(games.white, members) & is_in(games.black, members)
    found = np.concatenate(
        (row_keys(games.event[within], games.white[within]), row_keys(games.event[within], games.black[within]))
    )
    return np.isin(row_keys(scores.event, scores.player), found)


def newcomer_rows(games: RatedGames, newcomers: NewcomerGroups) -> np.ndarray:
    """The row_keys of the players of flagged newcomer groups' games (members and hosts), in the
    events of those games."""
    rows = [np.zeros(0, dtype=np.int64)]
    for row in np.flatnonzero(newcomers.flagged()).tolist():
        at = newcomers.games_of(row, games)
        rows += [row_keys(games.event[at], games.white[at]), row_keys(games.event[at], games.black[at])]
    return np.concatenate(rows)
