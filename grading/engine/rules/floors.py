"""Rating floors and the lifetime counters behind them (docs/rules.md part 3, section 14).

Every run keeps the counters in the new states, whether or not its rule set has floors: a list
that takes the option later finds them there. Only a rule set with ``floors`` applies a floor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grading.engine.inputs.forms import ColumnarInputs, StateColumns
from grading.engine.rule_sets import RuleSet
from grading.engine.sides import Sides


@dataclass(frozen=True)
class Lifetime:
    """Per player position, the counters after the period (the prior ones where no game)."""

    wins: np.ndarray
    draws: np.ndarray
    events3: np.ndarray

    def columns(self, where: np.ndarray) -> dict:
        """The result's state_wins, state_draws and state_events3 columns: 0 but ``where``."""
        return {f"state_{name}": np.where(where, getattr(self, name), 0) for name in StateColumns.COUNTERS}


def lifetime_after(inputs: ColumnarInputs, sides: Sides, own: StateColumns, counted=None) -> Lifetime:
    """The prior counters plus the period's rated games (those of the sides ``counted``, by
    default all): wins, draws, and the events in which the player played
    ``floor_event_games`` rated games or more (games without an event form one)."""
    counted = np.ones(len(sides.player), dtype=bool) if counted is None else counted
    wins = own.wins + sides.total((counted & (sides.halves == 2)).astype(np.int64))
    draws = own.draws + sides.total((counted & (sides.halves == 1)).astype(np.int64))
    m = inputs.game_count
    event = np.full(m, -1, dtype=np.int64) if inputs.event is None else np.asarray(inputs.event, dtype=np.int64)
    span = int(event.max(initial=-1)) + 2  # ranks -1.. become 0..span-1
    keys = (sides.player * span + np.concatenate((event, event)) + 1)[counted]
    pairs, counts = np.unique(keys, return_counts=True)
    full_events = np.bincount(
        pairs[counts >= inputs.rules.floor_event_games] // span, minlength=inputs.player_count
    ).astype(np.int64)
    return Lifetime(wins, draws, own.events3 + full_events)


def peak_read(rules: RuleSet, peak, rating, full):
    """The peak before a period that a floor reads (section 14), from the state before it: its
    peak; under the Elo method a Full rating without one (a state from before the method kept
    peaks) stands for it. Arrays, or single values."""
    if rules.is_elo:
        return np.where(full, np.where(peak > 0, peak, rating), 0)
    return peak


def peak_floor(peak_before: np.ndarray, rules: RuleSet) -> np.ndarray:
    """The highest step of peak_floor_lowest, + step, ..., peak_floor_highest at or below
    peak - peak_floor_drop; 0 where that is below the lowest (or there is no peak)."""
    reach = peak_before - rules.peak_floor_drop
    steps = (reach - rules.peak_floor_lowest) // rules.peak_floor_step
    floor = np.minimum(rules.peak_floor_lowest + steps * rules.peak_floor_step, rules.peak_floor_highest)
    return np.where((peak_before > 0) & (reach >= rules.peak_floor_lowest), floor, 0)


def floors(rules: RuleSet, eligible: np.ndarray, lifetime: Lifetime, peak_before: np.ndarray) -> np.ndarray:
    """Per player: the floor in force (0 for none): the larger of the absolute floor, from the
    counters with this period, and the peak floor, from the peak before it. Only players whose
    prior state holds a Full (ECF) or rated (Elo) rating have one."""
    if not rules.floors:
        return np.zeros(len(eligible), dtype=np.int64)
    absolute = np.minimum(absolute_sum(rules, lifetime.wins, lifetime.draws, lifetime.events3), rules.floor_cap)
    return np.where(eligible, np.maximum(absolute, peak_floor(peak_before, rules)), 0)


def absolute_sum(rules: RuleSet, wins, draws, events3):
    """The absolute floor before its cap: floor_base and so much a win, a draw and an event of
    three games or more. Arrays, or single values."""
    return (
        rules.floor_base + rules.floor_per_win * wins + rules.floor_per_draw * draws + rules.floor_per_event * events3
    )


@dataclass(frozen=True)
class FloorArithmetic:
    """How a rating's floor follows from its counters and the peak before the period (the
    calculation page prints these numbers)."""

    wins: int
    draws: int
    events3: int
    absolute_sum: int  # floor_base + per win, draw and event, before the cap
    absolute: int
    peak_before: int | None
    peak_reach: int | None  # peak_before - peak_floor_drop
    peak_floor: int | None  # None: no peak, or under the lowest step
    floor: int
    own_rating: int  # the method's rating
    rating: int  # after the floor


def floor_arithmetic(rules: RuleSet, wins: int, draws: int, events3: int, peak_before, own_rating: int):
    """The floor of one rating, by the functions the run used (floors and peak_floor)."""
    lifetime = Lifetime(*(np.array([value], dtype=np.int64) for value in (wins, draws, events3)))
    peak = np.array([peak_before or 0], dtype=np.int64)
    floor = int(floors(rules, np.array([True]), lifetime, peak)[0])
    by_peak = int(peak_floor(peak, rules)[0])
    uncapped = absolute_sum(rules, wins, draws, events3)
    return FloorArithmetic(
        wins,
        draws,
        events3,
        uncapped,
        min(uncapped, rules.floor_cap),
        peak_before,
        peak_before - rules.peak_floor_drop if peak_before else None,
        by_peak or None,
        floor,
        own_rating,
        max(own_rating, floor),
    )
