"""Which games of an event a list rated by the Elo method counts: FIDE's conditions on the whole
event (docs/rules.md part 4, section 16). Pure Python: the event's facts in, for each game
either None (this part leaves it to sections 11 and 12) or the reason it is not rated.

Every condition reads the whole event, all its games in every month it spans, so that an event
is decided once, alike in each period it touches.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .rulesets import RuleSet

# Section 16.1: each player's minutes for 60 moves, by the event's highest rating used.
PLAYING_TIME = ((2200, 120), (1600, 90), (0, 60))
FIRST_CONTROL_MINUTES = 40  # with more than one control, the first gives at least this
MOST_MINUTES_A_DAY = 12 * 60  # section 16.2: of games (both clocks) for one player on one date
LONGEST_DAYS = 89  # section 16.3: the last day at most this many days after the first
ROUND_ROBIN_PLAYERS = 3
ROUND_ROBIN_ROUNDS = 4  # with unrated players
DOUBLE_ROUND_ROBIN_PLAYERS = 6  # with unrated players


@dataclass(frozen=True)
class EventGame:
    """A rated game of the event (section 2): its two players, white's score in half points,
    its round and its date (None: the file gives none)."""

    white: int
    black: int
    white_halves: int
    round: int
    date: datetime.date | None = None


@dataclass(frozen=True)
class EventFacts:
    """What the conditions read of an event. ``rating_used`` holds every player of its games:
    their rating used at the event's start (section 10), None for an unrated player."""

    rating_used: Mapping[int, int | None]
    games: Sequence[EventGame]
    first_day: datetime.date
    last_day: datetime.date
    minutes_for_60: Fraction | int | None = None  # each player's, increments included; None: none given
    first_control_minutes: Fraction | int | None = None  # with more than one control: the first's
    scheduled_rounds: int | None = None  # the file's number of rounds (TRF XXR)
    length_approved: bool = False  # by a rating officer (section 16.3)


def games_not_rated(facts: EventFacts, rules: RuleSet) -> list[str | None]:
    """For each game of ``facts``, in order: None where this part does not stop it, else why it
    is not rated ("not rated: ..."). Lists rated by the ECF method have no such conditions."""
    games = list(facts.games)
    if not rules.is_elo or not games:
        return [None] * len(games)
    reason = None
    if rules.playing_time_conditions:
        reason = playing_time(facts) or hours_a_day(facts)
    reason = reason or event_length(facts)
    if reason:
        return [reason] * len(games)
    players = {side for game in games for side in (game.white, game.black)}
    if len(players) == 2:
        return match_games(facts)
    rounds = round_robin(games, players)
    if rounds:
        reason = round_robin_reason(facts, rounds)
        return [reason] * len(games)
    return [None] * len(games)


def _minutes(value) -> str:
    """A number of minutes, hours or points as written: 120, 89.5 (one place, half up)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    tenths = int((value * 20 + 1) // 2)
    return f"{tenths // 10}.{tenths % 10}"


def playing_time(facts: EventFacts) -> str | None:
    """Section 16.1: enough time for the event's highest rating used, and a first control of
    at least 40 minutes."""
    if facts.minutes_for_60 is None:
        return "not rated: the event has no time control, and a list rated by fide-2017 needs one"
    highest = max((rating for rating in facts.rating_used.values() if rating), default=0)
    needed = next(minutes for rating, minutes in PLAYING_TIME if highest >= rating)
    if facts.minutes_for_60 < needed:
        by = f"an event with a {highest}" if highest else "an event without rated players"
        return (
            f"not rated: the time control gives {_minutes(facts.minutes_for_60)} minutes for 60 moves; "
            f"{by} needs {needed}"
        )
    if facts.first_control_minutes is not None and facts.first_control_minutes < FIRST_CONTROL_MINUTES:
        return (
            f"not rated: the first time control gives {_minutes(facts.first_control_minutes)} minutes; "
            f"it must give at least {FIRST_CONTROL_MINUTES}"
        )
    return None


def hours_a_day(facts: EventFacts) -> str | None:
    """Section 16.2: no player has more than twelve hours of games (twice the time for 60 moves
    each) on one date. A player's undated games are spread evenly over the event's days: the
    busiest of those days has the whole number of games at or above the average."""
    game_minutes = 2 * Fraction(facts.minutes_for_60)
    dated: Counter = Counter()
    undated: Counter = Counter()
    for game in facts.games:
        for player in (game.white, game.black):
            if game.date is None:
                undated[player] += 1
            else:
                dated[player, game.date] += 1
    days = (facts.last_day - facts.first_day).days + 1
    busiest: dict[int, int] = defaultdict(int)
    for (player, _), count in dated.items():
        busiest[player] = max(busiest[player], count)
    for player, count in undated.items():
        # Spread evenly, the undated games add to every day, the dated ones' busiest included.
        busiest[player] += -(-count // max(days, 1))
    most = max(busiest.values(), default=0)
    if most * game_minutes > MOST_MINUTES_A_DAY:
        hours = Fraction(most * game_minutes, 60)
        return (
            f"not rated: a player has {most} games of {_minutes(game_minutes)} minutes (both clocks) on one day, "
            f"{_minutes(hours)} hours; at most 12 are allowed"
        )
    return None


def event_length(facts: EventFacts) -> str | None:
    """Section 16.3: at most 90 days, first to last, unless a rating officer approved it."""
    days = (facts.last_day - facts.first_day).days
    if days > LONGEST_DAYS and not facts.length_approved:
        return (
            f"not rated: the event lasted {days + 1} days, more than 90, and a rating officer has not "
            "approved its length"
        )
    return None


def round_robin(games: Sequence[EventGame], players: set) -> int:
    """Section 16.4: k when every two of at least three players met k times (1: single, 2:
    double round robin), else 0. Found from the pairings alone."""
    if len(players) < ROUND_ROBIN_PLAYERS:
        return 0
    met = Counter(frozenset((game.white, game.black)) for game in games)
    pairs = len(players) * (len(players) - 1) // 2
    times = set(met.values())
    if len(met) != pairs or len(times) != 1:
        return 0
    return times.pop()


def round_robin_reason(facts: EventFacts, rounds: int) -> str | None:
    """Section 16.4: with unrated players (those who scored nothing left out, with their games),
    a third of the players rated, four rounds, and six players in a double round robin."""
    scored: Counter = Counter()
    for game in facts.games:
        scored[game.white] += game.white_halves
        scored[game.black] += 2 - game.white_halves
    ignored = {player for player, halves in scored.items() if halves == 0 and facts.rating_used.get(player) is None}
    games = [game for game in facts.games if game.white not in ignored and game.black not in ignored]
    players = {side for game in games for side in (game.white, game.black)}
    rated = sum(1 for player in players if facts.rating_used.get(player) is not None)
    if rated == len(players):
        return None
    kind = "double round robin" if rounds == 2 else "round robin"
    if 3 * rated < len(players):
        return f"not rated: a {kind} of {len(players)} players with {rated} rated; at least a third must be rated"
    played = len({game.round for game in games})
    if played < ROUND_ROBIN_ROUNDS:
        return f"not rated: a {kind} with unrated players over {played} rounds; it needs at least {ROUND_ROBIN_ROUNDS}"
    if rounds == 2 and len(players) < DOUBLE_ROUND_ROBIN_PLAYERS:
        return (
            f"not rated: a double round robin of {len(players)} players with unrated players; "
            f"it needs at least {DOUBLE_ROUND_ROBIN_PLAYERS}"
        )
    return None


def match_games(facts: EventFacts) -> list[str | None]:
    """Section 16.5: a match counts only between two rated players, and not after it was
    decided: once one player's points exceed half its scheduled games."""
    games = list(facts.games)
    if any(facts.rating_used.get(player) is None for player in (games[0].white, games[0].black)):
        return ["not rated: a match against an unrated player does not count"] * len(games)
    scheduled = facts.scheduled_rounds or len(games)
    order = sorted(range(len(games)), key=lambda at: (games[at].round, games[at].date or datetime.date.min, at))
    halves: Counter = Counter()
    reasons: list[str | None] = [None] * len(games)
    decided = None
    for played, at in enumerate(order, start=1):
        game = games[at]
        if decided:
            reasons[at] = decided
            continue
        halves[game.white] += game.white_halves
        halves[game.black] += 2 - game.white_halves
        if max(halves.values()) > scheduled:  # more than half the scheduled games, in half points
            high, low = sorted(halves.values(), reverse=True)
            decided = (
                f"not rated: played after the match was decided ({_minutes(Fraction(high, 2))}-"
                f"{_minutes(Fraction(low, 2))} after game {played} of {scheduled})"
            )
    return reasons
