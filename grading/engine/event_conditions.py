"""Which games of an event a list rated by the Elo method counts: FIDE's conditions on the whole
event (docs/rules.md part 4, section 16). Pure Python and numpy: the events' facts in, for each
game either nothing (this part leaves it to sections 11 and 12) or the reason it is not rated.

Every condition reads the whole event, all its games in every month it spans, so that an event
is decided once, alike in each period it touches. A run decides every event of a month at once
(``EventColumns``, a national month has half a million games); ``games_not_rated`` decides one
event (``EventFacts``) the same way, for the pages that show an event before it is rated.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from chess.dates import LONGEST_DAYS
from grading.engine.arrays import distinct, runs
from grading.engine.rate_of_play import event_text, game_reasons, minutes_text
from grading.engine.rule_sets import RuleSet

ROUND_ROBIN_PLAYERS = 3
ROUND_ROBIN_ROUNDS = 4  # with unrated players
DOUBLE_ROUND_ROBIN_PLAYERS = 6  # with unrated players
UNRATED = 0  # a rating used, in EventColumns: the player was unrated at the event's start
NO_ROUND = 0  # a game's round, in EventColumns: the file gives none


@dataclass(frozen=True)
class EventColumns:
    """The games of many events, one entry per game in any order, and their events' facts, one
    entry per event. A player is any integer key (a run's player ids)."""

    event: np.ndarray  # int64: the game's event, an index into the per-event columns
    white: np.ndarray  # int64
    black: np.ndarray  # int64
    white_halves: np.ndarray  # white's score in half points
    round: np.ndarray  # int64, NO_ROUND where the file gives none
    day: np.ndarray  # datetime64[D], NaT where the file gives none
    white_rating_used: np.ndarray  # int64: each side's rating at its event's start (section 10),
    black_rating_used: np.ndarray  # UNRATED where there was none
    first_day: np.ndarray  # datetime64[D], by event
    last_day: np.ndarray  # datetime64[D], by event
    minutes_for_60: Sequence[Fraction | int | None]  # each player's, increments included; None: none given
    first_control_minutes: Sequence[Fraction | int | None]  # with more than one control: the first's
    scheduled_rounds: Sequence[int | None]  # the file's number of rounds (TRF XXR)
    length_approved: Sequence[bool]  # by a rating officer (section 16.3)
    # Section 17.5 (FIDE's 2024 rules), by event: the moves of the first time control where it
    # names a number of moves (None: it does not, or no control); whether a rating officer
    # approved the event as fast classic (rated as standard play whatever the ratings).
    first_control_moves: Sequence[int | None] | None = None
    fast_classic: Sequence[bool] | None = None


@dataclass(frozen=True)
class NotRated:
    """Why games are not rated: ``reason`` holds, by game, an index into ``texts``, or -1 where
    this part does not stop the game."""

    reason: np.ndarray
    texts: list[str]

    def text(self, game: int) -> str | None:
        at = int(self.reason[game])
        return None if at < 0 else self.texts[at]

    @property
    def left_out(self) -> np.ndarray:
        return self.reason >= 0


@dataclass(frozen=True)
class EventGame:
    """A rated game of the event (section 2): its two players, white's score in half points,
    its round and its date (None: the file gives none)."""

    white: int
    black: int
    white_halves: int
    round: int | None
    date: datetime.date | None = None


@dataclass(frozen=True)
class EventFacts:
    """One event as the conditions read it. ``rating_used`` holds every player of its games:
    their rating used at the event's start (section 10), None for an unrated player."""

    rating_used: Mapping[int, int | None]
    games: Sequence[EventGame]
    first_day: datetime.date
    last_day: datetime.date
    minutes_for_60: Fraction | int | None = None
    first_control_minutes: Fraction | int | None = None
    scheduled_rounds: int | None = None
    length_approved: bool = False
    first_control_moves: int | None = None  # section 17.5
    fast_classic: bool = False  # section 17.5: approved by a rating officer

    def columns(self) -> EventColumns:
        def used(player):
            return self.rating_used.get(player) or UNRATED

        games = list(self.games)
        return EventColumns(
            event=np.zeros(len(games), dtype=np.int64),
            white=np.array([game.white for game in games], dtype=np.int64),
            black=np.array([game.black for game in games], dtype=np.int64),
            white_halves=np.array([game.white_halves for game in games], dtype=np.int64),
            round=np.array([game.round or NO_ROUND for game in games], dtype=np.int64),
            day=np.array([game.date or "NaT" for game in games], dtype="datetime64[D]"),
            white_rating_used=np.array([used(game.white) for game in games], dtype=np.int64),
            black_rating_used=np.array([used(game.black) for game in games], dtype=np.int64),
            first_day=np.array([self.first_day], dtype="datetime64[D]"),
            last_day=np.array([self.last_day], dtype="datetime64[D]"),
            minutes_for_60=[self.minutes_for_60],
            first_control_minutes=[self.first_control_minutes],
            scheduled_rounds=[self.scheduled_rounds],
            length_approved=[self.length_approved],
            first_control_moves=[self.first_control_moves],
            fast_classic=[self.fast_classic],
        )


def games_not_rated(facts: EventFacts, rules: RuleSet, blitz: bool = False) -> list[str | None]:
    """For each game of one event, in order: None where this part does not stop it, else why
    it is not rated ("not rated: ..."). ``blitz``: the list's band is blitz (section 17.6)."""
    result = events_not_rated(facts.columns(), rules, blitz)
    return [result.text(game) for game in range(len(facts.games))]


def events_not_rated(columns: EventColumns, rules: RuleSet, blitz: bool = False) -> NotRated:
    """Why each game of ``columns`` is not rated, if it is not. Lists rated by the ECF method
    have no such conditions. What applies to a whole event is worked out for all events at
    once; only matches and round robins, a few events, are read game by game. Under FIDE's 2024
    rules the rate of play is decided game by game (section 17.5), and ``blitz`` says the
    list's band is blitz, not rapid (section 17.6, rate_of_play.is_blitz_band)."""
    c = columns
    reason = np.full(len(c.event), -1, dtype=np.int64)
    if not rules.is_elo or not len(c.event):
        return NotRated(reason, [])
    events = len(c.first_day)
    entrants = Entrants(c, events)
    days = (c.last_day - c.first_day).astype(np.int64)
    highest = np.zeros(events, dtype=np.int64)
    np.maximum.at(highest, c.event, np.maximum(c.white_rating_used, c.black_rating_used))
    twelve_hours = rules.playing_time_conditions or rules.game_rate_of_play
    busiest = busiest_days(c, entrants, days) if twelve_hours else None

    texts: list[str] = []
    codes: dict[str, int] = {}

    def code(text):
        if text not in codes:
            codes[text] = len(texts)
            texts.append(text)
        return codes[text]

    by_event = np.full(events, -1, dtype=np.int64)
    for event in range(events):
        text = event_text(c, event, rules, int(highest[event]), busiest, blitz)
        text = text or event_length(int(days[event]), c.length_approved[event])
        if text:
            by_event[event] = code(text)
    reason[:] = by_event[c.event]

    players = entrants.per_event(events)
    rounds = round_robins(c, entrants, players)
    undecided = by_event < 0
    for event, games in games_of(c, np.flatnonzero(undecided & ((players == 2) | (rounds > 0)))):
        if players[event] == 2:
            texts_of_games = match_games(c, event, games)
        else:
            texts_of_games = round_robin_games(c, games, int(rounds[event]))
        for game, text in zip(games.tolist(), texts_of_games):
            if text:
                reason[game] = code(text)
    if rules.game_rate_of_play or rules.rapid_and_blitz:
        game_reasons(rules, c, reason, code)
    return NotRated(reason, texts)


class Entrants:
    """The players of each event, as sorted integer keys ``event x width + player``: a month's
    half a million games are counted by sorting numbers, not by grouping objects."""

    def __init__(self, c: EventColumns, events: int):
        white, black = c.white, c.black
        width = int(max(white.max(), black.max())) + 1
        if min(white.min(), black.min()) < 0 or events * width * width >= 2**62:
            # Keys that would not fit: the players numbered from 0 instead.
            _, numbers = np.unique(np.concatenate([white, black]), return_inverse=True)
            white, black = np.split(numbers.astype(np.int64), 2)
            width = int(numbers.max()) + 1
        self.width = width
        self.white, self.black = white, black  # each game's players, as numbered here
        self.sides = np.concatenate([c.event * width + white, c.event * width + black])
        self.keys = distinct(self.sides)
        self.event = self.keys // width

    def per_event(self, events: int) -> np.ndarray:
        return np.bincount(self.event, minlength=events)


def busiest_days(c: EventColumns, entrants: Entrants, days: np.ndarray) -> np.ndarray:
    """By event, the most games one of its players has on one date (section 16.2). A player's
    undated games are spread evenly over the event's days: the busiest of those days has the
    whole number of games at or above the average, on top of its dated ones."""
    day = np.concatenate([c.day, c.day])
    dated = ~np.isnat(day)
    most = np.zeros(len(entrants.keys), dtype=np.int64)
    if dated.any():
        ordinal = day[dated].astype(np.int64)
        span = int(ordinal.max() - ordinal.min()) + 1
        sides = entrants.sides[dated]
        numbered = int(entrants.keys[-1]) * span >= 2**62
        if numbered:  # keys that would not fit: the event's players numbered from 0 instead
            sides = np.searchsorted(entrants.keys, sides)
        player_days, games = runs(np.sort(sides * span + (ordinal - ordinal.min())))
        player = player_days // span
        firsts = np.flatnonzero(np.diff(player, prepend=-1))  # sorted: each player's days together
        at = player[firsts] if numbered else np.searchsorted(entrants.keys, player[firsts])
        most[at] = np.maximum.reduceat(games, firsts)
    if not dated.all():
        undated, count = runs(np.sort(entrants.sides[~dated]))
        event_days = np.maximum(days + 1, 1)[undated // entrants.width]
        most[np.searchsorted(entrants.keys, undated)] += -(-count // event_days)
    busiest = np.zeros(len(days), dtype=np.int64)
    np.maximum.at(busiest, entrants.event, most)
    return busiest


def round_robins(c: EventColumns, entrants: Entrants, players: np.ndarray) -> np.ndarray:
    """Section 16.4, by event: k when every two of at least three players met k times (1: a
    single, 2: a double round robin), else 0. Found from the pairings alone."""
    width = entrants.width
    low, high = np.minimum(entrants.white, entrants.black), np.maximum(entrants.white, entrants.black)
    pairs, met = runs(np.sort((c.event * width + low) * width + high))
    pair_event = pairs // (width * width)
    events = len(players)
    pair_count = np.bincount(pair_event, minlength=events)
    most = np.zeros(events, dtype=np.int64)
    np.maximum.at(most, pair_event, met)
    fewest = np.full(events, np.iinfo(np.int64).max)
    np.minimum.at(fewest, pair_event, met)
    every_pair_alike = (players >= ROUND_ROBIN_PLAYERS) & (pair_count == players * (players - 1) // 2)
    return np.where(every_pair_alike & (most == fewest), most, 0)


def games_of(c: EventColumns, events: np.ndarray):
    """(event, its games' positions in order) for each of ``events``."""
    if not len(events):
        return
    positions = np.flatnonzero(np.isin(c.event, events))
    positions = positions[np.argsort(c.event[positions], kind="stable")]
    starts = np.flatnonzero(np.diff(c.event[positions], prepend=-1))
    for games in np.split(positions, starts[1:]):
        yield int(c.event[games[0]]), games


def event_length(days: int, length_approved: bool) -> str | None:
    """Section 16.3: at most 90 days, first to last, unless a rating officer approved it."""
    if days > LONGEST_DAYS and not length_approved:
        return (
            f"not rated: the event lasted {days + 1} days, more than 90, and a rating officer has not "
            "approved its length"
        )
    return None


ZERO_SCORER = "not rated: an unrated player who scored nothing in a round robin is left out with all their games"


def round_robin_games(c: EventColumns, games: np.ndarray, times: int) -> list[str | None]:
    """Section 16.4, for the games (positions) of one round robin, in that order. Unrated
    players who scored nothing are left out first, with all their games, for everyone; then,
    with unrated players left, a third of the players rated, four rounds, and six players in a
    double round robin, or no game of the event is rated."""
    white, black = c.white[games].tolist(), c.black[games].tolist()
    halves = c.white_halves[games].tolist()
    used = {
        **dict(zip(white, c.white_rating_used[games].tolist())),
        **dict(zip(black, c.black_rating_used[games].tolist())),
    }
    scored: Counter = Counter()
    for w, b, h in zip(white, black, halves):
        scored[w] += h
        scored[b] += 2 - h
    ignored = {player for player, points in scored.items() if points == 0 and used[player] == UNRATED}
    kept = [at for at, (w, b) in enumerate(zip(white, black)) if w not in ignored and b not in ignored]
    event = round_robin_reason(c, games, times, kept, used)
    if event:
        return [event] * len(games)
    kept_at = set(kept)
    return [None if at in kept_at else ZERO_SCORER for at in range(len(games))]


def round_robin_reason(c: EventColumns, games: np.ndarray, times: int, kept: list[int], used: dict) -> str | None:
    """Section 16.4 on the games kept (positions into ``games``): with unrated players, a third
    of the players rated, four rounds, and six players in a double round robin."""
    white, black = c.white[games].tolist(), c.black[games].tolist()
    players = {side for at in kept for side in (white[at], black[at])}
    rated = sum(1 for player in players if used[player] != UNRATED)
    if rated == len(players):
        return None
    kind = "double round robin" if times == 2 else "round robin"
    if 3 * rated < len(players):
        return f"not rated: a {kind} of {len(players)} players with {rated} rated; at least a third must be rated"
    numbers = c.round[games].tolist()
    if all(numbers[at] != NO_ROUND for at in kept):
        played = len({numbers[at] for at in kept})
    else:  # each player plays once a round: the rounds were at least the games of the busiest
        played = max(Counter(side for at in kept for side in (white[at], black[at])).values(), default=0)
    if played < ROUND_ROBIN_ROUNDS:
        return f"not rated: a {kind} with unrated players over {played} rounds; it needs at least {ROUND_ROBIN_ROUNDS}"
    if times == 2 and len(players) < DOUBLE_ROUND_ROBIN_PLAYERS:
        return (
            f"not rated: a double round robin of {len(players)} players with unrated players; "
            f"it needs at least {DOUBLE_ROUND_ROBIN_PLAYERS}"
        )
    return None


def match_games(c: EventColumns, event: int, games: np.ndarray) -> list[str | None]:
    """Section 16.5, for the games (positions) of one match, in that order: a match counts only
    between two rated players, and not after it was decided: once one player's points exceed
    half its scheduled games."""
    if c.white_rating_used[games[0]] == UNRATED or c.black_rating_used[games[0]] == UNRATED:
        return ["not rated: a match against an unrated player does not count"] * len(games)
    scheduled = c.scheduled_rounds[event] or len(games)
    day = c.day[games].astype(np.int64)  # NaT as the smallest integer: first, as no date
    order = np.lexsort((np.arange(len(games)), day, c.round[games]))
    halves: Counter = Counter()
    reasons: list[str | None] = [None] * len(games)
    decided = None
    for played, at in enumerate(order.tolist(), start=1):
        if decided:
            reasons[at] = decided
            continue
        game = games[at]
        halves[int(c.white[game])] += int(c.white_halves[game])
        halves[int(c.black[game])] += 2 - int(c.white_halves[game])
        if max(halves.values()) > scheduled:  # more than half the scheduled games, in half points
            high, low = sorted(halves.values(), reverse=True)
            decided = (
                f"not rated: played after the match was decided ({minutes_text(Fraction(high, 2))}-"
                f"{minutes_text(Fraction(low, 2))} after game {played} of {scheduled})"
            )
    return reasons
