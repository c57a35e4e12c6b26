"""What the rating officers' pages show of the integrity watch: a month's flags under review, and
an event's. Each flag is shown as its scan stored it; nothing is computed again here."""

from dataclasses import dataclass

from django.db.models import Count, Q

from chess.months import Month
from events.models import Event
from grading.models import Flag, RatingList, Scan

KIND_ORDER = [kind for kind, _ in Flag.Kind.choices]


@dataclass
class MonthReview:
    rating_list: RatingList
    month: Month
    scan: Scan | None
    flags: list  # open ones first, then those cleared; by kind
    gone: list  # those no longer found, latest first
    counts: dict  # {kind label: open flags}
    held: list  # the list's events held from rating, with games in the month or not
    threshold_changes: list  # the list's latest changes of its threshold, latest first
    improbable: int  # the month's improbable results flagged (open or cleared): what chance alone is set against

    @property
    def threshold(self) -> str:
        """The list's threshold as a person reads it: "1 in 10,000"."""
        return chance_in(self.rating_list.integrity_threshold)

    @property
    def scan_threshold(self) -> str:
        return chance_in(self.scan.threshold) if self.scan else ""


def chance_in(probability: float) -> str:
    return f"1 in {round(1 / probability):,}"


def flags_shown(flags) -> list:
    """Flags with their events (and each event's status) fetched, open ones first, by kind."""
    flags = list(flags.select_related("cleared_by").prefetch_related("events"))
    flags.sort(key=lambda flag: (flag.state != Flag.State.OPEN, KIND_ORDER.index(flag.kind), flag.pk))
    return flags


def flags_gone(flags) -> list:
    """Flags no longer found, the latest gone first, with the scan that no longer found them."""
    return list(flags.filter(state=Flag.State.GONE).select_related("gone_by").order_by("-gone_at", "pk"))


def month_review(rating_list: RatingList, month: Month) -> MonthReview:
    every = Flag.objects.filter(rating_list=rating_list, month=str(month))
    flags = every.exclude(state=Flag.State.GONE)
    counts = dict(
        flags.filter(state=Flag.State.OPEN).values_list("kind").annotate(count=Count("pk")).values_list("kind", "count")
    )
    return MonthReview(
        rating_list=rating_list,
        month=month,
        scan=Scan.objects.filter(rating_list=rating_list, month=str(month)).order_by("-at").first(),
        flags=flags_shown(flags),
        gone=flags_gone(every),
        counts={label: counts[kind] for kind, label in Flag.Kind.choices if counts.get(kind)},
        held=list(
            Event.objects.filter(rating_list=rating_list, status=Event.Status.HELD)
            .annotate(open_flags=Count("flags", filter=Q(flags__state=Flag.State.OPEN)))
            .order_by("-end_date", "code")
        ),
        threshold_changes=list(rating_list.threshold_changes.select_related("by")[:5]),
        improbable=flags.filter(kind=Flag.Kind.IMPROBABLE).count(),
    )


def event_flags(event: Event) -> list:
    """The event's flags, open ones first, then those cleared (not those no longer found)."""
    return flags_shown(event.flags.exclude(state=Flag.State.GONE))


def event_flags_gone(event: Event) -> list:
    return flags_gone(event.flags.all())


def months_with_flags(rating_list: RatingList) -> list[tuple[str, int]]:
    """The list's months that have open flags, latest first, with how many."""
    return list(
        Flag.objects.filter(rating_list=rating_list, state=Flag.State.OPEN)
        .values_list("month")
        .annotate(count=Count("pk"))
        .order_by("-month")
    )
