"""The calculation page's numbers as a person checks them: the engine's exact fractions
(grading.calculation) written as decimals. Nothing here computes a rating."""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from grading.calculation import Calculation
from grading.engine.arithmetic import PassArithmetic


def decimal(value: Fraction, places: int) -> Decimal:
    """An exact fraction written to ``places`` decimals, rounded half up."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def plain(value: Decimal) -> str:
    """A decimal without trailing zeros: 12.800000 is 12.8, 100.000000 is 100."""
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def signed_term(value) -> str:
    """A number as the second term of a sum: ``+ 43`` or ``− 43``."""
    return f"+ {value}" if value >= 0 else f"− {-value}"


def signed(value) -> str:
    return f"+{value}" if value > 0 else str(value)


@dataclass(frozen=True)
class PassShown:
    label: str
    step: PassArithmetic
    published: int | None

    @property
    def differs(self) -> bool:
        return self.published is not None and self.published != self.step.rating

    @property
    def shown(self) -> dict:
        step = self.step
        return {
            "prior_points": decimal(step.prior_points, 1),
            "scored": decimal(step.scored, 1),
            "points": decimal(step.points, 1),
            "p": decimal(step.p, 4),
            "p_rounded": decimal(Fraction(step.percent, 100), 2),
            "dp": signed(step.dp),
            "average": decimal(step.average, 2),
            "dp_term": signed_term(step.dp),
            "exact": decimal(step.exact, 2),
        }


def passes_shown(calculation: Calculation, rating) -> list[PassShown]:
    labels = ("Pass 1 (rating A)", "Pass 2 (rating B, the result)")
    published = (rating.pass1, rating.pass2)
    return [PassShown(*shown) for shown in zip(labels, calculation.passes, published)]


def k_shown(calculation: Calculation) -> dict | None:
    k = calculation.k
    if k is None:
        return None
    change = decimal(k.change, 2)
    return {
        "k": plain(decimal(k.k, 6)),
        "change": signed(change),
        "change_term": signed_term(change),
        "adjustment": decimal(k.adjustment, 2),
        "adjustment_term": signed_term(decimal(k.adjustment, 2)),
        "exact": decimal(k.exact, 2),
    }


@dataclass(frozen=True)
class GameRow:
    game: object  # grading.breakdown.RatedGame
    terms: object  # grading.engine.arithmetic.GameArithmetic, K ratings only
    increment: str


def game_rows(calculation: Calculation) -> list[GameRow]:
    return [
        GameRow(step.game, step.arithmetic, plain(decimal(step.arithmetic.increment, 6)) if step.arithmetic else "")
        for step in calculation.games
    ]
