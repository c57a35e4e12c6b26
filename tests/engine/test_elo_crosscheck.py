"""The vectorised Elo method against the scalar reading of docs/rules.md part 2 in elo_reference.py,
and the properties any correct rating must have."""

import dataclasses
import random

import pytest

from grading.engine import rate_period
from tests.engine.elo_reference import rate_elo as reference_rate
from tests.engine.federation import random_elo_month


def outcome(result, pid):
    got = result.player_by_id(pid)
    state = got.state
    pending = [(m.month, m.games, m.opponents_total, m.points) for m in state.pending] if state else []
    return (
        got.rating,
        got.type,
        got.k,
        [line.counted for line in got.games],
        [line.increment for line in got.games],
        (state.games, state.opponents_total, state.points, state.peak) if state and state.type == "full" else None,
        pending,
    )


def expected_outcome(want):
    state = (want.games, want.opponents_total, want.points, want.peak) if want.type == "full" else None
    return (want.rating, want.type, want.k, want.counted, want.increments, state, sorted(want.pending))


@pytest.mark.parametrize("rules", ["fide-2017", "fide-2017-rapid"])
@pytest.mark.parametrize("seed", range(4))
def test_the_engine_agrees_with_the_reference_on_random_elo_federations(rules, seed):
    inputs = random_elo_month(seed, rules=rules)
    result = rate_period(inputs)
    expected = reference_rate(inputs)

    assert sorted(result.player_ids[i] for i in result.rated_positions()) == sorted(expected)
    for pid, want in expected.items():
        assert outcome(result, pid) == expected_outcome(want), pid


def test_the_random_elo_federations_reach_every_rule():
    result = rate_period(random_elo_month(0))
    everyone = [result.player(i) for i in result.rated_positions()]
    assert {p.k_rule for p in everyone} >= {"new-player", "junior", "top", "base"}
    assert any(p.k is not None and p.k < p.k_uncapped for p in everyone)  # the 700 cap
    assert any(p.first and p.first.reached for p in everyone)
    assert any(p.type == "pending" for p in everyone)
    assert any(line.disregarded for p in everyone for line in p.games)
    assert any(line.difference_used != line.difference for p in everyone for line in p.games)


@pytest.mark.parametrize("seed", range(3))
def test_the_order_of_games_and_players_changes_nothing(seed):
    inputs = random_elo_month(seed, players=150, games=600)
    rng = random.Random(seed)
    players, games = list(inputs.players), list(inputs.games)
    rng.shuffle(players)
    rng.shuffle(games)
    before = rate_period(inputs)
    after = rate_period(dataclasses.replace(inputs, players=players, games=games))

    for i in before.rated_positions():
        pid = before.player_ids[i]
        a, b = before.player_by_id(pid), after.player_by_id(pid)
        assert (a.rating, a.type, a.k, a.state) == (b.rating, b.type, b.k, b.state), pid
        assert sorted(line.increment or 0 for line in a.games) == sorted(line.increment or 0 for line in b.games)
