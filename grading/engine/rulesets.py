"""Rule sets: the parameters of one version of the rating method, as data (docs/rules.md section 1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .periods import Month

STANDARD_LIST = "otb-standard"  # the only list with standard_play set
RAPID_LIST = "otb-rapid"  # the list the rapid-for-standard dummy rule reads

FIDE_TITLE_DUMMIES: Mapping[str, int] = MappingProxyType(
    {
        "GM": 2500,
        "IM": 2350,
        "WGM": 2200,
        "FM": 2200,
        "WIM": 2100,
        "CM": 2050,
        "WFM": 2000,
        "WCM": 1800,
    }
)


@dataclass(frozen=True)
class RuleSet:
    name: str
    activity_window_months: int
    # Q of a K-rating game against an opponent whose rating used is Partial (20 = no Q rule).
    partial_opponent_q: int
    # Titles whose dummy rating replaces the default for a player without a Full standard rating.
    title_dummies: Mapping[str, int]
    lapsed_full_dummy: bool  # a higher lapsed Full rating on the list is used as the dummy
    rapid_for_standard_dummy: bool  # a higher active Full rapid rating, for standard newcomers
    adult_dummy: int = 1800
    junior_dummy_per_year: int = 100
    junior_below_age: int = 18
    non_standard_dummy_offset: int = -100
    base_k: int = 20
    junior_k: int = 40
    base_q: int = 20
    k_cap: int = 700  # K becomes k_cap / N when K * N exceeds it
    rating_floor: int = 100
    full_rating_games: int = 10  # a P rating on this many games or more is Full
    win_offset_tenths: int = 100  # S_offset +10 / -10, in tenths like the D offsets

    def earliest_active(self, period: Month) -> Month:
        """The oldest ``last_played`` that is still active in ``period`` (docs/rules.md section 3)."""
        return period - self.activity_window_months

    def __hash__(self) -> int:  # title_dummies is a read-only mapping, which does not hash
        return hash(self.name)

    def __post_init__(self):
        # Sums of (D_offset + S_offset) / Q are exact integers in units of 1 / (10 * partial_q).
        if self.partial_opponent_q % self.base_q:
            raise ValueError("partial_opponent_q must be a multiple of base_q")


ECF_2020 = RuleSet(
    name="ecf-2020",
    activity_window_months=60,
    partial_opponent_q=40,
    title_dummies=MappingProxyType({}),
    lapsed_full_dummy=False,
    rapid_for_standard_dummy=False,
)

ECF_2024 = RuleSet(
    name="ecf-2024",
    activity_window_months=36,
    partial_opponent_q=20,
    title_dummies=FIDE_TITLE_DUMMIES,
    lapsed_full_dummy=True,
    rapid_for_standard_dummy=True,
)

RULE_SETS: Mapping[str, RuleSet] = MappingProxyType({r.name: r for r in (ECF_2020, ECF_2024)})
