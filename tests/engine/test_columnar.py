"""The columnar way in and out, for bulk runs."""

import dataclasses
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from grading.engine import (
    ECF_2024,
    FULL,
    METHOD_K,
    METHOD_P,
    ColumnarInputs,
    EngineInputError,
    Month,
    RatingState,
    StateColumns,
    rate_period,
    to_columnar,
)
from tests.engine.federation import random_month
from tests.engine.test_properties import summary


def two_players(**changes) -> ColumnarInputs:
    """1500 (full, adult) beats 1900 (full, adult) on otb-standard, 2026-10."""
    states = StateColumns(
        type=np.array([FULL, FULL], dtype=np.int8),
        rating=np.array([1500, 1900]),
        games=np.array([50, 50]),
        opponents_total=np.array([75000, 95000]),
        points_halves=np.array([50, 50]),
        last_played=np.full(2, Month(2026, 9).index),
    )
    inputs = ColumnarInputs(
        rules=ECF_2024,
        list_code="otb-standard",
        period=Month(2026, 10),
        player_ids=["a", "b"],
        birth_date=np.array(["NaT", "NaT"], dtype="datetime64[D]"),
        title=[None, None],
        states={"otb-standard": states},
        white=np.array([0]),
        black=np.array([1]),
        white_halves=np.array([2], dtype=np.int8),
    )
    return dataclasses.replace(inputs, **changes)


def test_columnar_input_gives_the_columns_of_the_result():
    # a: (8.4 + 10) * 20 / 20 = 18.4 -> 1518; b: -18.4 -> 1881.6 -> 1882
    result = rate_period(two_players())
    p, g = result.players, result.games
    assert p.rating.tolist() == [1518, 1882] and p.type.tolist() == [FULL, FULL]
    assert p.method.tolist() == [METHOD_K, METHOD_K]
    assert p.state_games.tolist() == [51, 51]
    assert p.state_opponents_total.tolist() == [75000 + 1900, 95000 + 1500]
    assert g.opponent_rating.tolist() == [[1900, 1500]]
    assert g.increment_micro.tolist() == [[18_400_000, -18_400_000]]
    assert (g.increment_num * 10 == np.array([[184, -184]]) * g.increment_den).all()


def test_the_columnar_and_object_forms_give_the_same_result():
    inputs = random_month(5, players=150, games=500)
    assert summary(rate_period(to_columnar(inputs))) == summary(rate_period(inputs))


def test_p_rated_players_have_no_increment_and_their_pass_ratings_in_columns():
    inputs = random_month(6, players=100, games=300)
    result = rate_period(inputs)
    p_sides = result.players.method[result.games.player] == METHOD_P
    assert not result.games.has_increment[p_sides].any()
    assert (
        result.players.pass2[result.players.method == METHOD_P]
        == result.players.rating[result.players.method == METHOD_P]
    ).all()


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"black": np.array([0])}, "black[0]"),
        ({"white": np.array([2])}, "white[0]"),
        ({"white_halves": np.array([3], dtype=np.int8)}, "white_halves[0]"),
        ({"birth_date": np.array(["NaT", "2026-10-01"], dtype="datetime64[D]")}, "birth_date[1]"),
        ({"game_date": np.array(["2026-11-02"], dtype="datetime64[D]")}, "game_date[0]"),
        ({"adjustment_b": 0.1}, "adjustment_b"),  # a binary float is not an exact decimal
    ],
)
def test_bad_columnar_input_is_refused_naming_the_array_and_position(changes, field):
    with pytest.raises(EngineInputError) as refused:
        rate_period(two_players(**changes))
    assert refused.value.field == field


def test_a_state_last_played_after_the_period_is_refused():
    inputs = two_players()
    states = dataclasses.replace(
        inputs.states["otb-standard"], last_played=np.array([Month(2026, 9).index, Month(2026, 11).index])
    )
    with pytest.raises(EngineInputError, match=r"states\.otb-standard\.last_played\[1\]"):
        rate_period(dataclasses.replace(inputs, states={"otb-standard": states}))


def test_a_game_date_in_the_period_is_accepted_and_adjustments_are_decimals():
    result = rate_period(
        two_players(game_date=np.array(["2026-10-31"], dtype="datetime64[D]"), adjustment_a=Decimal("-0.4"))
    )
    # 1518.4 - 0.4 = 1518; 1881.6 - 0.4 = 1881.2 -> 1881
    assert result.players.rating.tolist() == [1518, 1881]


def test_a_month_without_games_rates_nobody():
    result = rate_period(
        two_players(
            white=np.array([], dtype=np.int64),
            black=np.array([], dtype=np.int64),
            white_halves=np.array([], dtype=np.int8),
        )
    )
    assert not result.players.rated.any() and result.games.player.shape == (0, 2)


def test_one_players_result_holds_every_number_behind_the_rating():
    result = rate_period(two_players())
    a = result.player_by_id("a")
    assert a.prior == RatingState(1500, "full", 50, 75000, 25, Month(2026, 9))
    assert (a.category, a.method, a.k_factor, a.dummy, a.age, a.junior) == ("full", "K", 20, 1800, None, False)
    # The new state keeps the peak of Full ratings and the lifetime counters (one win).
    assert a.state == RatingState(1518, "full", 51, 76900, 26, Month(2026, 10), peak=1518, wins=1)
    assert (a.floor, a.unfloored) == (None, None)  # ecf-2024 has no floors
    [line] = a.games
    assert (
        line.game,
        line.colour,
        line.opponent,
        line.score,
        line.opponent_rating,
        line.opponent_type,
        line.increment,
    ) == (0, "white", "b", 1, 1900, "full", Fraction(92, 5))
    assert result.sides_of(1) == [(0, 1)]


def test_narrow_integer_columns_give_the_same_result():
    inputs = two_players()
    narrow = StateColumns(
        *(
            np.asarray(getattr(inputs.states["otb-standard"], name), dtype=np.int32)
            for name in ("type", "rating", "games", "opponents_total", "points_halves", "last_played")
        )
    )
    result = rate_period(
        dataclasses.replace(
            inputs,
            states={"otb-standard": narrow},
            white=np.array([0], dtype=np.int32),
            black=np.array([1], dtype=np.int32),
        )
    )
    assert result.players.rating.tolist() == [1518, 1882]
    assert result.players.state_opponents_total.dtype == np.int64
