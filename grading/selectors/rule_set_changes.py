"""What a change of a list's rule set would do, read before a rating officer confirms it (the
admin's preview, grading/admin/lists.py): for each month the change reaches that has games, from
its month to the month under way (or to the list's next change), how many of them the new rule set
and the one in force would leave out, and why, in the engine's words.

The games are those a run of the month rates (grading.run.loading.rated_games: of events approved
or rated); the games of events submitted or held for review are counted apart, as waiting, and
not decided until approved (their players may not be records yet). They are decided
as a run decides them (grading.run.loading.month_not_rated, the engine's ``events_not_rated``),
with each player's latest published state on the list as the rating used, as the preview of an
event does (grading.selectors.event_ratings.preview), read as each rule set's method reads it.
Nothing is written.
"""

import datetime
from dataclasses import dataclass

import numpy as np
from django.utils import timezone

from chess.months import Month
from common.bulk import fetch_columns
from events.models import Game
from events.selectors import STATUS_ONLY
from grading.engine import RULE_SETS
from grading.engine.arrays import distinct
from grading.engine.event_conditions import UNRATED
from grading.engine.rules.adjustment import AdjustmentSteps, adjustment_offer, adjustment_steps
from grading.models import RatingList, RuleSetChange
from grading.run.event_facts import ROUND_GIVEN, is_blitz, ratings_at_start
from grading.run.loading import WHITE_HALVES, month_not_rated, rated_games, sql_of
from grading.run.periods import latest_published
from grading.run.publishing import latest_states, with_fide_adjustment

LATEST = Month(9999, 12)  # states "before" it: each player's latest published one


@dataclass(frozen=True)
class Reason:
    """Games of a month left out for one reason: the engine's words ("not rated: ..."), and how
    many events and games."""

    text: str
    events: int
    games: int

    @property
    def why(self) -> str:
        return self.text.removeprefix("not rated: ")


@dataclass(frozen=True)
class LeftOut:
    """What one rule set leaves out of a month's games, by reason in the order the engine gives them."""

    rule_set: str
    events: int  # with at least one game left out
    reasons: list[Reason]

    @property
    def games(self) -> int:
        return sum(reason.games for reason in self.reasons)


@dataclass(frozen=True)
class MonthEffect:
    month: Month
    events: int
    games: int
    in_force: LeftOut
    new: LeftOut


@dataclass(frozen=True)
class ChangeEffect:
    """The months a change reaches so far (``first`` to ``last``), those with games; whose
    ratings are used (the latest month published); and, where the method changes, how many of
    the months' players the new method counts as rated (an Elo method: a rating of at least its
    floor; None under the ECF method, which rates every player)."""

    rating_list: RatingList
    rule_set: str
    in_force: str
    first: Month
    last: Month
    ratings_of: Month | None
    months: list[MonthEffect]
    method_change: tuple[str, str] | None  # (the method in force, the new one), where they differ
    players: int
    players_rated: int | None
    waiting: int  # games of events submitted or held for review in the months, not counted
    # FIDE's adjustment of March 2024 (grading.engine.rules.adjustment.adjustment_offer): "offered",
    # "if asked" or None, and how many of the list's ratings it would raise at ``first``.
    adjustment: str | None = None
    raised: int = 0

    @property
    def adjustment_example(self) -> AdjustmentSteps:
        """The adjustment of 1500, as the confirmation page writes it."""
        return adjustment_steps(1500)

    @property
    def adjustment_ticked(self) -> bool:
        """Whether the confirmation page ticks the adjustment: FIDE's own change, yes."""
        return self.adjustment == "offered"

    @property
    def games(self) -> int:
        return sum(month.games for month in self.months)

    @property
    def left_out(self) -> int:
        return sum(month.new.games for month in self.months)

    @property
    def left_out_now(self) -> int:
        return sum(month.in_force.games for month in self.months)

    @property
    def leaves_out_most(self) -> bool:
        """More than half the months' games: the admin asks for a second confirmation."""
        return 2 * self.left_out > self.games


def change_effect(
    rating_list: RatingList, first: Month, rule_set: str, today: datetime.date | None = None
) -> ChangeEffect:
    """What rating ``rating_list`` by ``rule_set`` from ``first`` on would leave out, against the
    rule set in force, in each month from ``first`` to the month under way that has games."""
    in_force = rating_list.rule_set_for(str(first))
    last = Month.of(today or timezone.localdate())
    following = RuleSetChange.objects.filter(rating_list=rating_list, month__gt=str(first)).order_by("month").first()
    if following:
        last = min(last, Month.parse(following.month) - 1)
    months = []
    month = first
    while month <= last:
        games = month_games(rating_list, month)
        if len(games["white"]):
            months.append((month, games))
        month += 1
    sides = [side for _, games in months for side in (games["white"], games["black"])]
    players = distinct(np.concatenate(sides)) if sides else np.zeros(0, dtype=np.int64)
    states = latest_states(rating_list, LATEST, among=players) if len(players) else None
    effect = [
        MonthEffect(
            month,
            len(distinct(games["event"])),
            len(games["white"]),
            left_out(rating_list, month, in_force, games, states),
            left_out(rating_list, month, rule_set, games, states),
        )
        for month, games in months
    ]
    old, new = RULE_SETS[in_force], RULE_SETS[rule_set]
    rated = None
    if new.is_elo and len(players):
        used = ratings_at_start(rating_list, new, first, states)(first.index, players, players)[0]
        rated = int((used != UNRATED).sum())
    method_change = (old.method_name, new.method_name) if old.method != new.method else None
    ratings_of = latest_published(rating_list)
    waiting = Game.objects.rated().filter(
        event__rating_list=rating_list,
        event__status__in=STATUS_ONLY,
        date__gte=first.first_day(),
        date__lte=last.last_day(),
    )
    adjustment = adjustment_offer(rating_list.rule_set_for(str(first - 1)), rule_set)
    raised = len(with_fide_adjustment(latest_states(rating_list, first))[1]) if adjustment else 0
    return ChangeEffect(
        *(rating_list, rule_set, in_force, first, last, ratings_of, effect, method_change),
        *(len(players), rated, waiting.count() if first <= last else 0, adjustment, raised),
    )


def month_games(rating_list: RatingList, month: Month) -> dict:
    """The columns month_not_rated reads of the games a run of ``month`` rates, in the run's
    order (date, then id)."""
    games = rated_games(rating_list, month).order_by().annotate(white_halves=WHITE_HALVES, round_given=ROUND_GIVEN)
    _, white, black, halves, event, date, rounds = fetch_columns(
        *sql_of(games.values_list("pk", "white_id", "black_id", "white_halves", "event_id", "date", "round_given")),
        [np.int64, np.int64, np.int64, np.int8, np.int64, "datetime64[D]", np.int64],
        order=(5, 0),
    )
    return {"white": white, "black": black, "white_halves": halves, "event": event, "date": date, "round": rounds}


def left_out(rating_list: RatingList, month: Month, rule_set: str, games: dict, states) -> LeftOut:
    """The month's games ``rule_set`` leaves out, decided by the run's own function on
    ``states`` (the latest published) as the ratings at the month's start."""
    rules = RULE_SETS[rule_set]
    ratings = ratings_at_start(rating_list, rules, month, states)
    decided = month_not_rated(games, month, rules, ratings, is_blitz(rating_list))
    reasons = []
    for at, text in enumerate(decided.texts):
        chosen = decided.reason == at
        if chosen.any():
            reasons.append(Reason(text, len(distinct(games["event"][chosen])), int(chosen.sum())))
    return LeftOut(rule_set, len(distinct(games["event"][decided.left_out])), reasons)
