"""The calculation behind a published rating: the engine's arithmetic for what the rating keeps.

A rating keeps its new state, its dummy, prior rating and age, and every game as rated (the
breakdown); the period keeps its rule set and adjustment. grading.engine.results.ecf_arithmetic turns those
into each step of the method, through the functions the run itself used, so a page prints
numbers it never computes.
"""

from dataclasses import dataclass, replace
from decimal import Decimal

from chess.months import Month
from grading.engine import RULE_SETS
from grading.engine.inputs.forms import PendingMonth
from grading.engine.results.ecf_arithmetic import (
    GameArithmetic,
    KArithmetic,
    PassArithmetic,
    k_arithmetic,
    published_p_passes,
)
from grading.engine.results.elo import FirstRatingSteps, first_rating_steps
from grading.engine.results.elo_arithmetic import (
    EloArithmetic,
    EloGameArithmetic,
    FirstRatingProgress,
    elo_arithmetic,
    first_rating_progress,
)
from grading.engine.rules.adjustment import AdjustmentSteps, adjustment_steps
from grading.engine.rules.floors import FloorArithmetic, floor_arithmetic, peak_read
from grading.models import PlayerRating
from grading.run.breakdown import RatedGame


@dataclass(frozen=True)
class GameStep:
    game: RatedGame
    arithmetic: GameArithmetic | EloGameArithmetic | None  # K and Elo ratings' counted games


@dataclass(frozen=True)
class Calculation:
    method: str  # PlayerRating.Method
    games: tuple[GameStep, ...]
    passes: tuple[PassArithmetic, ...] = ()  # a P rating's two passes
    k: KArithmetic | None = None
    elo: EloArithmetic | None = None  # an Elo rating change
    first: FirstRatingSteps | None = None  # a first Elo rating, reached or not
    progress: FirstRatingProgress | None = None  # still pending: the months towards one
    earlier_games: int = 0  # a first rating's games from earlier months
    floor: FloorArithmetic | None = None  # a rule set with floors: the rating's floor (section 14)
    adjustment: AdjustmentSteps | None = None  # FIDE's adjustment at the month's start (section 18)


def first_rating_progress_of(rating: PlayerRating, next_period: Month) -> FirstRatingProgress:
    """How far a pending state is from a first rating in ``next_period``."""
    months = [
        PendingMonth(Month.parse(m["month"]), m["games"], m["opponents_total"], Decimal(m["points"]))
        for m in rating.pending
    ]
    return first_rating_progress(months, next_period, RULE_SETS[rating.period.rule_set])


def calculation_of(rating: PlayerRating, games: list[RatedGame], peak_before: int | None = None) -> Calculation:
    """The calculation of ``rating`` from its RatedGame lines (grading.run.breakdown.rated_games);
    ``peak_before``, the peak its floor read (prior_peak, or the engine's peak_read), for its floor."""
    rules = RULE_SETS[rating.period.rule_set]
    calculation = method_calculation(rating, games, rules)
    if rating.adjusted_from is not None:
        calculation = replace(calculation, adjustment=adjustment_of(rating.adjusted_from))
    if rating.floor is not None:  # a rule set with floors gave it one
        own = rating.method_rating
        floor = floor_arithmetic(rules, rating.wins, rating.draws, rating.events3, peak_before, own)
        calculation = replace(calculation, floor=floor)
    return calculation


def adjustment_of(before: int | None) -> AdjustmentSteps | None:
    """FIDE's adjustment of a rating that began the month at ``before`` raised (a state's
    ``adjusted_from``): what the calculation page, the player page and the API show."""
    return None if before is None else adjustment_steps(before)


def prior_peak(rules, prior) -> int | None:
    """The peak the floor of the rating after ``prior`` (a stored state, or None) read, as the
    engine reads it (peak_read)."""
    if prior is None:
        return None
    full = prior.type == PlayerRating.Type.FULL
    return int(peak_read(rules, prior.peak or 0, prior.rating or 0, full)) or None


def method_calculation(rating, games: list[RatedGame], rules) -> Calculation:
    """The calculation of the method's own rating (before a floor)."""
    halves = [int(game.score * 2) for game in games]
    if rating.method == PlayerRating.Method.P:
        passes = published_p_passes(
            rating.games,
            rating.opponents_total,
            int(rating.points * 2),
            halves,
            [game.pass1_opponent_rating for game in games],
            [game.opponent_rating for game in games],
            rating.dummy_rating,
            rules,
        )
        return Calculation(rating.method, tuple(GameStep(game, None) for game in games), passes=passes)
    if rating.method == PlayerRating.Method.K:
        k = k_arithmetic(
            rating.prior_rating,
            halves,
            [game.opponent_rating for game in games],
            [game.opponent_type for game in games],
            rating.age,
            rating.period.adjustment_a,
            rating.period.adjustment_b,
            rules,
        )
        return Calculation(rating.method, tuple(GameStep(game, step) for game, step in zip(games, k.games)), k=k)
    if rating.method == PlayerRating.Method.ELO:
        elo = elo_arithmetic(
            rating.prior_rating,
            halves,
            [game.opponent_rating if game.counted == "counted" else None for game in games],
            rating.k_rule,
            rules,
        )
        steps = tuple(GameStep(game, step) for game, step in zip(games, elo.games))
        return Calculation(rating.method, steps, elo=elo)
    if rating.method == PlayerRating.Method.FIRST:
        # The games of the pending months with this one's: the new state's, or its months'.
        this_month = sum(1 for game in games if game.counted == "counted")
        steps = tuple(GameStep(game, None) for game in games)
        if rating.type == PlayerRating.Type.PENDING:
            progress = first_rating_progress_of(rating, Month.parse(rating.month))
            return Calculation(
                rating.method, steps, first=progress.first, progress=progress, earlier_games=progress.games - this_month
            )
        first = first_rating_steps(rating.games, rating.opponents_total, int(rating.points * 2), rules)
        return Calculation(rating.method, steps, first=first, earlier_games=first.games - this_month)
    return Calculation(rating.method, tuple(GameStep(game, None) for game in games))
