"""What an Elo rating's calculation page shows, as numbers: the API's ``calculation`` of a rating
(a published one, or the calculator's). The same engine arithmetic as the page
(grading.selectors.calculations), written with the page's decimals (grading.selectors.explanations);
nothing here computes a rating.
"""

from fractions import Fraction

from grading.engine import RULE_SETS
from grading.engine.results.elo import FirstRatingSteps
from grading.engine.results.elo_arithmetic import EloArithmetic, EloGameArithmetic
from grading.engine.rule_sets import RuleSet
from grading.run.breakdown import ELO_METHODS, lines, resolve
from grading.selectors.calculations import method_calculation
from grading.selectors.explanations import decimal

HALF_AWAY, HALF_UP = "half away from zero", "half up"


def calculation_facts(row) -> dict | None:
    """The calculation of an Elo rating change or first rating (a PlayerRating or LiveRating);
    None for the ECF method and for a state with no calculation of its own."""
    if row.method not in ELO_METHODS:
        return None
    rules = RULE_SETS[row.period.rule_set]
    # The breakdown holds what the arithmetic reads: no game needs reading for it.
    games = resolve([(row, line) for line in lines(row)], {})
    calculation = method_calculation(row, games, rules)
    if calculation.elo is not None:
        return change_facts(calculation.elo, rules, row)
    if calculation.first is not None:
        return first_facts(calculation.first)
    return None


def change_facts(elo: EloArithmetic, rules: RuleSet, row) -> dict:
    """A rated player's change (docs/rules.md section 11, with 17.1 and 17.2 under FIDE's 2024 rules)."""
    return {
        "k": elo.k,
        "expected": number(elo.expected, 2),
        "score": number(elo.score, 1),
        "change": number(elo.change, 2),
        "rounding": HALF_AWAY if elo.half_away else HALF_UP,
        "rounded": elo.rounded,
        "rounded_half_up": elo.half_up,
        "rating": elo.rating,
        "largest_difference": rules.elo_largest_difference,
        "uncapped_from": rules.elo_uncapped_from,
        "uncapped": elo.exempt,
        "below_floor": below_floor(elo, rules, row) if elo.unrated else None,
        "games": [game_facts(game) for game in elo.games],
    }


def below_floor(elo: EloArithmetic, rules: RuleSet, row) -> dict:
    """Section 17.1: the rating the month gave, under the lowest one, unrated the player."""
    return {"rating": elo.rating, "lowest": rules.rating_floor, "unrated_from": row.month, "peak_kept": row.peak}


def game_facts(game: EloGameArithmetic | None) -> dict | None:
    if game is None:  # not counted
        return None
    return {
        "difference": game.difference,
        "difference_used": game.difference_used,
        "counted_whole": game.past_largest,
        "expected": number(game.expected, 2),
        "increment": number(game.increment, 2),
    }


def first_facts(first: FirstRatingSteps) -> dict:
    """A first rating, reached or not (section 12; 17.3 under FIDE's 2024 rules)."""
    enough = first.branch is not None
    return {
        "games": first.games,
        "opponents_total": first.opponents_total,
        "points": number(first.points, 1),
        "imaginary_games": first.imaginary_draws,
        "imaginary_rating": first.imaginary_rating,
        "average": number(first.average, 2),
        "p": number(first.p, 4) if enough else None,
        "p_rounded": number(Fraction(first.percent, 100), 2) if enough else None,
        "bonus": first.bonus,  # dp(p), or section 12's 20 for each half point over 50%
        "rounded": first.over_cap or first.rating,
        "cap": first.cap,
        "capped": first.over_cap is not None,
        "rating": first.rating,
        "reached": first.reached,
    }


def number(value, places: int):
    """An exact fraction as a JSON number, to the page's ``places`` decimals."""
    shown = decimal(value, places)
    return int(shown) if shown == int(shown) else float(shown)
