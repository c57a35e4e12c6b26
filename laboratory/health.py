"""The health of a list's rating pool over a span of months (docs/laboratory.md), from the
stored games and the published states: whether the ratings predict results, and whether the
pool drifts. Read only.

- Calibration: each game between two players who had a rating at the start of its month, the
  expected score from the difference of those ratings (the engine's table, which both methods
  share) against the score made; in bands of the difference, from the higher-rated side; and
  for every player's side, by age group and by the category of their rating.
- Drift: the mean and median rating of the players on two consecutive lists, on both.
- Inflow and outflow: players on a list who were not on the one before (first ratings, returns)
  and players who left it (lapsed), with their mean ratings.
- The sum of the rating changes of each month (the ECF method is not zero-sum).
"""

from dataclasses import dataclass, field
from statistics import mean, median

import numpy as np

from chess.months import Month
from common.bulk import fetch_columns
from common.downloads import csv_text
from grading.engine import RULE_SETS
from grading.engine.codes import FULL, PARTIAL
from grading.engine.rules.categories import ages, is_junior
from grading.engine.rules.elo import PD_UNITS, expected_units
from grading.models import ListEntry, PlayerRating
from grading.run.loading import WHITE_HALVES, birth_dates, birth_dates_of, rated_games, sql_of
from grading.run.publishing import states_at_start
from grading.selectors.history import list_publications
from grading.selectors.toplists import SENIOR_AGE

BAND = 50  # calibration bands of the rating difference
TOP_BAND = 400  # ... and one for this much or more


@dataclass
class Tally:
    """Games (sides) with their expected and actual score."""

    games: int = 0
    expected: float = 0.0
    scored: float = 0.0

    def add(self, count, expected, scored):
        self.games += int(count)
        self.expected += float(expected)
        self.scored += float(scored)

    def row(self, label) -> dict:
        if not self.games:
            return {"group": label, "games": 0, "expected": None, "actual": None, "gap": None}
        expected, actual = self.expected / self.games, self.scored / self.games
        return {
            "group": label,
            "games": self.games,
            "expected": round(expected, 3),
            "actual": round(actual, 3),
            "gap": round(actual - expected, 3),
        }


@dataclass
class Health:
    calibration: list = field(default_factory=list)  # by band of the difference
    by_age: list = field(default_factory=list)
    by_category: list = field(default_factory=list)
    months: list = field(default_factory=list)  # drift, inflow, outflow, changes per month


def band_label(low: int) -> str:
    return f"{TOP_BAND} or more" if low >= TOP_BAND else f"{low}-{low + BAND - 1}"


def pool_health(rating_list, first: Month, last: Month) -> Health:
    bands = {low: Tally() for low in range(0, TOP_BAND + BAND, BAND)}
    by_age = {name: Tally() for name in age_groups(RULE_SETS[rating_list.rule_set_for(str(first))])}
    categories = {name: Tally() for name in ("Full", "Partial")}
    born = birth_dates()  # every player's, read once for the span
    month = first
    while month <= last:
        calibrate(rating_list, month, bands, by_age, categories, born)
        month += 1
    return Health(
        calibration=[tally.row(band_label(low)) for low, tally in bands.items()],
        by_age=[tally.row(name) for name, tally in by_age.items()],
        by_category=[tally.row(name) for name, tally in categories.items()],
        months=monthly(rating_list, first, last),
    )


def age_groups(rules) -> tuple[str, str, str]:
    return f"juniors (under {rules.junior_below_age})", "adults", f"seniors ({SENIOR_AGE} and over)"


def calibrate(rating_list, month: Month, bands, by_age, categories, born):
    games = rated_games(rating_list, month).order_by().annotate(white_halves=WHITE_HALVES)
    white, black, halves = fetch_columns(
        *sql_of(games.values_list("white_id", "black_id", "white_halves")), [np.int64, np.int64, np.int64]
    )
    if not len(white):
        return
    # A player counts with the rating they were met with: one on the list the month's method
    # reads (the engine's rule: ECF, played within the window, a lapsed one is met as a dummy;
    # Elo, a Full rating at the floor or above).
    players = np.unique(np.concatenate([white, black]))
    rules = RULE_SETS[rating_list.rule_set_for(str(month))]
    states = states_at_start(rating_list, month).columns_for(players)
    rated = rules.listed(month, states.type, states.rating, states.last_played)

    def prior(side):
        at = np.searchsorted(players, side)
        return rated[at], np.where(rated[at], states.rating[at], 0), np.where(rated[at], states.type[at], 0)

    white_found, white_rating, white_type = prior(white)
    black_found, black_rating, black_type = prior(black)
    both = white_found & black_found
    # Each side: the player's rating, the opponent's, the score in half points.
    player = np.concatenate([white[both], black[both]])
    own = np.concatenate([white_rating[both], black_rating[both]])
    other = np.concatenate([black_rating[both], white_rating[both]])
    kind = np.concatenate([white_type[both], black_type[both]])
    scored = np.concatenate([halves[both], 2 - halves[both]]) / 2
    expected = expected_units(own - other) / PD_UNITS
    higher = own > other  # the higher-rated side of each game (a game of equals counts once, white)
    equal = own == other
    count = int(both.sum())
    higher |= equal & (np.arange(2 * count) < count)
    band = np.minimum(np.abs(own - other) // BAND * BAND, TOP_BAND)
    for low in np.unique(band[higher]).tolist():
        mask = higher & (band == low)
        bands[low].add(mask.sum(), expected[mask].sum(), scored[mask].sum())
    age = ages(birth_dates_of(players, month, born), month)[np.searchsorted(players, player)]
    junior, senior = is_junior(age, rules), age >= SENIOR_AGE
    # An unknown age (-1) counts as an adult's.
    for name, mask in zip(age_groups(rules), (junior, ~junior & ~senior, senior)):
        by_age.setdefault(name, Tally()).add(mask.sum(), expected[mask].sum(), scored[mask].sum())
    for name, code in (("Full", FULL), ("Partial", PARTIAL)):
        mask = kind == code
        categories[name].add(mask.sum(), expected[mask].sum(), scored[mask].sum())


# A month's figures, as monthly() gives them, the page's table shows them and the CSV writes them.
MONTH_COLUMNS = [
    "stayed",
    "mean_before",
    "mean_after",
    "median_before",
    "median_after",
    "inflow",
    "inflow_mean",
    "outflow",
    "outflow_mean",
    "changed",
    "change_sum",
]


def monthly(rating_list, first: Month, last: Month) -> list[dict]:
    """Month by month: drift of the players on both lists, inflow, outflow, the sum of changes.
    Each published month is compared with the last list published before it, within the span
    or before it."""
    published = list_publications(rating_list.code)[1]  # newest first
    periods = {period.month: period for period in published if str(first) <= period.month <= str(last)}
    earlier = next((period for period in published if period.month < str(first)), None)

    def listed(period) -> dict:
        if period is None:
            return {}
        rows = ListEntry.objects.filter(period=period, revision=period.revision).values_list("player_id", "rating")
        return dict(rows)

    out = []
    before = listed(earlier)
    month = first
    while month <= last:
        if str(month) not in periods:
            # No list yet to compare: the next published month is compared with the last one.
            out.append({"month": str(month), "published": False, **dict.fromkeys(MONTH_COLUMNS)})
            month += 1
            continue
        now = listed(periods[str(month)])
        stayed = [player for player in now if player in before]
        came = [now[player] for player in now if player not in before]
        went = [before[player] for player in before if player not in now]
        changes = list(
            PlayerRating.objects.filter(
                rating_list=rating_list, month=str(month), superseded_at=None, prior_rating__isnull=False
            )
            .exclude(rating=None)
            .values_list("rating", "prior_rating")
        )
        out.append(
            {
                "month": str(month),
                "published": True,
                "stayed": len(stayed),
                "mean_before": round(mean(before[p] for p in stayed), 1) if stayed else None,
                "mean_after": round(mean(now[p] for p in stayed), 1) if stayed else None,
                "median_before": median(before[p] for p in stayed) if stayed else None,
                "median_after": median(now[p] for p in stayed) if stayed else None,
                "inflow": len(came),
                "inflow_mean": round(mean(came), 1) if came else None,
                "outflow": len(went),
                "outflow_mean": round(mean(went), 1) if went else None,
                "changed": len(changes),
                "change_sum": sum(rating - prior for rating, prior in changes),
            }
        )
        before = now
        month += 1
    return out


TALLY_COLUMNS = ["group", "games", "expected", "actual", "gap"]  # Tally.row's
CSV_SECTIONS = {
    "calibration": TALLY_COLUMNS,
    "by_age": TALLY_COLUMNS,
    "by_category": TALLY_COLUMNS,
    "months": ["month", *MONTH_COLUMNS],
}


def health_csv(health: Health) -> str:
    """Every table of the page, one after another, each row led by its table's name."""
    columns = ["table", "group_or_month", *dict.fromkeys(c for cs in CSV_SECTIONS.values() for c in cs[1:])]
    rows = []
    for name, fields in CSV_SECTIONS.items():
        for row in getattr(health, name):
            values = {c: "" if row.get(c) is None else row[c] for c in fields[1:]}
            rows.append([name, row[fields[0]], *(values.get(c, "") for c in columns[2:])])
    return csv_text(columns, rows)
