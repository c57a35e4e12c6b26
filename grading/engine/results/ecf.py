"""The result of one period's run: columns to bulk-write, and one player's explanation."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np

from chess.months import Month
from grading.engine.codes import CATEGORY_NAMES, METHOD_K, METHOD_NAMES, METHOD_P, NEW, TYPE_NAMES
from grading.engine.inputs.forms import RatingState, StateColumns
from grading.engine.rule_sets import RuleSet


@dataclass(frozen=True)
class PlayerColumns:
    """One entry per input player position; entries of players with no rated game are 0."""

    rated: np.ndarray  # bool: at least one rated game in the period
    category: np.ndarray  # int8 codes.CATEGORY_NAMES
    method: np.ndarray  # int8 codes.METHOD_NAMES
    age: np.ndarray  # int64 completed years on the first day of the period, -1 unknown
    junior: np.ndarray  # bool
    dummy: np.ndarray  # int64 dummy opponent rating
    prior_rating: np.ndarray  # int64 prior state on this list (0: none)
    prior_type: np.ndarray  # int8 codes.TYPE_NAMES
    game_count: np.ndarray  # int64 N, rated games this period
    period_points_halves: np.ndarray  # int64 points scored this period x 2
    pass1: np.ndarray  # int64 P rating "A" (P-rated players only)
    pass1_type: np.ndarray  # int8
    pass2: np.ndarray  # int64 P rating "B"
    pass2_type: np.ndarray  # int8
    k_num: np.ndarray  # int64 K = k_num / k_den (K-rated players only)
    k_den: np.ndarray  # int64
    rating: np.ndarray  # int64 the new rating
    type: np.ndarray  # int8 the new rating's type
    state_games: np.ndarray  # int64 the new state's accumulators
    state_opponents_total: np.ndarray  # int64
    state_points_halves: np.ndarray  # int64
    floor: np.ndarray  # int64 the rating floor in force (0: none; rule sets with floors only)
    unfloored: np.ndarray  # int64 the method's own rating, before the floor
    state_peak: np.ndarray  # int64 the highest Full rating published, this one included (0: none)
    state_wins: np.ndarray  # int64 lifetime counters (section 14), this period included
    state_draws: np.ndarray
    state_events3: np.ndarray


@dataclass(frozen=True)
class GameColumns:
    """Shape (games, 2): one row per input game position, column 0 white's side, 1 black's.

    Opponent rating and type are those of the deciding pass (2 for P-rated players, 3 for
    K-rated). The increment (D_offset + S_offset) * K / Q = increment_num / increment_den
    exists only where ``has_increment`` (a K-rated player); increment_micro is it in
    millionths, rounded half up.
    """

    player: np.ndarray
    opponent: np.ndarray
    halves: np.ndarray  # the player's score x 2
    opponent_rating: np.ndarray
    opponent_type: np.ndarray
    has_increment: np.ndarray
    increment_num: np.ndarray
    increment_den: np.ndarray
    increment_micro: np.ndarray


@dataclass(frozen=True)
class GameLine:
    game: int  # input position of the game
    colour: str
    opponent: Hashable
    score: Fraction
    opponent_rating: int  # in the deciding pass
    opponent_type: str
    pass1_opponent_rating: int | None  # P-rated players: the rating used in pass 1
    increment: Fraction | None  # K-rated players


@dataclass(frozen=True)
class PlayerResult:
    id: Hashable
    position: int
    category: str
    method: str
    age: int | None
    junior: bool
    dummy: int
    prior: RatingState | None  # prior state on this list, accumulators included
    pass1: int | None
    pass1_type: str | None
    pass2: int | None
    pass2_type: str | None
    k_factor: Fraction | None
    rating: int
    type: str
    state: RatingState  # the new state to store
    games: tuple[GameLine, ...] = field(repr=False)
    floor: int | None = None  # the rating floor in force (section 14), None without one
    unfloored: int | None = None  # the method's own rating, where a floor raised it


def floors_shown(players, positions) -> tuple[list, list]:
    """The floors of the players at ``positions`` (None for none) and their method's own ratings
    where the floor raised them (else None), from either method's player columns."""
    floor, own = players.floor[positions].tolist(), players.unfloored[positions].tolist()
    return [value or None for value in floor], [mine if value > mine else None for value, mine in zip(floor, own)]


def floor_of(players, position: int) -> dict:
    """A PlayerResult's ``floor`` and ``unfloored``."""
    (floor,), (unfloored,) = floors_shown(players, [position])
    return {"floor": floor, "unfloored": unfloored}


class PlayersAndSides:
    """Finding a player's position and games in a period's result (of either method), from its
    ``player_ids``, ``players.rated``, ``players.game_count`` and ``games.player``."""

    def rated_positions(self) -> np.ndarray:
        return np.flatnonzero(self.players.rated)

    @cached_property
    def _positions(self) -> dict:
        return {pid: i for i, pid in enumerate(self.player_ids)}

    def position_of(self, player_id: Hashable) -> int:
        return self._positions[player_id]

    @cached_property
    def _sides_by_player(self) -> tuple[np.ndarray, np.ndarray]:
        """Flat side indexes (2 * game + side) grouped by player in input game order, and each
        player's start in them."""
        order = np.argsort(self.games.player.ravel(), kind="stable")
        start = np.zeros(len(self.player_ids) + 1, dtype=np.int64)
        np.cumsum(self.players.game_count, out=start[1:])
        return order, start

    def sides_of(self, position: int) -> list[tuple[int, int]]:
        """(game, side) of one player's games, in input order; side 0 white, 1 black."""
        order, start = self._sides_by_player
        return [divmod(flat, 2) for flat in order[start[position] : start[position + 1]].tolist()]

    def player_by_id(self, player_id: Hashable):
        return self.player(self.position_of(player_id))


@dataclass(frozen=True)
class PeriodResult(PlayersAndSides):
    rules: RuleSet
    list_code: str
    period: Month
    player_ids: Sequence[Hashable]
    players: PlayerColumns
    games: GameColumns
    prior_states: StateColumns = field(repr=False)  # on this list, as given

    def player(self, position: int) -> PlayerResult:
        """Everything behind one player's rating (KeyError if they had no rated game)."""
        p = self.players
        if not p.rated[position]:
            raise KeyError(f"player {self.player_ids[position]!r} has no rated game this period")
        method = int(p.method[position])
        is_p = method == METHOD_P
        return PlayerResult(
            id=self.player_ids[position],
            position=position,
            category=CATEGORY_NAMES[p.category[position]],
            method=METHOD_NAMES[method],
            age=None if p.age[position] < 0 else int(p.age[position]),
            junior=bool(p.junior[position]),
            dummy=int(p.dummy[position]),
            prior=self._prior_state(position),
            pass1=int(p.pass1[position]) if is_p else None,
            pass1_type=TYPE_NAMES[p.pass1_type[position]] if is_p else None,
            pass2=int(p.pass2[position]) if is_p else None,
            pass2_type=TYPE_NAMES[p.pass2_type[position]] if is_p else None,
            k_factor=Fraction(int(p.k_num[position]), int(p.k_den[position])) if method == METHOD_K else None,
            rating=int(p.rating[position]),
            type=TYPE_NAMES[p.type[position]],
            state=RatingState(
                int(p.rating[position]),
                TYPE_NAMES[p.type[position]],
                int(p.state_games[position]),
                int(p.state_opponents_total[position]),
                Fraction(int(p.state_points_halves[position]), 2),
                self.period,
                peak=int(p.state_peak[position]) or None,
                wins=int(p.state_wins[position]),
                draws=int(p.state_draws[position]),
                events3=int(p.state_events3[position]),
            ),
            games=self._game_lines(position, is_p),
            **floor_of(p, position),
        )

    def _prior_state(self, position: int) -> RatingState | None:
        prior = self.prior_states
        kind = int(prior.type[position])
        if not kind:
            return None
        last = int(prior.last_played[position])
        return RatingState(
            int(prior.rating[position]),
            TYPE_NAMES[kind],
            int(prior.games[position]),
            int(prior.opponents_total[position]),
            Fraction(int(prior.points_halves[position]), 2),
            None if last < 0 else Month.from_index(last),
            peak=int(prior.peak[position]) or None,
            wins=int(prior.wins[position]),
            draws=int(prior.draws[position]),
            events3=int(prior.events3[position]),
        )

    def _game_lines(self, position: int, is_p: bool) -> tuple[GameLine, ...]:
        g, p = self.games, self.players
        lines = []
        for game, side in self.sides_of(position):
            opponent = int(g.opponent[game, side])
            pass1_rating = int(p.dummy[opponent] if p.category[opponent] == NEW else p.prior_rating[opponent])
            lines.append(
                GameLine(
                    game=game,
                    colour=("white", "black")[side],
                    opponent=self.player_ids[opponent],
                    score=Fraction(int(g.halves[game, side]), 2),
                    opponent_rating=int(g.opponent_rating[game, side]),
                    opponent_type=TYPE_NAMES[g.opponent_type[game, side]],
                    pass1_opponent_rating=pass1_rating if is_p else None,
                    increment=Fraction(int(g.increment_num[game, side]), int(g.increment_den[game, side]))
                    if g.has_increment[game, side]
                    else None,
                )
            )
        return tuple(lines)
