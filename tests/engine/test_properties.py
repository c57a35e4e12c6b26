"""Properties that hold for every month (hypothesis)."""

import dataclasses
import datetime
import random
from decimal import Decimal

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.engine import ECF_2024, Game, PeriodInputs, Player, rate_period
from grading.engine.rules.prating import p_rating
from tests.engine.federation import random_month
from tests.engine.helpers import PERIOD, full

seeds = st.integers(min_value=0, max_value=2**32 - 1)
small_months = st.builds(random_month, seeds, players=st.integers(2, 40), games=st.integers(1, 120))


def summary(result):
    """Everything about each rated player, keyed by id, not depending on input positions."""
    out = {}
    for position in result.rated_positions():
        p = result.player(int(position))
        lines = sorted((g.opponent, g.score, g.opponent_rating, g.opponent_type, g.increment) for g in p.games)
        out[p.id] = (p.category, p.method, p.pass1, p.pass2, p.rating, p.type, p.state, tuple(lines))
    return out


@settings(max_examples=40, deadline=None)
@given(small_months, st.randoms(use_true_random=False))
def test_the_result_does_not_depend_on_the_order_of_games_or_players(inputs, rnd):
    players, games = list(inputs.players), list(inputs.games)
    rnd.shuffle(players)
    rnd.shuffle(games)
    shuffled = dataclasses.replace(inputs, players=players, games=games)
    assert summary(rate_period(shuffled)) == summary(rate_period(inputs))


@settings(max_examples=40, deadline=None)
@given(small_months)
def test_every_rating_is_at_least_100(inputs):
    result = rate_period(inputs)
    rated = result.rated_positions()
    assert (result.players.rating[rated] >= 100).all()
    assert (result.players.pass1[result.players.method == 1] >= 100).all()


@settings(max_examples=200, deadline=None)
@given(games=st.integers(0, 500), average=st.integers(100, 2900), dummy=st.integers(-100, 2800), data=st.data())
def test_scoring_more_points_never_gives_a_lower_p_rating(games, average, dummy, data):
    halves = data.draw(st.integers(0, 2 * games))
    more = data.draw(st.integers(halves, 2 * games))
    as_arrays = [np.array([x]) for x in (games, games * average, dummy)]
    lower, _ = p_rating(as_arrays[0], as_arrays[1], np.array([halves]), as_arrays[2], ECF_2024)
    higher, _ = p_rating(as_arrays[0], as_arrays[1], np.array([more]), as_arrays[2], ECF_2024)
    assert higher[0] >= lower[0]


@settings(max_examples=40, deadline=None)
@given(
    ratings=st.lists(st.integers(100, 2800), min_size=1, max_size=12),
    results=st.lists(st.sampled_from(["1-0", "0-1", "1/2-1/2"]), min_size=1, max_size=12),
    better=st.data(),
)
def test_a_new_player_scoring_more_against_the_same_opponents_is_not_rated_lower(ratings, results, better):
    # opponents are Fully Rated, so their ratings used do not depend on the new player's results
    results = (results * len(ratings))[: len(ratings)]
    improved = list(results)
    index = better.draw(st.integers(0, len(ratings) - 1))
    improved[index] = {"0-1": "1/2-1/2", "1/2-1/2": "1-0", "1-0": "1-0"}[results[index]]

    def rating(outcomes):
        players = [Player("n")] + [Player(f"o{i}", ratings={"otb-standard": full(r)}) for i, r in enumerate(ratings)]
        games = [Game("n", f"o{i}", res, datetime.date(2026, 10, 1)) for i, res in enumerate(outcomes)]
        result = rate_period(PeriodInputs("ecf-2024", "otb-standard", PERIOD, players, games))
        return result.player_by_id("n").rating

    assert rating(improved) >= rating(results)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, count=st.integers(2, 30), game_count=st.integers(1, 150))
def test_between_two_fully_rated_adults_under_ecf_2024_the_two_increments_are_opposite(seed, count, game_count):
    rng = random.Random(seed)
    players = [Player(f"p{i}", ratings={"otb-standard": full(rng.randint(100, 2800))}) for i in range(count)]
    played = {p.id: 0 for p in players}
    games = []
    for _ in range(game_count):
        white, black = rng.sample(players, 2)
        if played[white.id] < 35 and played[black.id] < 35:  # both keep K = 20
            played[white.id] += 1
            played[black.id] += 1
            games.append(
                Game(
                    white.id,
                    black.id,
                    rng.choice(["1-0", "0-1", "1/2-1/2"]),
                    datetime.date(2026, 10, rng.randint(1, 31)),
                )
            )
    result = rate_period(PeriodInputs("ecf-2024", "otb-standard", PERIOD, players, games, Decimal(0), Decimal(0)))
    g = result.games
    assert g.has_increment.all()
    assert (g.increment_num[:, 0] * g.increment_den[:, 1] == -g.increment_num[:, 1] * g.increment_den[:, 0]).all()
    assert (g.increment_micro[:, 0] == -g.increment_micro[:, 1]).all()
