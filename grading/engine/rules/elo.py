"""The rules of the Elo method (docs/rules.md sections 11 to 13), in exact integers.

An expected score PD is kept in 200ths: PD = 0.50 + sign(diff) * D_offset / 20 with the D offset
in tenths is (100 + sign(diff) * tenths) / 200, and every offset is even, so PD has two decimals.
A score W is 200ths too (a win 200, a draw 100), and K * sum(W - PD) is a change in 200ths.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grading.engine.codes import (
    FIRST_ABOVE,
    FIRST_BELOW,
    FIRST_DRAWS,
    FIRST_EVEN,
    K_BASE,
    K_FLAT,
    K_JUNIOR,
    K_NEW_PLAYER,
    K_RULE_NAMES,
    K_TOP,
)
from grading.engine.rule_sets import RuleSet
from grading.engine.rules.krating import is_capped
from grading.engine.rules.prating import rounded_average_plus, score_percent
from grading.engine.rules.tables import (
    DP_ARRAY,
    capped_or_not_tenths_array,
    d_offset_tenths_array,
    fide_tenths_array,
)

PD_UNITS = 200  # expected scores, scores and changes are counted in 200ths


def expected_units(difference: np.ndarray, rules: RuleSet | None = None, own_rating=None) -> np.ndarray:
    """PD in 200ths for the player's rating minus the opponent's. The table ends at 392, so the
    400-point rule (a larger difference counts as 400) never changes PD; pages show where it bit.
    Under FIDE's 2024 rules (section 17.2) the table goes on past 400, read at the difference
    used (``difference_used``: the player's own rating ``own_rating`` may lift the rule)."""
    if rules is None or not rules.elo_expected_past_400:
        return 100 + d_offset_tenths_array(difference)
    if rules.elo_largest_difference == 400:
        # The usual 400: the D offsets end at 392, PD .92, as table 8.1.2 does up to 411, so the
        # capped sides need no cap of their own (the same numbers, one lookup: a month has
        # millions of sides).
        if rules.elo_uncapped_from is None:
            return 100 + d_offset_tenths_array(difference)
        return 100 + capped_or_not_tenths_array(difference, exempt_from_largest(own_rating, rules))
    return 100 + fide_tenths_array(difference_used(difference, own_rating, rules))


def exempt_from_largest(own_rating, rules: RuleSet):
    """Section 17.2: under ``fide-2025`` the 400-point rule does not hold for a player whose own
    rating is 2650 or more. Arrays or numbers; False under every other rule set."""
    if rules.elo_uncapped_from is None:
        return np.zeros(np.shape(own_rating), dtype=bool)
    return np.asarray(own_rating) >= rules.elo_uncapped_from


def difference_used(difference, own_rating, rules: RuleSet):
    """The 400-point rule (section 11): a larger difference counts as 400; under ``fide-2025``
    not for a player whose own rating is 2650 or more (section 17.2). Arrays or numbers."""
    largest = rules.elo_largest_difference
    capped = np.clip(difference, -largest, largest)
    if rules.elo_uncapped_from is None:
        return capped
    return np.where(exempt_from_largest(own_rating, rules), difference, capped)


def score_units(halves: np.ndarray) -> np.ndarray:
    return 100 * halves


@dataclass(frozen=True)
class KFactor:
    k: np.ndarray  # the K used: after the cap
    uncapped: np.ndarray  # the K the player's rule gives
    rule: np.ndarray  # codes.K_RULE_NAMES


def k_factor(
    state_games: np.ndarray,
    junior: np.ndarray,
    rating: np.ndarray,
    peak: np.ndarray,
    counted: np.ndarray,
    rules: RuleSet,
) -> KFactor:
    """Section 11: the first rule that applies, then floor(cap / n) where K * n exceeds the cap."""
    conditions, names = [], []
    if rules.elo_new_player_games is not None:
        conditions.append(state_games < rules.elo_new_player_games)
        names.append(K_NEW_PLAYER)
    if rules.elo_junior_below_rating is not None:
        conditions.append(junior & (rating < rules.elo_junior_below_rating))
        names.append(K_JUNIOR)
    if rules.elo_top_peak is not None:
        conditions.append(peak >= rules.elo_top_peak)
        names.append(K_TOP)
    base_rule = K_BASE if conditions else K_FLAT
    rule = np.select(conditions, names, base_rule) if conditions else np.full(len(rating), base_rule)
    # Each rule's K, as k_of_rule gives it: one mapping, read here for every code at once.
    uncapped = np.asarray([k_of_rule(code, rules) for code in range(len(K_RULE_NAMES))], dtype=np.int64)[rule]
    return KFactor(capped_k(uncapped, counted, rules), uncapped, rule.astype(np.int8))


def capped_k(uncapped: np.ndarray, counted: np.ndarray, rules: RuleSet) -> np.ndarray:
    """The K used for ``counted`` games: floor(cap / n) where K * n exceeds the cap."""
    capped = is_capped(uncapped, counted, rules)
    return np.where(capped, rules.k_cap // np.maximum(counted, 1), uncapped).astype(np.int64)


def k_of_rule(rule: int, rules: RuleSet) -> int:
    """The K a rule gives (codes.K_RULE_NAMES), before the cap."""
    return {K_NEW_PLAYER: rules.junior_k, K_JUNIOR: rules.junior_k, K_TOP: rules.elo_top_k}.get(rule, rules.base_k)


def rounded_change(change_units: np.ndarray, rules: RuleSet | None = None) -> np.ndarray:
    """A change in 200ths rounded half up to whole points: floor(x + 1/2), -2.5 gives -2; under
    FIDE's 2024 rules half away from zero (section 17.2): -2.5 gives -3, 2.5 gives 3."""
    if rules is not None and rules.elo_round_half_away:
        return np.sign(change_units) * ((np.abs(change_units) + PD_UNITS // 2) // PD_UNITS)
    return (change_units + PD_UNITS // 2) // PD_UNITS


def changed_rating(prior: np.ndarray, rounded: np.ndarray, rules: RuleSet) -> np.ndarray:
    """Ro plus the rounded change, never below the rating floor (section 11); under FIDE's 2024
    rules a rating under the floor stays as it is: the player becomes unrated (section 17.1)."""
    if rules.elo_unrated_below_floor:
        return prior + rounded
    return np.maximum(prior + rounded, rules.rating_floor)


def junior_by_year(birth_date: np.ndarray, period_year: int, rules: RuleSet) -> np.ndarray:
    """Section 17.4: a junior until the end of the year in which they turn
    ``elo_junior_through_age`` (the period's year at most the birth year + 18); an unknown birth
    date (NaT) is no junior."""
    born = birth_date.astype("datetime64[D]")
    year = born.astype("datetime64[Y]").astype(np.int64) + 1970
    return ~np.isnat(born) & (period_year <= year + rules.elo_junior_through_age)


@dataclass(frozen=True)
class FirstRating:
    """Section 12, step 3, per player: Ra = T / G, then 50%, +20 a half point over, or dp."""

    branch: np.ndarray  # codes.FIRST_BRANCH_NAMES
    percent: np.ndarray  # p in hundredths (the "below" and "draws" branches' dp reads it)
    bonus: np.ndarray  # what is added to Ra: 0, 20 x (2S - G) or dp(p)
    rating: np.ndarray  # round_half_up(Ra + bonus), at most the cap (section 17.3)
    rounded: np.ndarray  # round_half_up(Ra + bonus) before the cap


def enough_for_first(games: np.ndarray, halves: np.ndarray, rules: RuleSet) -> np.ndarray:
    """Section 12, step 2: games enough, and at least half a point, for a first rating."""
    return (games >= rules.first_rating_games) & (halves >= 1)


def first_rating(games: np.ndarray, total: np.ndarray, halves: np.ndarray, rules: RuleSet) -> FirstRating:
    """For G games (G > 0) against opponents rated T in all, scoring S = halves / 2:
    round_half_up(T / G + bonus). Under FIDE's 2024 rules (section 17.3) two drawn games against
    1800s are added first, the bonus is always dp(p), and the rating is at most 2200."""
    if rules.first_rating_draws:
        return _first_rating_with_draws(games, total, halves, rules)
    g = np.maximum(games, 1)
    over = halves - g  # 2S - G: half points over 50%
    percent = score_percent(halves, g)
    dp = DP_ARRAY[np.clip(percent, 0, 100)]
    branch = np.select([over == 0, over > 0], [FIRST_EVEN, FIRST_ABOVE], FIRST_BELOW).astype(np.int8)
    bonus = np.select([over == 0, over > 0], [0, rules.first_rating_step * over], dp)
    rating = rounded_average_plus(total, g, bonus)
    return FirstRating(branch, percent, bonus, rating, rating)


def first_rating_sums(games, total, halves, rules: RuleSet):
    """G, T and 2S with the imaginary drawn games of section 17.3 (none before 2024)."""
    draws = rules.first_rating_draws
    return games + draws, total + draws * rules.first_rating_draws_rating, halves + draws


def _first_rating_with_draws(games: np.ndarray, total: np.ndarray, halves: np.ndarray, rules: RuleSet) -> FirstRating:
    """Section 17.3: Ra = (T + 3600) / (G + 2), p = (S + 1) / (G + 2) rounded half up to two
    decimals, rating = min(2200, round_half_up(Ra + dp(p)))."""
    g, t, h = first_rating_sums(np.maximum(games, 1), total, halves, rules)
    percent = score_percent(h, g)
    dp = DP_ARRAY[np.clip(percent, 0, 100)]
    rounded = rounded_average_plus(t, g, dp)
    rating = rounded if rules.first_rating_cap is None else np.minimum(rounded, rules.first_rating_cap)
    return FirstRating(np.full(len(g), FIRST_DRAWS, dtype=np.int8), percent, dp, rating, rounded)


def fide_performance(opponent_ratings: list[int], halves: list[int]) -> int | None:
    """Section 13: Ra + dp(p) over games against rated opponents, rounded half up."""
    games, total = len(opponent_ratings), sum(opponent_ratings)
    if not games:
        return None
    return rounded_average_plus(total, games, int(DP_ARRAY[score_percent(sum(halves), games)]))


def performance_of_400(opponent_ratings: list[int], halves: list[int]) -> int | None:
    """Section 13: (opponents' ratings + 400 x (wins - losses)) / games, rounded half up."""
    games = len(opponent_ratings)
    if not games:
        return None
    wins_minus_losses = sum(1 if h == 2 else -1 if h == 0 else 0 for h in halves)
    return rounded_average_plus(sum(opponent_ratings) + 400 * wins_minus_losses, games, 0)
