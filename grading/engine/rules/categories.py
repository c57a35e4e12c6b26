"""Who a player is at the start of the period: age, category and dummy rating (docs/rules.md 3, 4)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from chess.months import Month
from grading.engine.codes import FULL, FULLY_RATED, NEW, NO_STATE, NOT_RATED, PARTIAL, PARTIALLY_RATED
from grading.engine.inputs.forms import ColumnarInputs, StateColumns
from grading.engine.rule_sets import RAPID_LIST, STANDARD_LIST, RuleSet


def ages(birth_date: np.ndarray, period: Month) -> np.ndarray:
    """Completed years on the first day of the period; -1 where the birth date is unknown."""
    born = birth_date.astype("datetime64[D]")
    unknown = np.isnat(born)
    born = np.where(unknown, np.datetime64("2000-01-01"), born)
    born_month = born.astype("datetime64[M]")
    year = born.astype("datetime64[Y]").astype(np.int64) + 1970
    month = born_month.astype(np.int64) % 12 + 1
    day = (born - born_month).astype(np.int64) + 1
    birthday_to_come = (month > period.month) | ((month == period.month) & (day > 1))
    age = period.year - year - birthday_to_come
    return np.where(unknown, -1, age)


def is_junior(age: np.ndarray, rules: RuleSet) -> np.ndarray:
    return (age >= 0) & (age < rules.junior_below_age)


def is_active(states: StateColumns, rules: RuleSet, period: Month) -> np.ndarray:
    """last_played >= period - window; never played (-1) is not active."""
    return (states.last_played >= 0) & (states.last_played >= rules.earliest_active(period).index)


def categories(states: StateColumns, rated: np.ndarray, rules: RuleSet, period: Month) -> np.ndarray:
    """FULLY_RATED / PARTIALLY_RATED / NEW for players with games, NOT_RATED for the others."""
    active = is_active(states, rules, period)
    category = np.full(len(states), NEW, dtype=np.int8)
    category[active & (states.type == FULL)] = FULLY_RATED
    category[active & (states.type == PARTIAL)] = PARTIALLY_RATED
    category[~rated] = NOT_RATED
    return category


def title_values(titles, positions: np.ndarray, rules: RuleSet) -> np.ndarray:
    """The title's dummy rating for the players at ``positions``, 0 for no (listed) title."""
    table = rules.title_dummies
    values = np.zeros(len(titles), dtype=np.int64)
    if table:
        values[positions] = [table.get(_title_key(titles[i]), 0) for i in positions]
    return values


def _title_key(title) -> str | None:
    return title.strip().upper() if isinstance(title, str) else None


def dummy_ratings(inputs: ColumnarInputs, age: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """The dummy opponent's rating of the players at ``positions`` (the others' entries are
    meaningless), in the five steps of docs/rules.md section 4."""
    rules, period, list_code = inputs.rules, inputs.period, inputs.list_code
    dummy = np.where(is_junior(age, rules), rules.junior_dummy_per_year * age, rules.adult_dummy)

    standard = inputs.states_on(STANDARD_LIST)
    never_full = positions[standard.type[positions] != FULL]
    titled = title_values(inputs.title, never_full, rules)
    dummy = np.where(titled > 0, titled, dummy)

    if list_code != STANDARD_LIST:
        dummy = dummy + rules.non_standard_dummy_offset

    if rules.lapsed_full_dummy:
        own = inputs.states_on(list_code)
        lapsed_full = (own.type == FULL) & ~is_active(own, rules, period)
        dummy = np.where(lapsed_full & (own.rating > dummy), own.rating, dummy)

    if rules.rapid_for_standard_dummy and list_code == STANDARD_LIST:
        rapid = inputs.states_on(RAPID_LIST)
        newcomer = (standard.type == NO_STATE) & (rapid.type == FULL) & is_active(rapid, rules, period)
        dummy = np.where(newcomer & (rapid.rating > dummy), rapid.rating, dummy)
    return dummy.astype(np.int64)


@dataclass(frozen=True)
class DummyExplained:
    """How a P rating's dummy came to be what the run used (docs/rules.md section 4)."""

    dummy: int  # what the run used
    base: int  # the untitled default: the adult value, or per year of a junior's age
    junior: bool
    title: str | None  # the title whose value replaced the default, if it did
    offset: int  # the non-standard lists' offset (0 on OTB standard)
    default: int  # after those steps
    raised: bool  # higher than that: the player's own lapsed Full or rapid rating


def explain_dummy(dummy: int, age: int | None, title: str | None, list_code: str, rules: RuleSet) -> DummyExplained:
    """Which of the steps gave ``dummy``, from what a rating keeps (its dummy and age) and the
    player's title: the steps that read other lists' states show only in the value, higher than
    the default."""
    junior = age is not None and 0 <= age < rules.junior_below_age
    base = rules.junior_dummy_per_year * age if junior else rules.adult_dummy
    offset = 0 if list_code == STANDARD_LIST else rules.non_standard_dummy_offset
    titled = rules.title_dummies.get(_title_key(title) or "", 0)
    used_title = _title_key(title) if titled and dummy >= titled + offset else None
    default = (titled if used_title else base) + offset
    return DummyExplained(dummy, base, junior, used_title, offset, default, dummy > default)
