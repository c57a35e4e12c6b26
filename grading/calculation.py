"""The calculation behind a published rating: the engine's arithmetic for what the rating keeps.

A rating keeps its new state, its dummy, prior rating and age, and every game as rated (the
breakdown); the period keeps its rule set and adjustment. grading.engine.arithmetic turns those
into each step of the method, through the functions the run itself used, so a page prints
numbers it never computes.
"""

from dataclasses import dataclass

from .breakdown import RatedGame
from .engine import RULE_SETS
from .engine.arithmetic import GameArithmetic, KArithmetic, PassArithmetic, k_arithmetic, published_p_passes
from .models import PlayerRating


@dataclass(frozen=True)
class GameStep:
    game: RatedGame
    arithmetic: GameArithmetic | None  # K ratings only


@dataclass(frozen=True)
class Calculation:
    method: str  # PlayerRating.Method
    games: tuple[GameStep, ...]
    passes: tuple[PassArithmetic, ...] = ()  # a P rating's two passes
    k: KArithmetic | None = None


def calculation_of(rating: PlayerRating, games: list[RatedGame]) -> Calculation:
    """The calculation of ``rating`` from its RatedGame lines (grading.breakdown.rated_games)."""
    rules = RULE_SETS[rating.period.rule_set]
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
    return Calculation(rating.method, tuple(GameStep(game, None) for game in games))
