"""The arithmetic behind one player's Elo rating, step by step, for a person to check
(docs/rules.md sections 11 and 12).

As grading.engine.results.ecf_arithmetic does for the ECF method: every step comes from the functions the
period's run uses (expected_units, capped_k, rounded_change, first_rating), called on what a
published rating keeps (its prior rating, its games as rated, the K rule the run chose, its
state), with the exact fractions a page prints beside the integers the run works in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from chess.months import Month
from grading.engine.codes import K_RULE_NAMES
from grading.engine.inputs.forms import PendingMonth
from grading.engine.results.elo import FirstRatingSteps, first_rating_steps
from grading.engine.rule_sets import RuleSet
from grading.engine.rules.elo import (
    PD_UNITS,
    capped_k,
    changed_rating,
    difference_used,
    exempt_from_largest,
    expected_units,
    k_of_rule,
    rounded_change,
    score_units,
)
from grading.engine.rules.krating import is_capped


@dataclass(frozen=True)
class EloGameArithmetic:
    """One counted game of a rated player: PD from the difference, then K x (W - PD)."""

    difference: int  # the player's prior rating minus the opponent's rating used
    difference_used: int  # after the 400-point rule (none for a 2650 under fide-2025)
    expected: Fraction  # PD
    increment: Fraction  # K x (W - PD)
    # Section 17.2: the player's own rating lifted the 400-point rule (fide-2025, 2650 or more),
    # and PD is read from FIDE's table past 400 (PD .93 to 1.00) where the difference is past it.
    exempt: bool = False
    largest: int = 400  # the rule set's 400-point rule

    @property
    def limited(self) -> bool:
        """The 400-point rule bit: the difference counted as 400."""
        return self.difference != self.difference_used

    @property
    def past_largest(self) -> bool:
        """The difference counted whole past 400 (section 17.2): the rule would have bitten."""
        return self.exempt and abs(self.difference) > self.largest


@dataclass(frozen=True)
class EloArithmetic:
    prior: int  # Ro
    k_rule: str  # codes.K_RULE_NAMES
    k_uncapped: int  # the K the rule gives
    capped: bool  # K x n was more than the cap: K is floor(cap / n)
    k: int
    games: tuple[EloGameArithmetic | None, ...]  # by breakdown line; None: not counted
    counted: int  # n
    expected: Fraction  # the sum of PD
    score: Fraction  # the points of the counted games
    change: Fraction  # K x (score - expected)
    rounded: int  # the change rounded half up (FIDE's 2024 rules: half away from zero)
    rating: int  # Ro + rounded, at least the floor; under FIDE's 2024 rules it may be under it ...
    floored: bool  # Ro + change was below the floor and was raised to it
    unrated: bool = False  # ... and the player became unrated (section 17.1)
    # Section 17.2: halves rounded away from zero, and what rounding half up gives (section 11);
    # the player's Ro lifts the 400-point rule (fide-2025: 2650 or more).
    half_away: bool = False
    half_up: int = 0
    exempt: bool = False

    @property
    def halves_differ(self) -> bool:
        """Rounding half away from zero gave another change than half up would (-2.5: -3, not -2)."""
        return self.rounded != self.half_up


def elo_arithmetic(
    prior: int, halves: Sequence[int], opponent_ratings: Sequence[int | None], k_rule: str, rules: RuleSet
) -> EloArithmetic:
    """A rated player's new rating from Ro, their games as rated (an opponent rating of None:
    not counted) and the K rule the run chose."""
    counted = [i for i, rating in enumerate(opponent_ratings) if rating is not None]
    n = len(counted)
    uncapped = k_of_rule(K_RULE_NAMES.index(k_rule), rules)
    k = int(capped_k(np.array([uncapped]), np.array([n]), rules)[0])
    difference = prior - np.array([opponent_ratings[i] for i in counted], dtype=np.int64)
    expected = expected_units(difference, rules, prior)
    surplus = score_units(np.array([halves[i] for i in counted], dtype=np.int64)) - expected
    used = difference_used(difference, prior, rules)
    games: list[EloGameArithmetic | None] = [None] * len(opponent_ratings)
    columns = zip(counted, difference.tolist(), used.tolist(), expected.tolist(), surplus.tolist())
    exempt = bool(exempt_from_largest(prior, rules))
    largest = rules.elo_largest_difference
    for i, d, u, pd, w_minus_pd in columns:
        increment = Fraction(k * w_minus_pd, PD_UNITS)
        games[i] = EloGameArithmetic(d, u, Fraction(pd, PD_UNITS), increment, exempt=exempt, largest=largest)
    change_units = k * int(surplus.sum())
    rounded = int(rounded_change(np.array([change_units]), rules)[0])
    rating = int(changed_rating(np.array([prior]), np.array([rounded]), rules)[0])
    return EloArithmetic(
        prior=prior,
        k_rule=k_rule,
        k_uncapped=uncapped,
        capped=bool(is_capped(np.array([uncapped]), np.array([n]), rules)[0]),
        k=k,
        games=tuple(games),
        counted=n,
        expected=Fraction(int(expected.sum()), PD_UNITS),
        score=Fraction(sum(halves[i] for i in counted), 2),
        change=Fraction(change_units, PD_UNITS),
        rounded=rounded,
        rating=rating,
        floored=rating > prior + rounded,
        unrated=rating < rules.rating_floor,
        half_away=rules.elo_round_half_away,
        half_up=int(rounded_change(np.array([change_units]))[0]),
        exempt=exempt,
    )


@dataclass(frozen=True)
class FirstRatingProgress:
    """An unrated player's games towards a first rating (section 12), as they stand for a period."""

    months: tuple[PendingMonth, ...]  # the pending months that still count
    games: int
    opponents_total: int
    points: Fraction
    games_needed: int
    counts_until: Month | None  # the last period the oldest of them counts in
    first: FirstRatingSteps | None  # what they would give now (a rating below the floor: none)


def first_rating_progress(pending: Sequence[PendingMonth], period: Month, rules: RuleSet) -> FirstRatingProgress:
    """Where the pending months that still count in ``period`` leave the player."""
    oldest = rules.oldest_pending(period)
    live = tuple(sorted((month for month in pending if month.month >= oldest), key=lambda month: month.month))
    games = sum(month.games for month in live)
    total = sum(month.opponents_total for month in live)
    points = sum((Fraction(month.points) for month in live), Fraction(0))
    return FirstRatingProgress(
        months=live,
        games=games,
        opponents_total=total,
        points=points,
        games_needed=rules.first_rating_games,
        counts_until=live[0].month + (rules.first_rating_window_months - 1) if live else None,
        first=first_rating_steps(games, total, int(points * 2), rules) if games else None,
    )
