"""docs/rules.md sections 1 and 4: the dummy opponent's rating, step by step.

Each case rates the player as a New or Partially Rated player drawing once with a full 1500:
G = 2, S = 1, p = 0.50, dp = 0, so the P rating is (1500 + dummy) / 2, rounded half up.
"""

import pytest

from tests.engine.helpers import full, game, partial, player, rate


def dummy_and_rating(someone, rules="ecf-2024", list_code="otb-standard"):
    opponent_state = {"otb-standard": "standard", "otb-rapid": "rapid", "online": "online"}[list_code]
    result = rate(
        [someone, player("a", **{opponent_state: full(1500)})],
        [game(someone.id, "a", "1/2-1/2")],
        rules=rules,
        list_code=list_code,
    )
    x = result.player_by_id(someone.id)
    return x.dummy, x.rating


def test_an_untitled_adults_dummy_is_1800_and_a_juniors_100_per_year():
    assert dummy_and_rating(player("n")) == (1800, 1650)  # (1500 + 1800) / 2
    assert dummy_and_rating(player("n", born="2014-06-01")) == (1200, 1350)  # age 12: (1500 + 1200) / 2


@pytest.mark.parametrize("list_code", ["otb-rapid", "online"])
def test_every_list_but_otb_standard_takes_100_off_the_dummy(list_code):
    assert dummy_and_rating(player("n"), list_code=list_code) == (1700, 1600)  # (1500 + 1700) / 2
    assert dummy_and_rating(player("n", born="2014-06-01"), list_code=list_code) == (1100, 1300)
    assert dummy_and_rating(player("n"), rules="ecf-2020", list_code=list_code) == (1700, 1600)


@pytest.mark.parametrize(
    "title, value",
    [
        ("GM", 2500),
        ("IM", 2350),
        ("WGM", 2200),
        ("FM", 2200),
        ("WIM", 2100),
        ("CM", 2050),
        ("WFM", 2000),
        ("WCM", 1800),
    ],
)
def test_under_ecf_2024_the_eight_titles_give_their_dummy(title, value):
    assert dummy_and_rating(player("n", title=title))[0] == value


def test_a_titled_junior_gets_the_titles_dummy_instead_of_100_per_year():
    # age 15, FM: 2200 instead of 1500 -> (1500 + 2200) / 2 = 1850
    assert dummy_and_rating(player("n", born="2011-04-30", title="FM")) == (2200, 1850)


def test_other_titles_count_as_no_title():
    assert dummy_and_rating(player("n", title="NM"))[0] == 1800
    assert dummy_and_rating(player("n", title="AGM"))[0] == 1800


def test_titles_are_not_used_under_ecf_2020():
    assert dummy_and_rating(player("n", title="GM"), rules="ecf-2020") == (1800, 1650)


def test_titles_give_the_dummy_only_to_players_with_no_full_otb_standard_rating():
    # a Partial otb-standard rating: the title still counts (GM 2500)
    someone = player("n", title="GM", standard=partial(2000, 3, 6000, "1.5"))
    assert dummy_and_rating(someone)[0] == 2500
    # a Full otb-standard rating (here rated on the rapid list): no title dummy, 1800 - 100
    someone = player("n", title="GM", standard=full(2300))
    assert dummy_and_rating(someone, list_code="otb-rapid")[0] == 1700
    # a lapsed Full otb-standard rating counts too: no title; the lapsed 2300 is higher -> 2300
    someone = player("n", title="GM", standard=full(2300, last="2020-01"))
    assert dummy_and_rating(someone)[0] == 2300


def test_the_100_offset_applies_to_titled_dummies_too():
    # GM on the rapid list: 2500 - 100 = 2400 -> (1500 + 2400) / 2 = 1950
    assert dummy_and_rating(player("n", title="GM"), list_code="otb-rapid") == (2400, 1950)


def test_a_returning_player_with_a_higher_lapsed_full_rating_uses_it_under_ecf_2024_only():
    # last played 2021-01: lapsed under both windows (2024: >= 2023-10; 2020: >= 2021-10)
    returning = player("r", standard=full(2100, last="2021-01"))
    # ecf-2024: dummy max(1800, 2100) = 2100 -> (1500 + 2100) / 2 = 1800
    assert dummy_and_rating(returning) == (2100, 1800)
    # ecf-2020: the lapsed rating is not used: 1800 -> 1650
    assert dummy_and_rating(returning, rules="ecf-2020") == (1800, 1650)


def test_a_lapsed_full_rating_below_the_default_is_not_used():
    assert dummy_and_rating(player("r", standard=full(1600, last="2021-01")))[0] == 1800


def test_a_lapsed_partial_rating_is_not_used_as_the_dummy():
    assert dummy_and_rating(player("r", standard=partial(2100, 5, 10000, "2.5", last="2021-01")))[0] == 1800


def test_the_lapsed_rating_is_used_as_it_stands_on_other_lists():
    # lapsed Full rapid 2100 vs default 1800 - 100 = 1700: 2100 (no offset on the real rating)
    assert dummy_and_rating(player("r", rapid=full(2100, last="2021-01")), list_code="otb-rapid")[0] == 2100


def test_a_newcomer_to_otb_standard_with_a_higher_full_rapid_rating_uses_it_under_ecf_2024():
    # no otb-standard state; otb-rapid Full 2000, active -> dummy 2000 -> (1500 + 2000) / 2 = 1750
    newcomer = player("n", rapid=full(2000))
    assert dummy_and_rating(newcomer) == (2000, 1750)
    assert dummy_and_rating(newcomer, rules="ecf-2020") == (1800, 1650)


@pytest.mark.parametrize(
    "someone",
    [
        player("n", rapid=full(2000, last="2023-09")),  # rapid rating lapsed (window 36)
        player("n", rapid=partial(2000, 5, 10000, "2.5")),  # rapid rating only Partial
        player("n", rapid=full(1700)),  # rapid rating lower than the default
        player("n", rapid=full(2000), standard=partial(1400, 2, 3000, "1", last="2019-01")),  # has a standard state
    ],
)
def test_the_rapid_rating_is_not_used_otherwise(someone):
    assert dummy_and_rating(someone)[0] == 1800


def test_the_rapid_rule_applies_only_when_rating_otb_standard():
    assert dummy_and_rating(player("n", rapid=full(2000)), list_code="online")[0] == 1700


def test_a_junior_newcomer_uses_a_higher_rapid_rating_than_100_per_year():
    # age 12: default 1200; rapid Full 1400 -> 1400 -> (1500 + 1400) / 2 = 1450
    assert dummy_and_rating(player("n", born="2014-06-01", rapid=full(1400))) == (1400, 1450)
