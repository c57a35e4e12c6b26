"""One period of one list: categories, then the three passes of docs/rules.md section 5.

Every game has two sides, white's and black's; every per-player sum over them is an exact
int64 ``np.add.at``.
"""

from __future__ import annotations

import numpy as np

from grading.engine.codes import FULL, FULLY_RATED, METHOD_K, METHOD_P, NEW, NO_METHOD, PARTIALLY_RATED
from grading.engine.inputs.convert import to_columnar, validate_columnar
from grading.engine.inputs.forms import ColumnarInputs, PeriodInputs
from grading.engine.methods.elo_period import rate_elo_period
from grading.engine.results.ecf import GameColumns, PeriodResult, PlayerColumns
from grading.engine.results.elo import EloPeriodResult
from grading.engine.rules.categories import ages, categories, dummy_ratings, is_junior
from grading.engine.rules.floors import floors, lifetime_after, peak_read
from grading.engine.rules.krating import game_offsets, game_terms, increments, k_factors, k_rating, micro_units
from grading.engine.rules.prating import p_rating
from grading.engine.sides import Sides


def rate_period(inputs: PeriodInputs | ColumnarInputs) -> PeriodResult | EloPeriodResult:
    """Rate one period of one list by its rule set's method; raises EngineInputError on bad input."""
    if isinstance(inputs, PeriodInputs):
        inputs = to_columnar(inputs)
    else:
        validate_columnar(inputs)
    return rate_elo_period(inputs) if inputs.rules.is_elo else _rate(inputs)


def _rate(inputs: ColumnarInputs) -> PeriodResult:
    rules, period = inputs.rules, inputs.period
    sides = Sides(inputs)
    rated = sides.rated
    own = inputs.states_on(inputs.list_code)
    prior_rating = np.where(own.type > 0, own.rating, 0)

    age = ages(inputs.birth_date, period)
    junior = is_junior(age, rules)
    category = categories(own, rated, rules, period)
    dummy = np.where(rated, dummy_ratings(inputs, age, sides.rated_positions), 0)
    fully_rated = category == FULLY_RATED
    p_rated = (category == PARTIALLY_RATED) | (category == NEW)
    game_count = sides.count
    points_halves = sides.total(sides.halves)

    # Prior accumulators count for the P rating of Partially Rated players only.
    partial = category == PARTIALLY_RATED
    p_games = game_count + np.where(partial, own.games, 0)
    p_prior_total = np.where(partial, own.opponents_total, 0)
    p_points = points_halves + np.where(partial, own.points_halves, 0)

    def pass_of_p(opponent_rating: np.ndarray):
        rating, kind = p_rating(p_games, p_prior_total + sides.opponent_total(opponent_rating), p_points, dummy, rules)
        return np.where(p_rated, rating, 0), np.where(p_rated, kind, 0).astype(np.int8)

    pass1, pass1_type = pass_of_p(np.where(category == NEW, dummy, prior_rating))
    used2 = np.where(p_rated, pass1, prior_rating)
    pass2, pass2_type = pass_of_p(used2)
    used3 = np.where(p_rated, pass2, prior_rating)
    used3_type = np.where(p_rated, pass2_type, FULL).astype(np.int8)

    offsets = game_offsets(
        prior_rating[sides.player], used3[sides.opponent], sides.halves, used3_type[sides.opponent], rules
    )
    terms = game_terms(offsets, rules)
    weighted_sum = sides.total(terms)
    k_num, k_den = k_factors(weighted_sum, game_count, junior, rules)
    k_num, k_den = np.where(fully_rated, k_num, 0), np.where(fully_rated, k_den, 1)
    k_new = k_rating(prior_rating, weighted_sum, k_num, k_den, inputs.adjustment_a, inputs.adjustment_b, rules)

    method = np.select([fully_rated, p_rated], [METHOD_K, METHOD_P], NO_METHOD).astype(np.int8)
    unfloored = np.select([fully_rated, p_rated], [k_new, pass2], 0)
    new_type = np.select([fully_rated, p_rated], [FULL, pass2_type], 0).astype(np.int8)
    lifetime = lifetime_after(inputs, sides, own)
    floor = floors(
        rules, rated & (own.type == FULL), lifetime, peak_read(rules, own.peak, own.rating, own.type == FULL)
    )
    rating = np.maximum(unfloored, floor)
    k_opponent_total = np.where(fully_rated, sides.opponent_total(used3), 0)
    p_opponent_total = np.where(p_rated, sides.opponent_total(used2), 0)
    keeps_prior = fully_rated | partial
    players = PlayerColumns(
        rated=rated,
        category=category,
        method=method,
        age=age,
        junior=junior & rated,
        dummy=dummy,
        prior_rating=prior_rating,
        prior_type=own.type.astype(np.int8),
        game_count=game_count,
        period_points_halves=points_halves,
        pass1=pass1,
        pass1_type=pass1_type,
        pass2=pass2,
        pass2_type=pass2_type,
        k_num=k_num,
        k_den=k_den,
        rating=rating,
        type=new_type,
        state_games=np.where(rated, game_count + np.where(keeps_prior, own.games, 0), 0),
        state_opponents_total=k_opponent_total
        + p_opponent_total
        + np.where(rated & keeps_prior, own.opponents_total, 0),
        state_points_halves=np.where(rated, points_halves + np.where(keeps_prior, own.points_halves, 0), 0),
        floor=floor,
        unfloored=unfloored,
        # The highest Full rating published: what a peak floor reads (section 14).
        state_peak=np.where(rated, np.maximum(own.peak, np.where(new_type == FULL, rating, 0)), 0),
        **lifetime.columns(rated),
    )
    return PeriodResult(
        rules=rules,
        list_code=inputs.list_code,
        period=period,
        player_ids=inputs.player_ids,
        players=players,
        games=_game_columns(sides, players, used2, used3, used3_type, terms, rules),
        prior_states=own,
    )


def _game_columns(sides: Sides, players: PlayerColumns, used2, used3, used3_type, terms, rules) -> GameColumns:
    k_side = players.method[sides.player] == METHOD_K
    opponent = sides.opponent
    used2_type = np.where(players.method == METHOD_P, players.pass1_type, FULL)
    numerator, denominator = increments(terms, players.k_num[sides.player], players.k_den[sides.player], rules)
    numerator = np.where(k_side, numerator, 0)
    denominator = np.where(k_side, denominator, 1)

    def by_game(side_values: np.ndarray) -> np.ndarray:
        return side_values.reshape(2, -1).T

    return GameColumns(
        player=by_game(sides.player),
        opponent=by_game(opponent),
        halves=by_game(sides.halves),
        opponent_rating=by_game(np.where(k_side, used3[opponent], used2[opponent])),
        opponent_type=by_game(np.where(k_side, used3_type[opponent], used2_type[opponent]).astype(np.int8)),
        has_increment=by_game(k_side),
        increment_num=by_game(numerator),
        increment_den=by_game(denominator),
        increment_micro=by_game(micro_units(numerator, denominator)),
    )
