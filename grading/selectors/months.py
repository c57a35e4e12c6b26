"""A month not yet published on a list: what is in it so far, and when it will be published.

The monthly run rates the month just ended when beat's schedule says (grading.run.schedule); an
event approved later is rated in a revision of the month.
"""

import datetime
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils import timezone

from chess.months import Month
from events.models import IN_RATING, Event, Game
from events.selectors import STATUS_ONLY
from grading.models import RatingPeriod, RatingRun
from grading.run.loading import rated_games
from grading.run.schedule import scheduled_run

# The order the page lists events in, by status.
SO_FAR = (Event.Status.APPROVED, Event.Status.SUBMITTED, Event.Status.HELD, Event.Status.RATED)


@dataclass
class EventSoFar:
    code: str
    name: str
    status: str
    status_label: str
    games: int
    left_out: int = 0  # approved or rated: of ``games``, those FIDE's conditions leave out as things stand

    @property
    def rated(self) -> int:
        return self.games - self.left_out


@dataclass
class MonthSoFar:
    month: Month
    ended: bool
    due: datetime.datetime  # when the monthly run is scheduled to rate it
    run: str  # "", "queued", "running" or "failed": the latest run of the month, if any
    events: list[EventSoFar] = field(default_factory=list)

    @property
    def overdue(self) -> bool:
        return self.ended and not self.run and timezone.now() >= self.due

    def games(self, *statuses) -> int:
        return sum(event.games for event in self.events if event.status in statuses)

    @property
    def games_approved(self) -> int:
        """Games the run will rate as things stand (approved, or rated in an earlier month of a
        long event: its games in this month wait for this month's run)."""
        return self.games(Event.Status.APPROVED, Event.Status.RATED)

    @property
    def games_left_out(self) -> int:
        """Of the games approved, those FIDE's conditions leave out as things stand (the live
        ratings' decision, the month's run's as of now; docs/rules.md part 4)."""
        return sum(
            event.left_out for event in self.events if event.status in (Event.Status.APPROVED, Event.Status.RATED)
        )

    @property
    def games_rated(self) -> int:
        return self.games_approved - self.games_left_out

    @property
    def games_waiting(self) -> int:
        """Games of events submitted or held for review: in the month only once approved."""
        return self.games(Event.Status.SUBMITTED, Event.Status.HELD)


def month_so_far(rating_list, month: Month) -> MonthSoFar | None:
    """The month on ``rating_list`` as it stands before its publication, or None: a month
    published, one not begun, or one before the list's ratings began (never rated here)."""
    today = timezone.localdate()
    if month > Month.of(today):
        return None
    period = RatingPeriod.objects.filter(rating_list=rating_list, month=str(month)).first()
    if period and period.revision is not None:
        return None
    first = RatingPeriod.objects.filter(rating_list=rating_list).order_by("month").values_list("month", flat=True)
    if (first := first.first()) is None or str(month) < first:
        return None
    run = ""
    if period:
        latest = RatingRun.objects.filter(period=period).order_by("-started_at").first()
        if latest and latest.outcome in (RatingRun.Outcome.QUEUED, RatingRun.Outcome.RUNNING, RatingRun.Outcome.FAILED):
            run = latest.outcome
    end = month.last_day()
    # Approved and rated events: the games the run will rate, by its own rule. Those waiting for
    # approval or review: the games their file rates (their players may not be records yet).
    waiting = Game.objects.rated().filter(
        event__rating_list=rating_list, event__status__in=STATUS_ONLY, date__gte=month.first_day(), date__lte=end
    )
    # A game of a month not yet published is left out as the live ratings decided (GameCounts').
    left_out = Count("pk", filter=Q(live_not_rated__isnull=False))
    counted = [
        row
        for games in (rated_games(rating_list, month), waiting)
        for row in games.values("event__code", "event__name", "event__status")
        .annotate(games=Count("pk"), left_out=left_out)
        .order_by()
    ]
    labels = dict(Event.Status.choices)
    order = {status: place for place, status in enumerate(SO_FAR)}
    events = sorted(
        (
            EventSoFar(
                row["event__code"],
                row["event__name"],
                row["event__status"],
                labels[row["event__status"]],
                row["games"],
                row["left_out"] if row["event__status"] in IN_RATING else 0,
            )
            for row in counted
        ),
        key=lambda event: (order[event.status], event.code),
    )
    return MonthSoFar(month, end < today, scheduled_run(month), run, events)
