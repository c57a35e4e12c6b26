"""How a published rating was calculated, line by line, from what the run stored.

The P rating (docs/rules.md section 4) is rebuilt from the stored state: the state keeps
``games = G - 1``, ``opponents_total = T - dummy`` and ``points = S - 1/2``. The K rating
(section 6) is the prior rating plus the sum of the stored per-game increments.
Nothing here changes a rating: it shows the arithmetic behind the one published.
"""

import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from grading.engine import RULE_SETS
from grading.engine.tables import DP_BY_PERCENT, d_offset_tenths

HALF = Fraction(1, 2)


def round_half_up(value: Fraction) -> int:
    return math.floor(value + HALF)


def decimal(value: Fraction, places=2) -> Decimal:
    """A fraction for display, rounded half up to ``places`` decimals."""
    return Decimal(round_half_up(value * 10**places)).scaleb(-places)


def signed_term(value) -> str:
    """A number as the second term of a sum: ``+ 43`` or ``− 43``."""
    return f"+ {value}" if value >= 0 else f"− {-value}"


def plain(value: Decimal | None) -> str:
    """A stored decimal without trailing zeros: 7.200000 is 7.2, 10.000000 is 10."""
    if value is None:
        return ""
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


@dataclass
class GameLine:
    game: object  # RatedGame
    d: int | None = None
    d_offset: Fraction | None = None
    s_offset: int | None = None
    q: int | None = None

    @property
    def increment(self) -> str:
        return plain(self.game.increment)


@dataclass
class Performance:
    """One P-rating pass: G, T, S, p, dp and the rating it gives."""

    label: str
    count: int
    used: int
    scored: Fraction
    games: int
    total: int
    points: Fraction
    dummy: int
    average: Fraction
    p: Fraction
    p_rounded: Fraction
    dp: int
    exact: Fraction
    rating: int
    published: int | None

    @property
    def shown(self):
        """The fractions as a person checks them: S to one decimal, p to 4, T / G to 2."""
        return {
            "scored": decimal(self.scored, 1),
            "points": decimal(self.points, 1),
            "p": decimal(self.p, 4),
            "p_rounded": decimal(self.p_rounded, 2),
            "average": decimal(self.average, 2),
            "exact": decimal(self.exact, 2),
            "dp_term": signed_term(self.dp),
        }


@dataclass
class Explanation:
    method: str
    lines: list = field(default_factory=list)
    prior_games: int = 0
    prior_total: int = 0
    prior_points: Fraction = Fraction(0)
    passes: list = field(default_factory=list)
    change: Fraction | None = None
    adjustment: Fraction = Fraction(0)
    exact: Fraction | None = None
    rating: int | None = None
    k_note: str = ""

    @property
    def shown(self):
        return {
            "prior_points": decimal(self.prior_points, 1),
            "change": decimal(self.change, 2) if self.change is not None else None,
            "change_term": signed_term(decimal(self.change, 2)) if self.change is not None else None,
            "adjustment": decimal(self.adjustment, 2),
            "exact": decimal(self.exact, 2) if self.exact is not None else None,
        }


def explain(rating, rated_games, rule_set_name: str) -> Explanation:
    """The arithmetic of ``rating`` (a PlayerRating) from its RatedGame rows."""
    rules = RULE_SETS.get(rule_set_name, RULE_SETS["ecf-2024"])
    if rating.method == "P":
        return explain_p(rating, rated_games, rules)
    if rating.method == "K":
        return explain_k(rating, rated_games, rules)
    return Explanation(method=rating.method, lines=[GameLine(game) for game in rated_games])


def explain_p(rating, rated_games, rules) -> Explanation:
    count = len(rated_games)
    scored = sum((Fraction(game.score) for game in rated_games), Fraction(0))
    used = sum(game.opponent_rating for game in rated_games)
    # The stored state counts the prior accumulators (a partially rated player's) and this
    # period's games; what is left after this period's games is the prior part.
    explanation = Explanation(
        method="P",
        lines=[GameLine(game) for game in rated_games],
        prior_games=rating.games - count,
        prior_total=rating.opponents_total - used,
        prior_points=Fraction(rating.points) - scored,
    )
    dummy = rating.dummy_rating or 0
    if all(game.pass1_opponent_rating is not None for game in rated_games) and rating.pass1 is not None:
        pass1_used = sum(game.pass1_opponent_rating for game in rated_games)
        explanation.passes.append(
            performance("Pass 1 (rating A)", explanation, count, pass1_used, scored, dummy, rating.pass1, rules)
        )
    final = performance("Pass 2 (rating B, the result)", explanation, count, used, scored, dummy, rating.pass2, rules)
    explanation.passes.append(final)
    explanation.rating = rating.rating
    return explanation


def performance(label, explanation, count, used, scored, dummy, published, rules) -> Performance:
    games = explanation.prior_games + count + 1
    total = explanation.prior_total + used + dummy
    points = explanation.prior_points + scored + HALF
    p = points / games
    p_rounded = Fraction(round_half_up(p * 100), 100)
    dp = DP_BY_PERCENT[int(p_rounded * 100)]
    average = Fraction(total, games)
    exact = average + dp
    return Performance(
        label=label,
        count=count,
        used=used,
        scored=scored,
        games=games,
        total=total,
        points=points,
        dummy=dummy,
        average=average,
        p=p,
        p_rounded=p_rounded,
        dp=dp,
        exact=exact,
        rating=max(rules.rating_floor, round_half_up(exact)),
        published=published,
    )


def exact_k(rating, count) -> Fraction | None:
    """The K factor as the run used it: 700/N is stored rounded to 6 decimals."""
    if rating.k_factor is None:
        return None
    stored = Fraction(rating.k_factor)
    if count and decimal(Fraction(700, count), 6) == rating.k_factor:
        return Fraction(700, count)
    return stored


def explain_k(rating, rated_games, rules) -> Explanation:
    old = rating.prior_rating or 0
    k = exact_k(rating, len(rated_games))
    lines = []
    change = Fraction(0)
    for game in rated_games:
        d = game.opponent_rating - old
        d_offset = Fraction(d_offset_tenths(d), 10)
        s_offset = {Decimal(1): 10, Decimal("0.5"): 0, Decimal(0): -10}[Decimal(game.score)]
        q = rules.partial_opponent_q if game.opponent_type == "partial" else rules.base_q
        lines.append(GameLine(game, d=d, d_offset=d_offset, s_offset=s_offset, q=q))
        change += (d_offset + s_offset) * (k or 0) / q
    period = rating.period
    adjustment = Fraction(period.adjustment_a) + old * Fraction(period.adjustment_b)
    exact = old + change + adjustment
    cap = Fraction(rules.k_cap, len(rated_games)) if rated_games else None
    if k is not None and cap is not None and k == cap:
        note = f"K is {rules.k_cap} / {len(rated_games)} games: K × N would be more than {rules.k_cap}."
    elif k == rules.junior_k:
        note = f"K is {rules.junior_k}: a junior whose games raised the rating."
    else:
        note = f"K is {rules.base_k}."
    return Explanation(
        method="K",
        lines=lines,
        change=change,
        adjustment=adjustment,
        exact=exact,
        rating=max(rules.rating_floor, round_half_up(exact)),
        k_note=note,
    )
