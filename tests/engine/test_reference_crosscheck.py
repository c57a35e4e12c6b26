"""The vectorised engine against the scalar reading of docs/rules.md in reference/ecf.py."""

import pytest

from grading.engine import rate_period
from tests.engine.federation import random_month
from tests.engine.reference.ecf import rate as reference_rate


def assert_same(inputs):
    result = rate_period(inputs)
    expected = reference_rate(inputs)
    assert sorted(result.player_ids[i] for i in result.rated_positions()) == sorted(expected)
    for pid, want in expected.items():
        got = result.player_by_id(pid)
        assert (got.category, got.method, got.pass1, got.pass2, got.rating, got.type) == (
            want.category,
            want.method,
            want.pass1,
            want.pass2,
            want.rating,
            want.type,
        ), pid
        assert (got.state.games, got.state.opponents_total, got.state.points) == (
            want.games,
            want.opponents_total,
            want.points,
        ), pid
        assert [(g.game, g.opponent_rating, g.opponent_type, g.increment) for g in got.games] == [
            (w.game, w.opponent_rating, w.opponent_type, w.increment) for w in want.lines
        ], pid


@pytest.mark.parametrize("rules", ["ecf-2020", "ecf-2024"])
@pytest.mark.parametrize("list_code", ["otb-standard", "otb-rapid", "online"])
@pytest.mark.parametrize("seed", range(3))
def test_the_engine_agrees_with_the_reference_on_random_federations(rules, list_code, seed):
    assert_same(random_month(seed, players=300, games=1200, rules=rules, list_code=list_code))


@pytest.mark.parametrize("seed", range(10, 14))
def test_the_engine_agrees_with_the_reference_with_a_drift_adjustment(seed):
    assert_same(random_month(seed, adjustment=True))


def test_the_random_federations_mix_every_category_and_method():
    inputs = random_month(0, players=300, games=1200, rules="ecf-2024", list_code="otb-standard")
    result = rate_period(inputs)
    rated = result.rated_positions()
    assert set(result.players.category[rated]) == {1, 2, 3}
    assert result.players.junior[rated].any() and (~result.players.junior[rated]).any()
    assert (result.players.k_den[rated] > 1).any()  # somebody reached K = 700 / N
