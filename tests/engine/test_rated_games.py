"""docs/rules.md section 2: the engine is given rated games only, and refuses anything else."""

import datetime

import pytest

from grading.engine import EngineInputError, Game
from tests.engine.helpers import full, game, player, rate

PLAYERS = [player("a", standard=full(1500)), player("b", standard=full(1500))]


@pytest.mark.parametrize("result", ["1-0F", "0-1F", "0-0F", "BYE-1", "1/2-1/2N", "½-½", ""])
def test_defaults_byes_and_unplayed_games_are_not_rated(result):
    with pytest.raises(EngineInputError, match=r"games\[0\]\.result"):
        rate(PLAYERS, [game("a", "b", result)])


def test_both_players_must_be_identified_and_different():
    with pytest.raises(EngineInputError, match=r"games\[0\]\.black: player 'z' is not listed"):
        rate(PLAYERS, [game("a", "z")])
    with pytest.raises(EngineInputError, match=r"games\[1\]\.black: white and black are both 'a'"):
        rate(PLAYERS, [game("a", "b"), game("a", "a")])


def test_a_game_outside_the_period_is_refused():
    late = Game("a", "b", "1-0", datetime.date(2026, 11, 2))
    with pytest.raises(EngineInputError) as refused:
        rate(PLAYERS, [game("a", "b"), late])
    assert str(refused.value) == "games[1].date: 2026-11-02 is outside period 2026-10"


def test_the_three_results_score_one_half_and_nothing():
    # a win, a draw and a loss between equal full adults: +10, 0, -10
    for result, change in (("1-0", 10), ("1/2-1/2", 0), ("0-1", -10)):
        assert rate(PLAYERS, [game("a", "b", result)]).player_by_id("a").rating == 1500 + change
