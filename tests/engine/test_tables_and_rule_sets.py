"""The lookup tables of file 000 and the rule sets of docs/rules.md section 1."""

import dataclasses
from fractions import Fraction

import pytest

from grading.engine import ECF_2020, ECF_2024, FIDE_2017, RULE_SETS
from grading.engine.rules.tables import DP_BY_PERCENT, d_offset_tenths
from tests.engine.spec_tables import d_offset, elo_performance_table


def test_the_d_offset_table_is_the_one_of_the_source_for_every_difference():
    for d in range(-1200, 1201):
        expected = d_offset(abs(d)) * (1 if d >= 0 else -1)
        assert Fraction(d_offset_tenths(d), 10) == expected, d


@pytest.mark.parametrize(
    "d, offset",
    [(0, "0.0"), (3, "0.0"), (4, "0.2"), (-10, "-0.2"), (11, "0.4"), (391, "8.2"), (392, "8.4"), (-5000, "-8.4")],
)
def test_d_offsets_at_the_edges_of_the_ranges(d, offset):
    assert Fraction(d_offset_tenths(d), 10) == Fraction(offset)


def test_the_elo_performance_table_is_the_one_of_the_source():
    table = elo_performance_table()
    assert len(table) == 101 == len(DP_BY_PERCENT)
    for percent, dp in enumerate(DP_BY_PERCENT):
        assert table[Fraction(percent, 100)] == dp


def test_the_ecf_and_fide_rule_sets_are_registered_by_name_with_their_method():
    bases = ["ecf-2020", "ecf-2024", "fide-2017", "fide-2017-rapid", "fide-2024", "fide-2025", "fide-2024-rapid"]
    assert list(RULE_SETS) == bases + [f"{name}+floors" for name in bases]  # each also with floors
    assert RULE_SETS["ecf-2020"] is ECF_2020 and RULE_SETS["ecf-2024"] is ECF_2024
    assert [rules.method for rules in RULE_SETS.values()] == ["ecf", "ecf", "elo", "elo", "elo", "elo", "elo"] * 2
    assert [rules.floors for rules in RULE_SETS.values()] == [False] * 7 + [True] * 7
    assert RULE_SETS["ecf-2024+floors"].activity_window_months == 36  # otherwise ecf-2024's
    assert (FIDE_2017.rating_floor, FIDE_2017.k_cap, FIDE_2017.first_rating_window_months) == (1000, 700, 26)


def test_rule_sets_are_frozen_data():
    with pytest.raises(dataclasses.FrozenInstanceError):
        ECF_2024.activity_window_months = 12
    with pytest.raises(TypeError):
        ECF_2024.title_dummies["NM"] = 2000
    assert {ECF_2020: "old", ECF_2024: "new"}[ECF_2024] == "new"  # usable as a key


def test_the_parameters_of_ecf_2020_and_ecf_2024_differ_as_in_section_1():
    assert (ECF_2020.activity_window_months, ECF_2024.activity_window_months) == (60, 36)
    assert (ECF_2020.partial_opponent_q, ECF_2024.partial_opponent_q) == (40, 20)
    assert dict(ECF_2020.title_dummies) == {}
    assert dict(ECF_2024.title_dummies) == {
        "GM": 2500,
        "IM": 2350,
        "WGM": 2200,
        "FM": 2200,
        "WIM": 2100,
        "CM": 2050,
        "WFM": 2000,
        "WCM": 1800,
    }
    assert (ECF_2020.lapsed_full_dummy, ECF_2024.lapsed_full_dummy) == (False, True)
    assert (ECF_2020.rapid_for_standard_dummy, ECF_2024.rapid_for_standard_dummy) == (False, True)
    for rules in (ECF_2020, ECF_2024):
        assert (rules.adult_dummy, rules.junior_dummy_per_year, rules.junior_below_age) == (1800, 100, 18)
        assert rules.non_standard_dummy_offset == -100
        assert (rules.base_k, rules.junior_k, rules.k_cap, rules.rating_floor) == (20, 40, 700, 100)
