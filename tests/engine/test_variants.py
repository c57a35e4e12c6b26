"""Rule variants: a base rule set and named overrides of its parameters (docs/rules.md part 3)."""

import datetime
from fractions import Fraction
from pathlib import Path

import pytest

from grading.engine import ECF_2024, RULE_SETS, EngineInputError, Game, Month, RatingState
from grading.engine.variants import PARAMETERS, variant
from tests.engine.helpers import full, player, rate


def test_a_name_or_a_base_without_overrides_is_the_rule_set_itself():
    assert variant("ecf-2024") is ECF_2024
    assert variant({"base": "ecf-2024"}) is ECF_2024


def test_a_variant_is_named_after_its_base_and_what_differs():
    floors = variant({"base": "ecf-2024", "floors": True})
    wider = variant({"base": "ecf-2024", "floors": True, "activity_window_months": 48})

    assert floors == RULE_SETS["ecf-2024+floors"]  # the same parameters as the registered one
    assert wider.name == "ecf-2024+activity_window_months=48+floors"
    assert wider.described_as == {"base": "ecf-2024", "floors": True, "activity_window_months": 48}
    assert (wider.activity_window_months, wider.floors, wider.adult_dummy) == (48, True, 1800)


def test_a_wider_activity_window_keeps_a_player_fully_rated():
    # Last played 2023-01: lapsed under ecf-2024 (active from 2023-10), active in 48 months
    # (from 2022-10). Fully rated, a win over a 1500 is K-rated: +10 -> 1510.
    players = [player("a", standard=full(1500, last="2023-01")), player("b", standard=full(1500))]
    games = [Game("a", "b", "1-0", datetime.date(2026, 10, 4))]

    lapsed = rate(players, games).player_by_id("a")
    active = rate(players, games, rules=variant({"base": "ecf-2024", "activity_window_months": 48}))

    assert (lapsed.category, lapsed.method) == ("new", "P")
    assert (active.player_by_id("a").category, active.player_by_id("a").rating) == ("full", 1510)


def test_the_title_dummies_and_the_adult_dummy_are_parameters():
    rules = variant({"base": "ecf-2024", "title_dummies": {"GM": 2600}, "adult_dummy": 1700})
    players = [player("gm", title="GM"), player("im", title="IM"), player("o", standard=full(1500))]
    games = [Game("gm", "o", "1-0", datetime.date(2026, 10, 4)), Game("im", "o", "1-0", datetime.date(2026, 10, 5))]

    result = rate(players, games, rules=rules)

    # IM has no dummy of its own in this variant: the adult one.
    assert (result.player_by_id("gm").dummy, result.player_by_id("im").dummy) == (2600, 1700)


def test_an_elo_variant_changes_k():
    # 1835 draws 1800: PD 0.55; K 30 instead of 20: 30 x (0.5 - 0.55) = -1.5.
    rated = RatingState(1835, "full", 100, 183500, 50, Month.parse("2026-09"))
    other = RatingState(1800, "full", 100, 180000, 50, Month.parse("2026-09"))
    rules = variant({"base": "fide-2017-rapid", "base_k": 30})

    result = rate(
        [player("a", standard=rated), player("b", standard=other)],
        [Game("a", "b", "1/2-1/2", datetime.date(2026, 10, 4))],
        rules=rules,
    )

    assert result.player_by_id("a").games[0].increment == Fraction(-3, 2)


@pytest.mark.parametrize(
    ("spec", "field", "message"),
    [
        ({"base": "ecf-2024", "window": 48}, "rules.window", "unknown parameter"),
        ({"base": "ecf-2024", "activity_window_months": 0}, "rules.activity_window_months", "out of range (1 to 240)"),
        ({"base": "ecf-2024", "adult_dummy": "1800"}, "rules.adult_dummy", "not a whole number"),
        ({"base": "ecf-2024", "title_dummies": {"GM": 50}}, "rules.title_dummies.GM", "out of range"),
        ({"base": "fide-2017", "adult_dummy": 1700}, "rules.adult_dummy", "has no such parameter"),
        ({"base": "ecf-2024", "floor_base": 200}, "rules.floor_cap", "below floor_base"),
        ({"base": 2024}, "rules.base", "not a base rule set"),
        ({"base": "ecf-2024+floors", "floors": True}, "rules.base", "not a base rule set"),
    ],
)
def test_an_unknown_parameter_or_an_absurd_value_is_refused_by_name(spec, field, message):
    with pytest.raises(EngineInputError) as refused:
        variant(spec)
    assert refused.value.field == field and message in refused.value.message


def test_a_variant_with_two_unknown_parameters_names_both():
    with pytest.raises(EngineInputError) as refused:
        variant({"base": "ecf-2024", "window": 48, "k_cap": 40, "floor": True})

    assert refused.value.field == "rules"
    assert refused.value.message.startswith("unknown parameters window, floor (known: ")


def test_the_docs_list_every_parameter():
    rules_doc = (Path(__file__).parents[2] / "docs" / "rules.md").read_text()
    assert [name for name in PARAMETERS if f"`{name}`" not in rules_doc] == []
