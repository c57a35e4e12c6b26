"""Which periods a run rates: the month asked for, every month before it not yet rated, and every
month already published whose games have changed since, with the months between and after."""

from django.db.models import Exists, F, Max, OuterRef

from chess.months import Month
from events.models import Event, Game
from grading.engine import RULE_SETS
from grading.engine.rule_sets import lists_read, reading_digests
from grading.models import RatingPeriod, RatingRun


def latest_take_on(rating_list) -> str | None:
    """The latest month whose current list on ``rating_list`` is ratings imported at take-on."""
    return latest_take_ons(rating_list).get(rating_list.pk)


def latest_published(rating_list) -> Month | None:
    """The list's latest published month, or None."""
    month = (
        RatingPeriod.objects.published()
        .filter(rating_list=rating_list)
        .order_by("-month")
        .values_list("month", flat=True)
        .first()
    )
    return Month.parse(month) if month else None


def periods_to_rate(rating_list, month: Month) -> list[RatingPeriod]:
    """The run's month, and before it every month not yet rated since the latest publication
    (a month is never skipped: its games would be lost) and every period rated already whose
    games have changed since (late results approved, or rated events withdrawn), with every
    period between; and every period published after it, which reads the states the run may
    change."""
    latest = latest_published(rating_list)
    unrated_from = latest + 1 if latest else month
    first = min([month, unrated_from, *changed_months(rating_list, month)])
    last = max(month, latest) if latest else month
    periods = []
    current = first
    while current <= last:
        period = RatingPeriod.objects.filter(rating_list=rating_list, month=str(current)).first()
        if unrated_from <= current <= month or (period and period.revision is not None):
            period = period or RatingPeriod.objects.create(rating_list=rating_list, month=str(current))
            periods.append(period)
        current += 1
    return periods


def changed_months(rating_list, month: Month) -> set[Month]:
    """Months before ``month`` already published whose rated games have changed since: late
    results approved in them, or events they rated sent back (and perhaps approved again)."""
    published = rated_publications(rating_list).filter(month__lt=str(month))
    months = set(published.values_list("month", flat=True))
    due = set(published.filter(revision_due=True).values_list("month", flat=True))
    late = (
        Game.objects.rated()
        .filter(event__rating_list=rating_list, event__status=Event.Status.APPROVED, date__lt=month.first_day())
        .dates("date", "month")
    )
    changed = ({str(Month.of(day)) for day in late} & months) | due
    rated_events = RatingRun.events.through.objects.filter(
        ratingrun__period__in=published, ratingrun__revision=F("ratingrun__period__revision")
    )
    changed.update(
        rated_events.exclude(event__status=Event.Status.RATED)
        .values_list("ratingrun__period__month", flat=True)
        .distinct()
    )
    changed.update(read_republished_states(rating_list, published))
    return {Month.parse(text) for text in changed}


def rated_publications(rating_list):
    """The list's published periods whose current list a run rated: not those kept as the
    ratings taken on from the previous system, which no run rates again and which read nothing
    of the other lists."""
    taken_on = RatingRun.objects.filter(period=OuterRef("pk"), revision=OuterRef("revision"), trigger=RatingRun.IMPORT)
    return RatingPeriod.objects.published().filter(rating_list=rating_list).exclude(Exists(taken_on))


def stale_months(rating_list) -> set[str]:
    """The list's months a run published whose reading of the other lists is out of date."""
    return read_republished_states(rating_list, rated_publications(rating_list))


def read_republished_states(rating_list, published) -> set[str]:
    """The published months of this list that read states another list has published since
    they were last rated: what they read then is not what they would read now. A month rated
    again against the current states is current, whether its result changed or not."""
    rows = list(published.values_list("month", "rule_set", "states_read"))
    now = states_read_by_month(rating_list, [(month, rule_set) for month, rule_set, _ in rows])
    return {month for month, _, stored in rows if stored != now[month]}


def read_publications(period) -> str:
    """What a period reads of the other lists, as ``states_read`` keeps it."""
    return states_read_by_month(period.rating_list, [(period.month, period.rule_set)])[period.month]


def states_read_by_month(rating_list, months) -> dict[str, str]:
    """For each (month, rule set) of ``rating_list``: the digest of what a period of that month
    reads of the other lists (reading_digests)."""
    read = {month: lists_read(rating_list.code, RULE_SETS[rule_set]) for month, rule_set in months}
    publications = (
        RatingPeriod.objects.published()
        .filter(rating_list__code__in={code for lists in read.values() for code in lists})
        .values_list("month", "rating_list__code", "revision")
    )
    return reading_digests(read, publications)


def latest_take_ons(rating_list=None) -> dict[int, str]:
    """{list id: the latest month whose current list is ratings taken on from the previous
    system}, for every list or one."""
    periods = RatingPeriod.objects.filter(runs__trigger=RatingRun.IMPORT, runs__revision=F("revision"))
    if rating_list is not None:
        periods = periods.filter(rating_list=rating_list)
    return dict(periods.values_list("rating_list_id").annotate(latest=Max("month")))
