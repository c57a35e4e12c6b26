"""docs/rules.md section 3: categories, activity windows and ages."""

import pytest

from grading.engine import EngineInputError
from tests.engine.helpers import full, game, partial, player, rate


def category_of(state, rules):
    result = rate(
        [player("x", standard=state), player("a", standard=full(1500))], [game("x", "a", "1/2-1/2")], rules=rules
    )
    return result.player_by_id("x").category


@pytest.mark.parametrize(
    "rules, last, expected",
    [
        # ecf-2024, window 36: for 2026-10, last_played >= 2026-10 - 36 months = 2023-10
        ("ecf-2024", "2023-10", "full"),
        ("ecf-2024", "2023-09", "new"),
        # ecf-2020, window 60: last_played >= 2021-10
        ("ecf-2020", "2021-10", "full"),
        ("ecf-2020", "2021-09", "new"),
        ("ecf-2020", "2023-09", "full"),
    ],
)
def test_the_activity_window_is_36_months_under_ecf_2024_and_60_under_ecf_2020(rules, last, expected):
    assert category_of(full(1700, last=last), rules) == expected


def test_a_state_never_played_is_lapsed():
    assert category_of(full(1700, last=None), "ecf-2020") == "new"


def test_an_active_partial_state_makes_a_partially_rated_player_and_a_lapsed_one_a_new_player():
    assert category_of(partial(1400, 3, 4500, "1.5", last="2024-01"), "ecf-2024") == "partial"
    assert category_of(partial(1400, 3, 4500, "1.5", last="2023-01"), "ecf-2024") == "new"


def test_a_lapsed_players_accumulators_are_discarded():
    # lapsed partial (4 games, 6000, 2.5 points) draws a 1500: a New player, so
    # G = 1 + 1, T = 1500 + 1800 = 3300 -> 1650, and the state holds this month only
    result = rate(
        [player("x", standard=partial(1400, 4, 6000, "2.5", last="2020-01")), player("a", standard=full(1500))],
        [game("x", "a", "1/2-1/2")],
    )
    x = result.player_by_id("x")
    assert (x.category, x.rating, x.state.games, x.state.opponents_total) == ("new", 1650, 1, 1500)


def test_players_without_a_game_keep_their_state_and_are_not_rated():
    result = rate(
        [player("a", standard=full(1500)), player("b", standard=full(1500)), player("idle", standard=full(1700))],
        [game("a", "b")],
    )
    position = result.position_of("idle")
    assert not result.players.rated[position]
    assert result.players.category[position] == 0
    with pytest.raises(KeyError):
        result.player_by_id("idle")


def test_every_rated_player_gets_last_played_the_period():
    result = rate([player("a", standard=full(1500, last="2024-01")), player("n")], [game("a", "n")])
    assert {str(result.player_by_id(p).state.last_played) for p in "an"} == {"2026-10"}


@pytest.mark.parametrize(
    "born, age, dummy",
    [
        # age in completed years on 2026-10-01
        ("2008-10-01", 18, 1800),  # 18th birthday on the first day: adult
        ("2008-10-02", 17, 1700),  # junior: 100 x 17
        ("2008-09-30", 18, 1800),
        ("2016-02-29", 10, 1000),
        (None, None, 1800),  # unknown birth date: adult
    ],
)
def test_age_is_in_completed_years_on_the_first_day_of_the_period(born, age, dummy):
    result = rate([player("n", born=born), player("a", standard=full(1500))], [game("n", "a", "1/2-1/2")])
    n = result.player_by_id("n")
    assert (n.age, n.dummy, n.junior) == (age, dummy, age is not None and age < 18)


@pytest.mark.parametrize("born", ["2026-10-01", "2026-10-15"])
def test_a_birth_date_on_or_after_the_first_day_of_the_period_is_an_input_error(born):
    with pytest.raises(EngineInputError, match=r"players\[0\]\.birth_date"):
        rate([player("n", born=born), player("a", standard=full(1500))], [game("n", "a")])


def test_a_17_year_old_is_a_junior_for_k():
    # born 2008-10-02: 17 on 2026-10-01 -> K 40 after a win against an equal: +20
    result = rate(
        [player("j", born="2008-10-02", standard=full(1500)), player("a", standard=full(1500))], [game("j", "a")]
    )
    assert result.player_by_id("j").rating == 1520
