"""What one period's run is given: an object form (one dataclass per player and game) and the
columnar form the engine computes on (one numpy array per field)."""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np

from .periods import Month
from .rulesets import RuleSet


class EngineInputError(ValueError):
    """Input the engine refuses; ``field`` names the offending field, e.g. ``games[3].date``."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# --- object form -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingState:
    """A player's state on one list: the prior one given to a run, or the new one it computes."""

    rating: int
    type: str  # "full" or "partial"
    games: int
    opponents_total: int
    points: Decimal | Fraction | int  # a multiple of 0.5
    last_played: Month | None  # None: never played


@dataclass(frozen=True, slots=True)
class Player:
    id: Hashable
    birth_date: datetime.date | None = None
    title: str | None = None
    ratings: Mapping[str, RatingState] = field(default_factory=dict)  # list code -> prior state


@dataclass(frozen=True, slots=True)
class Game:
    white: Hashable  # player ids
    black: Hashable
    result: str  # "1-0", "0-1" or "1/2-1/2"
    date: datetime.date


@dataclass(frozen=True)
class PeriodInputs:
    rules: RuleSet | str
    list_code: str
    period: Month
    players: Sequence[Player]
    games: Sequence[Game]  # rated games only (docs/rules.md section 2 is applied by the caller)
    adjustment_a: Decimal = Decimal(0)
    adjustment_b: Decimal = Decimal(0)


# --- columnar form ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StateColumns:
    """Every player's prior state on one list; ``type`` is NO_STATE where there is none."""

    type: np.ndarray  # int8 codes.NO_STATE / PARTIAL / FULL
    rating: np.ndarray  # int64
    games: np.ndarray  # int64
    opponents_total: np.ndarray  # int64
    points_halves: np.ndarray  # int64, points x 2
    last_played: np.ndarray  # int64 Month.index, -1 for never played

    @classmethod
    def empty(cls, n: int) -> StateColumns:
        zeros = (np.zeros(n, dtype=np.int64) for _ in range(4))
        return cls(np.zeros(n, dtype=np.int8), *zeros, np.full(n, -1, dtype=np.int64))

    def as_int64(self) -> StateColumns:
        """The same columns with every number as int64, so that no sum can overflow."""
        return StateColumns(
            np.asarray(self.type, dtype=np.int8),
            *(
                np.asarray(getattr(self, name), dtype=np.int64)
                for name in ("rating", "games", "opponents_total", "points_halves", "last_played")
            ),
        )

    def __len__(self) -> int:
        return len(self.type)


@dataclass(frozen=True)
class ColumnarInputs:
    """One period of one list, players by position 0..n-1 and games by position 0..m-1.

    ``states`` needs the list being rated and, for the dummy rules, ``otb-standard`` and
    ``otb-rapid``; a missing list means no player has a state there.
    """

    rules: RuleSet
    list_code: str
    period: Month
    player_ids: Sequence[Hashable]
    birth_date: np.ndarray  # datetime64[D], NaT where unknown
    title: Sequence[str | None]
    states: Mapping[str, StateColumns]
    white: np.ndarray  # player positions
    black: np.ndarray
    white_halves: np.ndarray  # white's score x 2: 2 win, 1 draw, 0 loss
    adjustment_a: Decimal = Decimal(0)
    adjustment_b: Decimal = Decimal(0)
    game_date: np.ndarray | None = None  # datetime64[D]; checked against the period if given

    @property
    def player_count(self) -> int:
        return len(self.player_ids)

    @property
    def game_count(self) -> int:
        return len(self.white)

    def states_on(self, list_code: str) -> StateColumns:
        states = self.states.get(list_code)
        return StateColumns.empty(self.player_count) if states is None else states.as_int64()
