"""K rating of Fully Rated players (docs/rules.md section 6), in exact integers.

Each game's term is (D_offset + S_offset) * K / Q. Offsets are kept in tenths (t), and 1/Q as
w / partial_q with w = partial_q / Q, so a player's sum of (D_offset + S_offset) / Q is
W / (10 * partial_q) with W = sum(t * w) an integer, and with K = k_num / k_den:

    change = k_num * W / (unit * k_den),   unit = 10 * partial_q
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import numpy as np

from grading.engine.codes import PARTIAL
from grading.engine.rule_sets import RuleSet
from grading.engine.rules.tables import D_OFFSET_TENTHS_BY_ABS_D, d_offset_tenths_array

_INT64_SAFE = 2**62


@dataclass(frozen=True)
class GameOffsets:
    """Each game's terms from the rated player's side: D, its offset, the score's offset, Q."""

    d: np.ndarray  # the opponent's rating used minus the player's prior rating
    d_offset_tenths: np.ndarray
    s_offset_tenths: np.ndarray  # +100 a win, 0 a draw, -100 a loss
    q: np.ndarray


def game_offsets(
    player_rating: np.ndarray,
    opponent_rating: np.ndarray,
    player_halves: np.ndarray,
    opponent_type: np.ndarray,
    rules: RuleSet,
) -> GameOffsets:
    d = opponent_rating - player_rating
    return GameOffsets(
        d=d,
        d_offset_tenths=d_offset_tenths_array(d),
        s_offset_tenths=(player_halves.astype(np.int64) - 1) * rules.win_offset_tenths,
        q=np.where(opponent_type == PARTIAL, rules.partial_opponent_q, rules.base_q),
    )


def game_terms(offsets: GameOffsets, rules: RuleSet) -> np.ndarray:
    """t * w of each game: (D_offset + S_offset) in tenths, weighted by partial_q / Q."""
    return (offsets.d_offset_tenths + offsets.s_offset_tenths) * (rules.partial_opponent_q // offsets.q)


def unit(rules: RuleSet) -> int:
    return 10 * rules.partial_opponent_q


def uncapped_k(weighted_sum: np.ndarray, junior: np.ndarray, rules: RuleSet) -> np.ndarray:
    """The junior K for a junior whose games' sum is positive (their rating rises), else the base K."""
    return np.where(junior & (weighted_sum > 0), rules.junior_k, rules.base_k).astype(np.int64)


def is_capped(k: np.ndarray, game_count: np.ndarray, rules: RuleSet) -> np.ndarray:
    return k * game_count > rules.k_cap


def k_factors(
    weighted_sum: np.ndarray, game_count: np.ndarray, junior: np.ndarray, rules: RuleSet
) -> tuple[np.ndarray, np.ndarray]:
    """K as (k_num, k_den): 40 for a junior whose games' sum is positive, else 20; then
    700 / N, unrounded, where K * N > 700."""
    k = uncapped_k(weighted_sum, junior, rules)
    capped = is_capped(k, game_count, rules)
    return np.where(capped, rules.k_cap, k), np.where(capped, game_count, 1).astype(np.int64)


def k_rating(
    old: np.ndarray,
    weighted_sum: np.ndarray,
    k_num: np.ndarray,
    k_den: np.ndarray,
    a: Decimal,
    b: Decimal,
    rules: RuleSet,
) -> np.ndarray:
    """max(floor, round_half_up(old + change + A + old * B)) over one common denominator."""
    a, b = Fraction(a), Fraction(b)
    u = unit(rules)
    # |change| <= (largest offsets) * K * N / Q <= (8.4 + 10) * 700 / 20 under the ECF rules.
    largest_term = int(D_OFFSET_TENTHS_BY_ABS_D[-1]) + rules.win_offset_tenths
    change_bound = largest_term * rules.k_cap // (10 * rules.base_q) + 1
    largest_old = int(np.abs(old).max(initial=0))
    bound = (
        4
        * u
        * int(k_den.max(initial=1))
        * a.denominator
        * b.denominator
        * (largest_old * (1 + abs(b)) + abs(a) + change_bound + 1)
    )
    if bound >= _INT64_SAFE:  # an adjustment of many decimals: exact Python integers instead
        old, weighted_sum, k_num, k_den = (x.astype(object) for x in (old, weighted_sum, k_num, k_den))
    scale = u * k_den
    denominator = scale * (a.denominator * b.denominator)
    numerator = (
        old * denominator
        + k_num * weighted_sum * (a.denominator * b.denominator)
        + a.numerator * scale * b.denominator
        + old * b.numerator * scale * a.denominator
    )
    rating = (2 * numerator + denominator) // (2 * denominator)
    return np.maximum(rating.astype(np.int64), rules.rating_floor)


def increments(
    terms: np.ndarray, k_num: np.ndarray, k_den: np.ndarray, rules: RuleSet
) -> tuple[np.ndarray, np.ndarray]:
    """Each game's exact increment (D_offset + S_offset) * K / Q as (numerator, denominator)."""
    return terms * k_num, unit(rules) * k_den


def micro_units(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator in millionths, rounded half up."""
    return (2 * 10**6 * numerator + denominator) // (2 * denominator)
