"""The result of one period by the Elo method: columns to store, and one player's explanation."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from chess.months import Month
from grading.engine.codes import (
    CATEGORY_NAMES,
    FIRST_BRANCH_NAMES,
    FULL,
    K_RULE_NAMES,
    METHOD_NAMES,
    NO_STATE,
    PENDING,
    TYPE_NAMES,
    UNRATED_USED,
)
from grading.engine.inputs.forms import PendingColumns, PendingMonth, RatingState, StateColumns
from grading.engine.results.ecf import PlayersAndSides, floor_of
from grading.engine.rule_sets import RuleSet
from grading.engine.rules.elo import PD_UNITS, difference_used, enough_for_first, first_rating, first_rating_sums


@dataclass(frozen=True)
class EloPlayerColumns:
    """One entry per input player position; entries of players with no game are 0."""

    rated: np.ndarray  # bool: at least one game in the period (the name PeriodResult uses)
    category: np.ndarray  # int8 codes: RATED, UNRATED
    method: np.ndarray  # int8 codes: METHOD_ELO, METHOD_FIRST
    age: np.ndarray  # int64, -1 unknown
    junior: np.ndarray  # bool
    prior_rating: np.ndarray  # int64 Ro (0: unrated)
    prior_type: np.ndarray  # int8
    prior_peak: np.ndarray  # int64 (0: unrated)
    game_count: np.ndarray  # int64 games in the period, counted or not
    counted: np.ndarray  # int64 n for a rated player; kept counted games for an unrated one
    k: np.ndarray  # int64 the K used (0: no counted game)
    k_uncapped: np.ndarray  # int64 the K the player's rule gives
    k_rule: np.ndarray  # int8 codes.K_RULE_NAMES
    change_units: np.ndarray  # int64 K * sum(W - PD), in 200ths
    first_games: np.ndarray  # int64 G, T and 2S over the pending months, this one included
    first_total: np.ndarray
    first_halves: np.ndarray
    first_branch: np.ndarray  # int8 codes.FIRST_BRANCH_NAMES, 0 where G < 5 or S < 0.5
    first_percent: np.ndarray  # int64 p in hundredths
    first_bonus: np.ndarray  # int64 what is added to Ra
    first_rating: np.ndarray  # int64 round_half_up(Ra + bonus), before the floor is checked
    rating: np.ndarray  # int64 the rating after the period (0: none)
    below_floor: np.ndarray  # int64 a rated player's new rating under the floor, which unrated them (17.1; 0: none)
    type: np.ndarray  # int8 FULL, PENDING or NO_STATE
    changed: np.ndarray  # bool: the state changed (else it is the prior one)
    state_games: np.ndarray  # int64
    state_opponents_total: np.ndarray  # int64
    state_points_halves: np.ndarray  # int64
    state_peak: np.ndarray  # int64 (0: unrated)
    state_last_played: np.ndarray  # int64 Month.index, -1 never
    floor: np.ndarray  # int64 the rating floor in force (0: none; rule sets with floors only)
    unfloored: np.ndarray  # int64 the method's own rating, before the floor
    state_wins: np.ndarray  # int64 lifetime counters (section 14), the prior ones if unchanged
    state_draws: np.ndarray
    state_events3: np.ndarray


@dataclass(frozen=True)
class EloGameColumns:
    """Shape (games, 2): column 0 white's side, 1 black's. The increment K * (W - PD) is
    increment_units / 200, where ``has_increment`` (a rated player's counted game)."""

    player: np.ndarray
    opponent: np.ndarray
    halves: np.ndarray
    opponent_rating: np.ndarray  # the rating used for the opponent, UNRATED_USED for none
    counted: np.ndarray  # bool
    disregarded: np.ndarray  # bool: left out by the first-event rule
    difference: np.ndarray  # Ro - opponent's rating used (rated players' counted games)
    expected_units: np.ndarray  # PD in 200ths
    has_increment: np.ndarray
    increment_units: np.ndarray

    @property
    def expected_hundredths(self) -> np.ndarray:
        return self.expected_units // 2  # exact: every D offset is an even number of tenths

    @property
    def increment_micro(self) -> np.ndarray:
        return self.increment_units * (10**6 // PD_UNITS)  # exact: 200 divides a million


@dataclass(frozen=True)
class EloGameLine:
    game: int
    colour: str
    opponent: Hashable
    score: Fraction
    opponent_rating: int | None  # None: the opponent was unrated for this game
    counted: bool
    disregarded: bool  # by the first-event rule
    difference: int | None  # Ro minus the opponent's rating, before the 400-point rule
    difference_used: int | None  # after it: at most 400 either way
    expected: Fraction | None  # PD
    increment: Fraction | None  # K * (W - PD)


@dataclass(frozen=True)
class FirstRatingSteps:
    games: int  # G over the pending months, this one included
    opponents_total: int  # T
    points: Fraction  # S
    average: Fraction  # Ra = T / G; under FIDE's 2024 rules (T + 3600) / (G + 2)
    p: Fraction  # S / G; under FIDE's 2024 rules (S + 1) / (G + 2)
    games_short: int  # games still needed (0: enough)
    branch: str | None  # "even", "above", "below", "draws"; None: fewer than 5 games or no half point
    percent: int | None  # p in hundredths, for "below" and "draws"
    bonus: int | None  # 0, 20 x (2S - G) or dp(p)
    exact: Fraction | None  # Ra + bonus
    rating: int | None  # round_half_up(Ra + bonus), at most the cap
    reached: bool  # a rating of at least the floor: the player is rated from this period
    # Section 17.3: the imaginary drawn games added (0 before 2024), their opponents' rating, and
    # the cap on a first rating with what it cut (the rounded rating, where above the cap).
    imaginary_draws: int = 0
    imaginary_rating: int | None = None
    cap: int | None = None
    over_cap: int | None = None


def first_rating_steps(games: int, total: int, halves: int, rules: RuleSet) -> FirstRatingSteps:
    """Section 12, steps 2 to 4, for G games (G > 0) against opponents rated T in all, scoring
    halves / 2: the run's own functions on one player's sums."""
    done = first_rating(np.array([games]), np.array([total]), np.array([halves]), rules)
    enough = bool(enough_for_first(np.array([games]), np.array([halves]), rules)[0])
    rating = int(done.rating[0]) if enough else None
    g, t, h = first_rating_sums(games, total, halves, rules)
    draws = rules.first_rating_draws
    rounded = int(done.rounded[0])
    return FirstRatingSteps(
        games=games,
        opponents_total=total,
        points=Fraction(halves, 2),
        average=Fraction(t, g),
        p=Fraction(h, 2 * g),
        games_short=max(0, rules.first_rating_games - games),
        branch=FIRST_BRANCH_NAMES[done.branch[0]] if enough else None,
        percent=int(done.percent[0]) if enough else None,
        bonus=int(done.bonus[0]) if enough else None,
        exact=Fraction(t, g) + int(done.bonus[0]) if enough else None,
        rating=rating,
        reached=rating is not None and rating >= rules.rating_floor,
        imaginary_draws=draws,
        imaginary_rating=rules.first_rating_draws_rating if draws else None,
        cap=rules.first_rating_cap,
        over_cap=rounded if enough and rating is not None and rounded > rating else None,
    )


@dataclass(frozen=True)
class EloPlayerResult:
    id: Hashable
    position: int
    category: str  # "rated" or "unrated"
    method: str  # "elo" or "first"
    age: int | None
    junior: bool
    prior: RatingState | None
    k: int | None  # after the cap; None without a counted game
    k_uncapped: int | None
    k_rule: str | None  # codes.K_RULE_NAMES
    expected: Fraction | None  # sum of PD over counted games
    score: Fraction  # points of the counted (and, unrated, kept) games
    change: Fraction | None  # K * sum(W - PD), before rounding
    first: FirstRatingSteps | None
    rating: int | None
    type: str | None
    state: RatingState | None  # the state to store after the period
    changed: bool
    games: tuple[EloGameLine, ...] = field(repr=False)
    floor: int | None = None  # the rating floor in force (section 14), None without one
    unfloored: int | None = None  # the method's own rating, where a floor raised it
    # Section 17.1: the new rating under the lowest rating there is, which made the rated player
    # unrated (``rating`` None, ``type`` pending); None where it did not happen.
    below_floor: int | None = None


@dataclass(frozen=True)
class EloPeriodResult(PlayersAndSides):
    rules: RuleSet
    list_code: str
    period: Month
    player_ids: Sequence[Hashable]
    players: EloPlayerColumns
    games: EloGameColumns
    prior_states: StateColumns = field(repr=False)
    pending: PendingColumns = field(repr=False)  # the new states' pending months, by player and month

    def pending_of(self, position: int, table: PendingColumns | None = None) -> tuple[PendingMonth, ...]:
        rows = self.pending if table is None else table
        mine = np.flatnonzero(rows.player == position)
        return tuple(
            PendingMonth(
                Month.from_index(int(rows.month[i])),
                int(rows.games[i]),
                int(rows.opponents_total[i]),
                Fraction(int(rows.points_halves[i]), 2),
            )
            for i in mine
        )

    def state_of(self, position: int) -> RatingState | None:
        """The state after the period; None for a player with no rating and nothing pending."""
        p = self.players
        return _state(
            int(p.type[position]),
            *(int(column[position]) for column in (p.rating, p.state_games, p.state_opponents_total)),
            int(p.state_points_halves[position]),
            int(p.state_last_played[position]),
            int(p.state_peak[position]),
            lambda: self.pending_of(position),
            (int(p.state_wins[position]), int(p.state_draws[position]), int(p.state_events3[position])),
        )

    def prior_state_of(self, position: int) -> RatingState | None:
        prior = self.prior_states
        return _state(
            int(prior.type[position]),
            *(int(column[position]) for column in (prior.rating, prior.games, prior.opponents_total)),
            int(prior.points_halves[position]),
            int(prior.last_played[position]),
            int(self.players.prior_peak[position]),
            lambda: self.pending_of(position, prior.pending),
            (int(prior.wins[position]), int(prior.draws[position]), int(prior.events3[position])),
        )

    def player(self, position: int) -> EloPlayerResult:
        """Everything behind one player's rating (KeyError if they had no game)."""
        p = self.players
        if not p.rated[position]:
            raise KeyError(f"player {self.player_ids[position]!r} has no game this period")
        k = int(p.k[position])
        has_k = k > 0 or int(p.k_rule[position]) > 0
        kind = int(p.type[position])
        lines = self._lines(position)
        return EloPlayerResult(
            id=self.player_ids[position],
            position=position,
            category=CATEGORY_NAMES[p.category[position]],
            method=METHOD_NAMES[p.method[position]],
            age=None if p.age[position] < 0 else int(p.age[position]),
            junior=bool(p.junior[position]),
            prior=self.prior_state_of(position),
            k=k if has_k else None,
            k_uncapped=int(p.k_uncapped[position]) if has_k else None,
            k_rule=K_RULE_NAMES[p.k_rule[position]],
            expected=sum((line.expected for line in lines if line.expected is not None), Fraction(0))
            if has_k
            else None,
            score=sum((line.score for line in lines if line.counted), Fraction(0)),
            change=Fraction(int(p.change_units[position]), PD_UNITS) if has_k else None,
            first=self._first(position),
            rating=int(p.rating[position]) if kind == FULL else None,
            type=TYPE_NAMES[kind],
            state=self.state_of(position),
            changed=bool(p.changed[position]),
            games=lines,
            **floor_of(p, position),
            below_floor=int(p.below_floor[position]) or None,
        )

    def _first(self, position: int) -> FirstRatingSteps | None:
        p = self.players
        games = int(p.first_games[position])
        if not games:
            return None
        return first_rating_steps(games, int(p.first_total[position]), int(p.first_halves[position]), self.rules)

    def _lines(self, position: int) -> tuple[EloGameLine, ...]:
        g = self.games
        own = int(self.players.prior_rating[position])
        lines = []
        for game, side in self.sides_of(position):
            used = int(g.opponent_rating[game, side])
            has = bool(g.has_increment[game, side])
            difference = int(g.difference[game, side])
            lines.append(
                EloGameLine(
                    game=game,
                    colour=("white", "black")[side],
                    opponent=self.player_ids[int(g.opponent[game, side])],
                    score=Fraction(int(g.halves[game, side]), 2),
                    opponent_rating=None if used == UNRATED_USED else used,
                    counted=bool(g.counted[game, side]),
                    disregarded=bool(g.disregarded[game, side]),
                    difference=difference if has else None,
                    difference_used=int(difference_used(difference, own, self.rules)) if has else None,
                    expected=Fraction(int(g.expected_units[game, side]), PD_UNITS) if has else None,
                    increment=Fraction(int(g.increment_units[game, side]), PD_UNITS) if has else None,
                )
            )
        return tuple(lines)


def _state(kind, rating, games, total, halves, last, peak, pending, counters) -> RatingState | None:
    if kind == NO_STATE:
        return None
    return RatingState(
        rating=rating if kind == FULL else None,
        type=TYPE_NAMES[kind],
        games=games,
        opponents_total=total,
        points=Fraction(halves, 2),
        last_played=None if last < 0 else Month.from_index(last),
        peak=peak if kind == FULL else (peak or None),
        pending=pending() if kind == PENDING else (),
        wins=counters[0],
        draws=counters[1],
        events3=counters[2],
    )
