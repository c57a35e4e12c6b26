"""Repeated pairings: two players meeting far more often than their events make likely, with
one-sided results (docs/integrity.md).

In an event of s players where each plays r games, two given players meet r / (s - 1) times on
average (a Swiss pairs by score, but over a year the chance evens out; a round robin gives its
cycles, a match its games). A pair's expected meetings are that, summed over the events both
played. A pair is flagged when it met at least MIN_MEETINGS times, SURPLUS times its
expectation or more, and one side's score over their games is at most ONE_SIDED likely.
"""

from dataclasses import dataclass

import numpy as np

from grading.engine.arrays import distinct, find_sorted, is_in, runs, spans
from grading.integrity.detectors import model
from grading.integrity.detectors.improbable import (
    UNRATED,
    RatedGames,
    expected_score,
    form_of,
    form_shifts,
    key_parts,
    player_spreads,
    row_keys,
)
from grading.integrity.detectors.tails import score_tails

MIN_MEETINGS = 4
SURPLUS = 3.0
ONE_SIDED = 0.002  # of a pair that met SURPLUS times what their events make likely
ONE_SIDED_ALONE = 0.001  # of any pair, however often their events made them meet (a match, a club)
# Of a pair that met mostly in matches: a federation plays far fewer matches a year than its
# clubs' pairs meet, so the same few chance flags allow a higher threshold.
ONE_SIDED_MATCH = 0.01
DRIFT = 7.0  # rating points a month a strength may move from the first meeting's rating
JUNIOR_DRIFT = 40.0  # and a junior's more (juniors rise by hundreds a year)


@dataclass(frozen=True)
class Pairings:
    """One row a pair that met at least MIN_MEETINGS times: the two players (``first`` the one
    who scored more), their games, the meetings their events make likely, the first's half points
    and the probability of scoring at least that many."""

    first: np.ndarray
    second: np.ndarray
    meetings: np.ndarray
    expected_meetings: np.ndarray
    match_meetings: np.ndarray  # those in two-player events
    halves: np.ndarray
    upper: np.ndarray

    def flagged(self) -> np.ndarray:
        surplus = (self.meetings >= SURPLUS * self.expected_meetings) & (self.upper <= ONE_SIDED)
        matches = (2 * self.match_meetings >= self.meetings) & (self.upper <= ONE_SIDED_MATCH)
        return surplus | matches | (self.upper <= ONE_SIDED_ALONE)


def repeated_pairings(
    games: RatedGames, scope: np.ndarray | None = None, uncertainty=None, month: np.ndarray | None = None
) -> Pairings:
    """The pairs that met at least MIN_MEETINGS times in ``games``; with ``scope`` (event ids,
    sorted), only the pairs that met in one of those events. ``uncertainty``: each player's
    uncertainty (improbable.player_spreads), by default read from ``games`` alone."""
    uncertainty = uncertainty or player_spreads(games, None, None)
    totals_of = form_of(games)  # over all the games given, before the candidates' are taken
    month = np.zeros(len(games.event), dtype=np.int64) if month is None else month
    if scope is not None:
        games, wanted, month = games_of_candidates(games, scope, month)
    found = pairings_of(games, uncertainty, totals_of, month)
    if scope is None:
        return found
    kept = np.isin(pair_key(found.first, found.second), wanted)
    return Pairings(*(getattr(found, name)[kept] for name in Pairings.__dataclass_fields__))


def pair_key(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """One number for each pair of players, whichever comes first (``key_parts`` splits it)."""
    return row_keys(np.minimum(a, b), np.maximum(a, b))


def game_pairs(games: RatedGames) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each game's ``pair_key``, and every pair's key (sorted) with its number of games: sorted
    once for the games given (the pairings and the pools both ask), kept beside them."""
    if "_pairs" not in games.__dict__:
        keys = pair_key(games.white, games.black)
        games.__dict__["_pairs"] = (keys, *runs(np.sort(keys)))
    return games.__dict__["_pairs"]


def pairs_met_in(games: RatedGames, scope: np.ndarray, rated_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (``pair_key``s, sorted) that met in an event of ``scope``, and how many times
    each met in all the games; with ``rated_only``, both counting only games where both sides
    had a rating (the games of an unrated side taken off the counts of all)."""
    keys, pairs, meetings = game_pairs(games)
    chosen = is_in(games.event, scope)
    unrated = (games.white_rating == UNRATED) | (games.black_rating == UNRATED)
    if rated_only:
        chosen &= ~unrated
    met = distinct(keys[chosen])
    counts = meetings[find_sorted(pairs, met)[1]]
    if rated_only and unrated.any():
        less, fewer = runs(np.sort(keys[unrated]))
        found, at = find_sorted(less, met)
        counts = counts - np.where(found, fewer[at], 0)
    return met, counts


def games_of_candidates(games: RatedGames, scope: np.ndarray, month: np.ndarray):
    """The candidates, pairs that met in an event of ``scope`` and MIN_MEETINGS times or more in
    all, and the games that decide them: every game of the events either player of a candidate
    played, so that their meetings and the meetings their events make likely are those of all
    the games."""
    met, meetings = pairs_met_in(games, scope)
    wanted = met[meetings >= MIN_MEETINGS]
    players = np.concatenate(key_parts(wanted))
    played = is_in(games.white, players) | is_in(games.black, players)
    kept = is_in(games.event, games.event[played])
    return games.take(kept), wanted, month[kept]


def pairings_of(games: RatedGames, uncertainty, totals_of, month) -> Pairings:
    event, player, opponent, rating, opponents, halves = games.sides()
    low = player < opponent  # each game once, from the side of the lower id
    pair_low, pair_high = player[low], opponent[low]
    side_month = games.sides_month(month)[low]
    order = np.lexsort((side_month, pair_high, pair_low))  # each pair's games in the order of their months
    pair_low, pair_high = pair_low[order], pair_high[order]
    new = np.ones(len(pair_low), dtype=bool)
    new[1:] = (pair_low[1:] != pair_low[:-1]) | (pair_high[1:] != pair_high[:-1])
    starts = np.flatnonzero(new)
    meetings = np.diff(np.append(starts, len(pair_low)))
    many = meetings >= MIN_MEETINGS
    first, second = pair_low[starts][many], pair_high[starts][many]
    # The candidates' games, from the lower id's side, and its score over them.
    pair_of_game = np.repeat(np.arange(len(starts)), meetings)
    candidate = np.full(len(starts), -1)
    candidate[many] = np.arange(int(many.sum()))
    chosen = candidate[pair_of_game] >= 0
    group = candidate[pair_of_game][chosen]
    lows_rating, lows_opponents = rating[low][order][chosen], opponents[low][order][chosen]
    lows_halves = halves[low][order][chosen]
    lows_month = side_month[order][chosen]
    # Each player read at their form in their games besides the pair's (improbable.form_shifts),
    # their spread narrowed by those games; each tail read with the pair's difference as generous
    # as is plausible to the side it asks about.
    met = meetings[many]
    low_surplus = np.bincount(
        group, weights=lows_halves / 2 - expected_score(lows_rating, lows_opponents), minlength=len(first)
    )
    (first_surplus, first_games), (second_surplus, second_games) = totals_of(first), totals_of(second)
    first_shift = form_shifts(first_surplus - low_surplus, first_games - met)
    second_shift = form_shifts(second_surplus + low_surplus, second_games - met)
    spread = np.hypot(
        uncertainty.spread(first, other_games=first_games - met),
        uncertainty.spread(second, other_games=second_games - met),
    )
    spread = spread[group] if len(group) else np.zeros(0)
    # Every meeting read at the ratings of the pair's first (results arranged between them move
    # their ratings apart, which must not make the later ones look likely), the pair's difference
    # the less certain the further on: each strength drifts DRIFT a month, a junior's more.
    first_meeting = first_of_groups(group)
    elapsed = lows_month - lows_month[first_meeting][group]
    drift = np.hypot(*(DRIFT + JUNIOR_DRIFT * uncertainty.is_junior(players)[group] for players in (first, second)))
    spread = np.sqrt(np.square(spread) + np.square(drift * elapsed)) if len(group) else spread
    now = lows_rating - lows_opponents
    at_first = now[first_meeting][group]
    level = (lows_rating + lows_opponents) / 2
    shift = first_shift[group] - second_shift[group]
    # A difference that moved in a side's favour since the first meeting (its own wins may have
    # moved it) counts as it stood then; one that moved against it (the other rose) as it is.
    upper_difference, lower_difference = np.minimum(now, at_first) + shift, np.maximum(now, at_first) + shift
    low_upper = score_tails(group, *model.outcomes(upper_difference + model.GENEROUS * spread, level), lows_halves)[0]
    low_lower = score_tails(group, *model.outcomes(lower_difference - model.GENEROUS * spread, level), lows_halves)[1]
    low_halves = np.bincount(group, weights=lows_halves, minlength=len(first)).astype(np.int64)
    low_won = low_halves >= met  # the lower id scored at least half the points: they are "first"
    expected, in_matches = expected_meetings(event, player, first, second)
    return Pairings(
        first=np.where(low_won, first, second),
        second=np.where(low_won, second, first),
        meetings=met,
        expected_meetings=expected,
        match_meetings=in_matches,
        halves=np.where(low_won, low_halves, 2 * met - low_halves),
        upper=np.where(low_won, low_upper, low_lower),
    )


def first_of_groups(group: np.ndarray) -> np.ndarray:
    """For each group (0 to m - 1, its rows together and in order), the index of its first row."""
    return np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1]))) if len(group) else group


def expected_meetings(event: np.ndarray, player: np.ndarray, first: np.ndarray, second: np.ndarray):
    """For each pair, the sum over the events both played of r / (s - 1): s the event's players,
    r the most games one of them played (the event's rounds, for a player who played them all);
    and the games of the two-player events both played (their matches)."""
    events, event_index = np.unique(event, return_inverse=True)
    _, player_index = np.unique(np.concatenate((player, first, second)), return_inverse=True)
    side_player = player_index[: len(player)]
    side_key = side_player.astype(np.int64) * len(events) + event_index
    entry_key = np.unique(side_key)
    entry_player, entry_event = entry_key // len(events), entry_key % len(events)
    size = np.bincount(entry_event, minlength=len(events))
    games_of_entry = np.bincount(np.searchsorted(entry_key, side_key), minlength=len(entry_key))
    rounds = np.zeros(len(events), dtype=np.int64)
    np.maximum.at(rounds, entry_event, games_of_entry)
    per_meeting = rounds / np.maximum(size - 1, 1)
    # The first's events, each kept where the second played it too.
    a = player_index[len(player) : len(player) + len(first)]
    b = player_index[len(player) + len(first) :]
    from_, to = np.searchsorted(entry_player, a, "left"), np.searchsorted(entry_player, a, "right")
    pair = np.repeat(np.arange(len(first)), to - from_)
    shared_event = entry_event[spans(from_, to)]
    both, _ = find_sorted(entry_key, b[pair].astype(np.int64) * len(events) + shared_event)
    expected = np.bincount(pair[both], weights=per_meeting[shared_event[both]], minlength=len(first))
    in_matches = np.bincount(pair[both], weights=(rounds * (size == 2))[shared_event[both]], minlength=len(first))
    return expected, in_matches.astype(np.int64)
