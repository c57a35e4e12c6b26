"""Rule sets: the parameters of one version of a rating method, as data (docs/rules.md sections 1
and 9). A rule set names its method: ``ecf`` (the three passes) or ``elo`` (FIDE's)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from chess.months import Month
from grading.engine.codes import FULL, PENDING

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


ECF_METHOD = "ecf"
ELO_METHOD = "elo"


@dataclass(frozen=True)
class RuleSet:
    name: str
    activity_window_months: int = 0  # ECF: a Full rating lapses after this many idle months
    # Q of a K-rating game against an opponent whose rating used is Partial (20 = no Q rule).
    partial_opponent_q: int = 20
    # Titles whose dummy rating replaces the default for a player without a Full standard rating.
    title_dummies: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    lapsed_full_dummy: bool = False  # a higher lapsed Full rating on the list is used as the dummy
    rapid_for_standard_dummy: bool = False  # a higher active Full rapid rating, for standard newcomers
    method: str = ECF_METHOD
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
    # The Elo method (docs/rules.md sections 9 to 12); base_k, junior_k, k_cap, rating_floor
    # and junior_below_age above serve it too.
    elo_largest_difference: int = 400  # a larger rating difference counts as this much
    elo_new_player_games: int | None = None  # K is junior_k while the state has fewer games
    elo_junior_below_rating: int | None = None  # ... and for a junior rated below this
    elo_top_peak: int | None = None  # K is elo_top_k once the peak has reached this
    elo_top_k: int = 10
    first_rating_games: int = 5  # games a first rating needs (and half a point)
    first_rating_window_months: int = 26  # pending months count this long, the period included
    first_rating_step: int = 20  # added for each half point scored over 50%
    # docs/rules.md 16.1-16.2: the event's playing time and twelve hours a day (fide-2017's
    # standard play; a rapid list's band stands in for them). 16.3-16.6 hold for every Elo rule set.
    playing_time_conditions: bool = False
    # FIDE's rules from March 2024 (docs/rules.md part 5, section 17); all off for the earlier sets.
    elo_unrated_below_floor: bool = False  # 17.1: a rating under the floor unrates, not raised to it
    elo_expected_past_400: bool = False  # 17.2: FIDE's table 8.1.2 past 400 (PD .93 to 1.00)
    elo_uncapped_from: int | None = None  # 17.2: no 400-point rule for a player whose Ro is this or more
    elo_round_half_away: bool = False  # 17.2: the period's change rounded half away from zero
    first_rating_draws: int = 0  # 17.3: imaginary drawn games added to a first rating ...
    first_rating_draws_rating: int = 1800  # ... against opponents rated this
    first_rating_cap: int | None = None  # 17.3: a first rating is at most this
    elo_junior_through_age: int | None = None  # 17.4: junior until the end of the year they turn this
    game_rate_of_play: bool = False  # 17.5: standard play's time decided game by game (replaces 16.1)
    rapid_and_blitz: bool = False  # 17.6: the rapid and blitz lists' conditions
    # Rating floors (docs/rules.md part 3): an option of any rule set; the rest are its numbers.
    floors: bool = False
    floor_base: int = 100  # absolute floor: base + per_win * wins + per_draw * draws + per_event * events3
    floor_per_win: int = 4
    floor_per_draw: int = 2
    floor_per_event: int = 1
    floor_cap: int = 150  # ... at most this
    floor_event_games: int = 3  # events3 counts the events with at least this many rated games
    peak_floor_drop: int = 200  # peak floor: the highest step at or below peak - drop ...
    peak_floor_lowest: int = 1200  # ... from this (none below it) ...
    peak_floor_highest: int = 2100  # ... to this, every peak_floor_step
    peak_floor_step: int = 100
    # A variant (engine.variants): the JSON object that describes it, {"base": ..., ...}.
    described_as: Mapping | None = field(default=None, compare=False)

    def earliest_active(self, period: Month) -> Month:
        """The oldest ``last_played`` that is still active in ``period`` (docs/rules.md section 3)."""
        return period - self.activity_window_months

    def oldest_pending(self, period: Month) -> Month:
        """The oldest pending month that still counts towards a first rating in ``period``."""
        return period - (self.first_rating_window_months - 1)

    def listed(self, period: Month, kind, rating, last_played):
        """Whether states (type codes, ratings, last-played Month indexes; arrays or numbers) are
        on the period's list: under Elo every rating of at least the floor, under the ECF method
        every state played within the activity window (docs/rules.md sections 3 and 9)."""
        if self.is_elo:
            return (kind == FULL) & (rating >= self.rating_floor)
        return (last_played >= self.earliest_active(period).index) & (kind != PENDING)

    @property
    def is_elo(self) -> bool:
        return self.method == ELO_METHOD

    @property
    def method_name(self) -> str:
        return "Elo method" if self.is_elo else "ECF three-pass method"

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

# FIDE's Rating Regulations as in force from July 2017 (docs/rules.md part 2).
FIDE_2017 = RuleSet(
    name="fide-2017",
    method=ELO_METHOD,
    rating_floor=1000,
    elo_new_player_games=30,
    elo_junior_below_rating=2300,
    elo_top_peak=2400,
    playing_time_conditions=True,
)

FIDE_2017_RAPID = RuleSet(name="fide-2017-rapid", method=ELO_METHOD, rating_floor=1000)  # K 20 for all

# FIDE's Rating Regulations effective from 1 March 2024 (docs/rules.md part 5): what every one of
# its three rule sets shares.
_FIDE_2024_RULES = {
    "method": ELO_METHOD,
    "rating_floor": 1400,
    "elo_unrated_below_floor": True,
    "elo_expected_past_400": True,
    "elo_round_half_away": True,
    "first_rating_draws": 2,
    "first_rating_cap": 2200,
}
FIDE_2024 = RuleSet(
    name="fide-2024",
    elo_new_player_games=30,
    elo_junior_below_rating=2300,
    elo_junior_through_age=18,
    elo_top_peak=2400,
    game_rate_of_play=True,
    **_FIDE_2024_RULES,
)
# As amended from 1 October 2025: no 400-point rule for a player rated 2650 or more.
FIDE_2025 = replace(FIDE_2024, name="fide-2025", elo_uncapped_from=2650)
# Rapid and blitz, as amended from 1 December 2024: K 20 for all.
FIDE_2024_RAPID = RuleSet(name="fide-2024-rapid", rapid_and_blitz=True, **_FIDE_2024_RULES)


def with_floors(rules: RuleSet) -> RuleSet:
    """The rule set with the option floors: a rule set of its own, named NAME+floors."""
    return replace(rules, name=f"{rules.name}+floors", floors=True)


BASE_RULE_SETS = (ECF_2020, ECF_2024, FIDE_2017, FIDE_2017_RAPID, FIDE_2024, FIDE_2025, FIDE_2024_RAPID)
RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(
    {r.name: r for r in (*BASE_RULE_SETS, *map(with_floors, BASE_RULE_SETS))}
)


def lists_read_by(list_code: str) -> tuple[str, ...]:
    """The other lists whose states a period of this list may read, for the dummy rules
    (docs/rules.md section 4: titles count only without a Full otb-standard rating; a newcomer to
    otb-standard may take their otb-rapid rating)."""
    return tuple(other for other in (STANDARD_LIST, RAPID_LIST) if other != list_code)


def lists_read(list_code: str, rules: RuleSet) -> tuple[str, ...]:
    """The other lists a period of this list rated by ``rules`` reads: the Elo method reads none."""
    return () if rules.is_elo else lists_read_by(list_code)


def reading_digests(read: Mapping[str, tuple], publications) -> dict[str, str]:
    """{month: digest} of the ``publications`` ((month, list code, revision) rows) of the lists
    that each month of ``read`` ({month: list codes}) reads: their months before it, each at its
    revision; "" for a month that reads none. A list publishing again changes the digest of every
    month after it, and nothing else does (grading.run.periods keeps it as a period's ``states_read``)."""
    publications = sorted(publications)
    digests = {}
    for month, lists in read.items():
        hasher = hashlib.sha256()
        for other_month, code, revision in publications:
            if other_month >= month:
                break
            if code in lists:
                hasher.update(f"{code} {other_month} {revision}\n".encode())
        digests[month] = hasher.hexdigest() if lists else ""
    return digests
