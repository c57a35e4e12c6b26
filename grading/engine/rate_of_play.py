"""FIDE's 2024 conditions on the rate of play (docs/rules.md section 17.5 and 17.6): standard
play's time decided game by game from the two players' ratings used, and the rapid and blitz
lists' bands and the 600 points apart above 2600. Pure numpy; event_conditions calls it.

Each reason is a stored text, as part 4's are ("not rated: ..."); ``code`` turns a text into its
index in the run's list of texts.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import floor

import numpy as np

from grading.engine.rule_sets import RuleSet

# Section 16.1: each player's minutes for 60 moves, by the event's highest rating used.
PLAYING_TIME = ((2200, 120), (1600, 90), (0, 60))
FIRST_CONTROL_MINUTES = 40  # with more than one control, the first gives at least this
MOST_MINUTES_A_DAY = 12 * 60  # section 16.2: of games (both clocks) for one player on one date
# Section 17.5: each player's minutes for 60 moves a game needs, by the higher of its two
# players' ratings used (an unrated player counts as none).
GAME_PLAYING_TIME = ((2400, 120), (1800, 90), (0, 60))
FIRST_CONTROL_MOVES = 30  # a first control that names moves names at least this many
# Section 17.6: the bands, in minutes for 60 moves: more than the first and less than (rapid) or
# at most (blitz) the second.
RAPID_MINUTES = (10, 60)
BLITZ_MINUTES = (3, 10)
APART = 600  # ratings used this far apart or more ...
ABOVE = 2600  # ... one of them above this: not rated in rapid and blitz
BLITZ_BAND_BELOW = 11  # a list's band whose upper limit is at most this (minutes, exclusive) is blitz

APART_TEXT = (
    f"not rated: {APART} points apart above {ABOVE} (in rapid and blitz, a game between players whose ratings "
    f"differ by {APART} or more, one of them above {ABOVE}, is not rated)"
)


def is_blitz_band(min_minutes: int, max_minutes: int | None) -> bool:
    """Whether a list's band (its time controls: at least ``min_minutes`` and under
    ``max_minutes`` for 60 moves) is blitz for section 17.6: its upper limit is at most 11
    minutes, so that it holds no more than FIDE's blitz (at most 10) and whole minutes."""
    return max_minutes is not None and max_minutes <= BLITZ_BAND_BELOW


def event_rate_of_play(rules: RuleSet, minutes_for_60, blitz: bool) -> str | None:
    """What stops a whole event under FIDE's 2024 rules: no time control at all (neither the time
    a game needs nor the list's band can be told), or, on a rapid or blitz list, a time control
    outside its band."""
    if minutes_for_60 is None:
        return f"not rated: the event has no time control, and a list rated by {rules.name} needs one"
    if not rules.rapid_and_blitz:
        return None
    low, high = BLITZ_MINUTES if blitz else RAPID_MINUTES
    inside = low < minutes_for_60 <= high if blitz else low < minutes_for_60 < high
    if inside:
        return None
    if blitz:
        return (
            f"not rated: not blitz play: the time control gives {minutes_text(minutes_for_60)} minutes for 60 moves; "
            f"a blitz list rates more than {low} and at most {high}"
        )
    return (
        f"not rated: not rapid play: the time control gives {minutes_text(minutes_for_60)} minutes for 60 moves; "
        f"a rapid list rates more than {low} and less than {high}"
    )


def game_reasons(rules: RuleSet, c, reason: np.ndarray, code: Callable[[str], int]) -> None:
    """Into ``reason`` (per game, a code, -1 for none yet): the code of the reason section 17.5
    or 17.6 leaves a game out for, for the games no other condition left out. ``c`` holds the
    events' columns (event_conditions.EventColumns)."""
    if rules.rapid_and_blitz:
        white, black = c.white_rating_used, c.black_rating_used
        apart = (np.abs(white - black) >= APART) & (np.maximum(white, black) > ABOVE)
        apart &= (white > 0) & (black > 0) & (reason < 0)
        if apart.any():
            reason[apart] = code(APART_TEXT)
    if rules.game_rate_of_play:
        _standard_time(c, reason, code)


def _standard_time(c, reason: np.ndarray, code) -> None:
    """Section 17.5, into ``reason``: each game needs 120, 90 or 60 minutes for 60 moves by the
    higher of its players' ratings used, and a first control that names moves at least 30 of
    them; an event approved as fast classic is standard play whatever the ratings. Only the
    games of events short of the most a game may need are read one by one."""
    minutes, fast = c.minutes_for_60, c.fast_classic
    events = len(minutes)
    # By event: the whole minutes (minutes < needed, a whole number, exactly when floor(minutes)
    # < needed), -1 where the event has none or is fast classic (never short of time).
    whole = np.array(
        [-1 if m is None or (fast is not None and fast[e]) else floor(m) for e, m in enumerate(minutes)],
        dtype=np.int64,
    ).reshape(events)
    risky = (whole >= 0) & (whole < GAME_PLAYING_TIME[0][1])
    if risky.any():
        games = np.flatnonzero(risky[c.event] & (reason < 0))
        event = c.event[games]
        highest = np.maximum(c.white_rating_used[games], c.black_rating_used[games])
        level = np.select([highest >= rating for rating, _ in GAME_PLAYING_TIME[:-1]], [0, 1], 2)
        needed = np.array([m for _, m in GAME_PLAYING_TIME], dtype=np.int64)[level]
        short = whole[event] < needed
        if short.any():
            kinds = len(GAME_PLAYING_TIME)
            keys, inverse = np.unique(event[short] * kinds + level[short], return_inverse=True)
            texts = [_time_text(minutes[key // kinds], key % kinds) for key in keys.tolist()]
            reason[games[short]] = np.array([code(text) for text in texts], dtype=np.int64)[inverse.reshape(-1)]
    _first_control_moves(c, reason, code)


def _first_control_moves(c, reason: np.ndarray, code) -> None:
    """Section 17.5: a first control that names a number of moves names at least 30."""
    moves, fast = c.first_control_moves, c.fast_classic
    if moves is None:
        return
    few = np.array(
        [m is not None and m < FIRST_CONTROL_MOVES and not (fast is not None and fast[e]) for e, m in enumerate(moves)],
        dtype=bool,
    ).reshape(len(moves))
    if not few.any():
        return
    games = (reason < 0) & few[c.event]
    by_event = np.full(len(moves), -1, dtype=np.int64)
    for e in np.unique(c.event[games]).tolist():
        by_event[e] = code(
            f"not rated: the first time control is of {moves[e]} moves; it must be of at least {FIRST_CONTROL_MOVES}"
        )
    reason[games] = by_event[c.event[games]]


def _time_text(minutes, level: int) -> str:
    needed = GAME_PLAYING_TIME[level][1]
    if level < len(GAME_PLAYING_TIME) - 1:
        who = f"a game with a player rated {GAME_PLAYING_TIME[level][0]} or more"
    else:
        who = f"a game between players under {GAME_PLAYING_TIME[-2][0]} or unrated"
    return f"not rated: the time control gives {minutes_text(minutes)} minutes for 60 moves; {who} needs {needed}"


def minutes_text(value) -> str:
    """A number of minutes, hours or points as written: 120, 89.5 (one place, half up)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    tenths = int((value * 20 + 1) // 2)
    return f"{tenths // 10}.{tenths % 10}"


def playing_time(highest: int, minutes_for_60, first_control_minutes) -> str | None:
    """Section 16.1: enough time for the event's highest rating used, and a first control of
    at least 40 minutes."""
    if minutes_for_60 is None:
        return "not rated: the event has no time control, and a list rated by fide-2017 needs one"
    needed = next(minutes for rating, minutes in PLAYING_TIME if highest >= rating)
    if minutes_for_60 < needed:
        by = f"an event with a {highest}" if highest else "an event without rated players"
        return (
            f"not rated: the time control gives {minutes_text(minutes_for_60)} minutes for 60 moves; "
            f"{by} needs {needed}"
        )
    if first_control_minutes is not None and first_control_minutes < FIRST_CONTROL_MINUTES:
        return (
            f"not rated: the first time control gives {minutes_text(first_control_minutes)} minutes; "
            f"it must give at least {FIRST_CONTROL_MINUTES}"
        )
    return None


def hours_a_day(busiest: int, minutes_for_60) -> str | None:
    """Section 16.2: no player has more than twelve hours of games (twice the time for 60 moves
    each) on one date."""
    game_minutes = 2 * Fraction(minutes_for_60)
    if busiest * game_minutes > MOST_MINUTES_A_DAY:
        hours = Fraction(busiest * game_minutes, 60)
        return (
            f"not rated: a player has {busiest} games of {minutes_text(game_minutes)} minutes (both clocks) "
            f"on one day, {minutes_text(hours)} hours; at most 12 are allowed"
        )
    return None


def event_text(c, event: int, rules: RuleSet, highest: int, busiest, blitz: bool) -> str | None:
    """What stops a whole event before its length: fide-2017's playing time (16.1), FIDE's 2024
    rules' time control and band (17.5, 17.6), and twelve hours a day (16.2)."""
    minutes = c.minutes_for_60[event]
    text = None
    if rules.playing_time_conditions:
        text = playing_time(highest, minutes, c.first_control_minutes[event])
    elif rules.game_rate_of_play or rules.rapid_and_blitz:
        text = event_rate_of_play(rules, minutes, blitz)
    if busiest is not None and not text:
        text = hours_a_day(int(busiest[event]), minutes)
    return text
