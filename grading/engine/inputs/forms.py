"""What one period's run is given: an object form (one dataclass per player and game) and the
columnar form the engine computes on (one numpy array per field)."""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np

from chess.months import Month
from grading.engine.rule_sets import RuleSet


class EngineInputError(ValueError):
    """Input the engine refuses; ``field`` names the offending field, e.g. ``games[3].date``."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# --- object form -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PendingMonth:
    """One month's games towards a first Elo rating (docs/rules.md section 12)."""

    month: Month
    games: int
    opponents_total: int
    points: Decimal | Fraction | int  # a multiple of 0.5


@dataclass(frozen=True, slots=True)
class RatingState:
    """A player's state on one list: the prior one given to a run, or the new one it computes."""

    rating: int | None  # None only for a pending state
    type: str  # "full" or "partial"; on an Elo list "full" or "pending"
    games: int
    opponents_total: int
    points: Decimal | Fraction | int  # a multiple of 0.5
    last_played: Month | None  # None: never played
    # The highest rating published on the list: Elo (None: the rating); ECF, the highest Full
    # rating (None: none), which only rating floors read.
    peak: int | None = None
    pending: tuple[PendingMonth, ...] = ()  # Elo: the months counting towards a first rating
    # Lifetime counters on the list, for rating floors (docs/rules.md section 14).
    wins: int = 0
    draws: int = 0
    events3: int = 0


@dataclass(frozen=True, slots=True)
class Player:
    id: Hashable
    birth_date: datetime.date | None = None
    title: str | None = None
    ratings: Mapping[str, RatingState] = field(default_factory=dict)  # list code -> prior state


class _AtPeriodStart:
    def __repr__(self) -> str:
        return "AT_PERIOD_START"


AT_PERIOD_START = _AtPeriodStart()  # a rating used not given: the one at the start of the period


@dataclass(frozen=True, slots=True)
class Game:
    white: Hashable  # player ids
    black: Hashable
    result: str  # "1-0", "0-1" or "1/2-1/2"
    date: datetime.date
    event: str | None = None  # Elo: the first-event rule groups a newcomer's games by event
    # Elo, for an event that began in an earlier period: each player's rating at its start
    # (None: unrated then), which their opponent uses in this game.
    white_rating_used: int | None | _AtPeriodStart = AT_PERIOD_START
    black_rating_used: int | None | _AtPeriodStart = AT_PERIOD_START


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
class PendingColumns:
    """Pending months of Elo states, a row per player and month (docs/rules.md section 12)."""

    player: np.ndarray  # int64 player position
    month: np.ndarray  # int64 Month.index
    games: np.ndarray  # int64
    opponents_total: np.ndarray  # int64
    points_halves: np.ndarray  # int64

    FIELDS = ("player", "month", "games", "opponents_total", "points_halves")

    @classmethod
    def empty(cls) -> PendingColumns:
        return cls(*(np.zeros(0, dtype=np.int64) for _ in cls.FIELDS))

    def as_int64(self) -> PendingColumns:
        return PendingColumns(*(np.asarray(getattr(self, name), dtype=np.int64) for name in self.FIELDS))

    def select(self, rows: np.ndarray) -> PendingColumns:
        return PendingColumns(*(getattr(self, name)[rows] for name in self.FIELDS))

    def plus(self, more: PendingColumns) -> PendingColumns:
        """These rows, then ``more``."""
        return PendingColumns(*(np.concatenate([getattr(self, f), getattr(more, f)]) for f in self.FIELDS))

    def __len__(self) -> int:
        return len(self.player)


@dataclass(frozen=True)
class StateColumns:
    """Every player's prior state on one list; ``type`` is NO_STATE where there is none."""

    type: np.ndarray  # int8 codes.NO_STATE / PARTIAL / FULL / PENDING
    rating: np.ndarray  # int64 (0 for a pending state)
    games: np.ndarray  # int64
    opponents_total: np.ndarray  # int64
    points_halves: np.ndarray  # int64, points x 2
    last_played: np.ndarray  # int64 Month.index, -1 for never played
    peak: np.ndarray | None = None  # int64 peak, 0 where not given (Elo: then the rating)
    pending: PendingColumns | None = None  # Elo pending months
    wins: np.ndarray | None = None  # int64 lifetime counters (rating floors); None: zeros
    draws: np.ndarray | None = None
    events3: np.ndarray | None = None

    NUMBERS = ("rating", "games", "opponents_total", "points_halves", "last_played")
    COUNTERS = ("wins", "draws", "events3")

    @classmethod
    def empty(cls, n: int) -> StateColumns:
        """``n`` players without a state: every column there to be filled in, peak and counters too."""
        zeros = (np.zeros(n, dtype=np.int64) for _ in range(4))
        counters = {name: np.zeros(n, dtype=np.int64) for name in cls.COUNTERS}
        return cls(
            np.zeros(n, dtype=np.int8), *zeros, np.full(n, -1, dtype=np.int64), np.zeros(n, dtype=np.int64), **counters
        )

    def as_int64(self) -> StateColumns:
        """The same columns with every number as int64, so that no sum can overflow; an absent
        peak or counter is zeros and absent pending months an empty table."""
        n = len(self.type)

        def numbers(values):
            return np.zeros(n, dtype=np.int64) if values is None else np.asarray(values, dtype=np.int64)

        return StateColumns(
            np.asarray(self.type, dtype=np.int8),
            *(np.asarray(getattr(self, name), dtype=np.int64) for name in self.NUMBERS),
            peak=numbers(self.peak),
            pending=PendingColumns.empty() if self.pending is None else self.pending.as_int64(),
            **{name: numbers(getattr(self, name)) for name in self.COUNTERS},
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
    # Each game's event as a rank in the events' code-point order, -1 for none: the Elo
    # first-event rule (with game_date) and the events3 counter read it. Elo: the ratings used
    # (codes.USED_AT_START where not given, codes.UNRATED_USED where the player was unrated
    # when the event began).
    event: np.ndarray | None = None
    white_rating_used: np.ndarray | None = None
    black_rating_used: np.ndarray | None = None

    @property
    def player_count(self) -> int:
        return len(self.player_ids)

    @property
    def game_count(self) -> int:
        return len(self.white)

    def states_on(self, list_code: str) -> StateColumns:
        states = self.states.get(list_code)
        return (StateColumns.empty(self.player_count) if states is None else states).as_int64()
