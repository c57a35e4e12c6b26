"""The arithmetic behind one player's rating, step by step, for a person to check.

Every step comes from the functions the period's run uses (prating.performance, krating's
game_offsets, k_factors, increments and k_rating), called on one player's numbers: there is
no second implementation of a rule here, only the exact fractions a page prints beside the
integers the run works in (S / G, T / G, the unrounded rating).

The inputs are what a published rating keeps (its new state, its games as rated, its dummy,
prior rating and age), so an explanation can be given for any rating ever published.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import numpy as np

from grading.engine.codes import TYPE_CODES, TYPE_NAMES
from grading.engine.rule_sets import RuleSet
from grading.engine.rules.categories import is_junior
from grading.engine.rules.krating import (
    game_offsets,
    game_terms,
    increments,
    is_capped,
    k_factors,
    k_rating,
    uncapped_k,
)
from grading.engine.rules.prating import performance


@dataclass(frozen=True)
class PassArithmetic:
    """One pass of a P rating: G, T and S with their parts, p, dp and the rating."""

    prior_games: int  # a partially rated player's earlier games (0 for a new player)
    prior_total: int
    prior_points: Fraction
    count: int  # this period's games
    used: int  # the sum of this period's opponents' ratings in this pass
    scored: Fraction  # this period's points
    dummy: int
    games: int  # G = prior + this period + 1
    total: int  # T = prior + this period + dummy
    points: Fraction  # S = prior + this period + 1/2
    p: Fraction  # S / G
    percent: int  # p in hundredths, rounded half up: the row of the performance table
    dp: int
    average: Fraction  # T / G
    exact: Fraction  # T / G + dp
    rating: int
    floored: bool  # the rounded rating was below the floor and was raised to it
    type: str


@dataclass(frozen=True)
class GameArithmetic:
    """One game of a K rating: (D offset + S offset) x K / Q."""

    d: int  # the opponent's rating used minus the player's prior rating
    d_offset: Fraction
    s_offset: int
    q: int
    increment: Fraction


@dataclass(frozen=True)
class KArithmetic:
    prior: int
    base_k: int  # K before the cap: the junior K or the base K
    junior_k: bool  # the junior K applied (a junior whose games' sum is positive)
    capped: bool  # K x N was more than the cap: K is cap / N
    k: Fraction
    games: tuple[GameArithmetic, ...]
    change: Fraction  # the sum of the increments
    adjustment: Fraction  # A + prior x B
    exact: Fraction  # prior + change + adjustment
    rating: int
    floored: bool


def p_pass(
    prior_games: int,
    prior_total: int,
    prior_points_halves: int,
    halves: Sequence[int],
    opponent_ratings: Sequence[int],
    dummy: int,
    rules: RuleSet,
) -> PassArithmetic:
    """One pass of a P rating: the player's own halves and their opponents' ratings in it."""
    period_halves, used = sum(halves), sum(opponent_ratings)
    done = performance(
        np.array([prior_games + len(halves)]),
        np.array([prior_total + used]),
        np.array([prior_points_halves + period_halves]),
        np.array([dummy]),
        rules,
    )
    games, total, points = int(done.games[0]), int(done.total[0]), Fraction(int(done.points_halves[0]), 2)
    dp = int(done.dp[0])
    exact = Fraction(total, games) + dp
    rating = int(done.rating[0])
    return PassArithmetic(
        prior_games=prior_games,
        prior_total=prior_total,
        prior_points=Fraction(prior_points_halves, 2),
        count=len(halves),
        used=used,
        scored=Fraction(period_halves, 2),
        dummy=dummy,
        games=games,
        total=total,
        points=points,
        p=Fraction(int(done.points_halves[0]), 2 * games),
        percent=int(done.percent[0]),
        dp=dp,
        average=Fraction(total, games),
        exact=exact,
        rating=rating,
        floored=rating > _round_half_up(exact),
        type=TYPE_NAMES[done.kind[0]],
    )


def published_p_passes(
    state_games: int,
    state_total: int,
    state_points_halves: int,
    halves: Sequence[int],
    pass1_ratings: Sequence[int],
    pass2_ratings: Sequence[int],
    dummy: int,
    rules: RuleSet,
) -> tuple[PassArithmetic, PassArithmetic]:
    """Both passes of a published P rating, from its new state and its games as rated.

    A P-rated player's new state is their earlier accumulators (none for a new player) plus
    this period's games against their opponents' pass-2 ratings: what is left once those are
    taken off is the earlier part both passes start from.
    """
    prior_games = state_games - len(halves)
    prior_total = state_total - sum(pass2_ratings)
    prior_halves = state_points_halves - sum(halves)
    return (
        p_pass(prior_games, prior_total, prior_halves, halves, pass1_ratings, dummy, rules),
        p_pass(prior_games, prior_total, prior_halves, halves, pass2_ratings, dummy, rules),
    )


def k_arithmetic(
    prior: int,
    halves: Sequence[int],
    opponent_ratings: Sequence[int],
    opponent_types: Sequence[str],
    age: int | None,
    adjustment_a: Decimal,
    adjustment_b: Decimal,
    rules: RuleSet,
) -> KArithmetic:
    """A K rating from the prior rating and the games as rated in pass 3."""
    count = len(halves)
    offsets = game_offsets(
        np.full(count, prior, dtype=np.int64),
        np.array(opponent_ratings, dtype=np.int64),
        np.array(halves, dtype=np.int64),
        np.array([TYPE_CODES[kind] for kind in opponent_types], dtype=np.int8),
        rules,
    )
    terms = game_terms(offsets, rules)
    weighted_sum = np.array([terms.sum()], dtype=np.int64)
    junior = is_junior(np.array([-1 if age is None else age]), rules)
    k_num, k_den = k_factors(weighted_sum, np.array([count]), junior, rules)
    numerators, denominators = increments(terms, k_num[0], k_den[0], rules)
    games = tuple(
        GameArithmetic(d, Fraction(d_offset, 10), s_offset // 10, q, Fraction(num, den))
        for d, d_offset, s_offset, q, num, den in zip(
            offsets.d.tolist(),
            offsets.d_offset_tenths.tolist(),
            offsets.s_offset_tenths.tolist(),
            offsets.q.tolist(),
            numerators.tolist(),
            np.broadcast_to(denominators, numerators.shape).tolist(),
        )
    )
    rating = int(
        k_rating(np.array([prior]), weighted_sum, k_num, k_den, Decimal(adjustment_a), Decimal(adjustment_b), rules)[0]
    )
    change = sum((game.increment for game in games), Fraction(0))
    adjustment = Fraction(Decimal(adjustment_a)) + prior * Fraction(Decimal(adjustment_b))
    exact = prior + change + adjustment
    base_k = uncapped_k(weighted_sum, junior, rules)
    return KArithmetic(
        prior=prior,
        base_k=int(base_k[0]),
        junior_k=bool(base_k[0] == rules.junior_k != rules.base_k),
        capped=bool(is_capped(base_k, np.array([count]), rules)[0]),
        k=Fraction(int(k_num[0]), int(k_den[0])),
        games=games,
        change=change,
        adjustment=adjustment,
        exact=exact,
        rating=rating,
        floored=rating > _round_half_up(exact),
    )


def _round_half_up(value: Fraction) -> int:
    return (2 * value.numerator + value.denominator) // (2 * value.denominator)
