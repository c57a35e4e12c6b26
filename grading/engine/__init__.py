"""The rating engine: one period of one rating list, by the ECF three-pass method or the Elo
method as FIDE runs it (the rule set names its method).

Pure Python and numpy, no Django. The rules are docs/rules.md; docs/engine.md
describes this API and the decisions taken where docs/rules.md is silent.

Two ways in, one way out::

    from grading.engine import PeriodInputs, Player, RatingState, Game, Month, rate_period

    result = rate_period(PeriodInputs(rules="ecf-2024", list_code="otb-standard",
                                      period=Month.parse("2026-10"), players=[...], games=[...]))
    result.players.rating            # numpy column per input player position
    result.games.increment_micro     # numpy column per input game and side, shape (m, 2)
    result.player_by_id("123456A")   # PlayerResult: everything behind one player's rating

``rate_period`` also takes a ``ColumnarInputs`` (numpy arrays, players by position), the fast
path for a national month: nothing is built per player or per game in Python.
"""

from chess.months import Month
from grading.engine.codes import (
    CATEGORY_NAMES,
    FULL,
    FULLY_RATED,
    METHOD_K,
    METHOD_NAMES,
    METHOD_P,
    NEW,
    NO_METHOD,
    NO_STATE,
    NOT_RATED,
    PARTIAL,
    PARTIALLY_RATED,
    PENDING,
    RATED,
    RESULT_WHITE_HALVES,
    TYPE_NAMES,
)
from grading.engine.inputs.checks import check_state
from grading.engine.inputs.convert import to_columnar, validate_columnar
from grading.engine.inputs.forms import (
    AT_PERIOD_START,
    ColumnarInputs,
    EngineInputError,
    Game,
    PendingColumns,
    PendingMonth,
    PeriodInputs,
    Player,
    RatingState,
    StateColumns,
)
from grading.engine.methods.passes import rate_period
from grading.engine.results.ecf import GameColumns, GameLine, PeriodResult, PlayerColumns, PlayerResult
from grading.engine.results.elo import EloGameLine, EloPeriodResult, EloPlayerResult, FirstRatingSteps
from grading.engine.rule_sets import (
    ECF_2020,
    ECF_2024,
    FIDE_2017,
    FIDE_2017_RAPID,
    FIDE_2024,
    FIDE_2024_RAPID,
    FIDE_2025,
    RAPID_LIST,
    RULE_SETS,
    STANDARD_LIST,
    RuleSet,
)
from grading.engine.rules.adjustment import adjusted_state, adjusted_states

__all__ = [
    "CATEGORY_NAMES",
    "FULL",
    "FULLY_RATED",
    "METHOD_K",
    "METHOD_NAMES",
    "METHOD_P",
    "NEW",
    "NO_METHOD",
    "NO_STATE",
    "NOT_RATED",
    "PARTIAL",
    "PARTIALLY_RATED",
    "PENDING",
    "RATED",
    "RESULT_WHITE_HALVES",
    "TYPE_NAMES",
    "check_state",
    "to_columnar",
    "validate_columnar",
    "AT_PERIOD_START",
    "EloGameLine",
    "EloPeriodResult",
    "EloPlayerResult",
    "FirstRatingSteps",
    "PendingColumns",
    "PendingMonth",
    "FIDE_2017",
    "FIDE_2017_RAPID",
    "FIDE_2024",
    "FIDE_2024_RAPID",
    "FIDE_2025",
    "adjusted_state",
    "adjusted_states",
    "ColumnarInputs",
    "EngineInputError",
    "Game",
    "PeriodInputs",
    "Player",
    "RatingState",
    "StateColumns",
    "rate_period",
    "Month",
    "GameColumns",
    "GameLine",
    "PeriodResult",
    "PlayerColumns",
    "PlayerResult",
    "ECF_2020",
    "ECF_2024",
    "RAPID_LIST",
    "RULE_SETS",
    "STANDARD_LIST",
    "RuleSet",
]
