"""What the public sees of events before they are rated: which of a player's events are on their
way, and how far each has come. Nothing of their results: those are public once approved (and a
held event's not until it is released)."""

from dataclasses import dataclass

from common.bulk import table
from common.lookups import prepared_cursor, rows_with
from events.models import IN_RATING, Entry, Event, EventChange

# Submitted, approved, or held for review: on their way to a rated list. An uploaded or checked
# event is still its arbiter's to correct or withdraw; a sent-back one is back with them.
ON_THEIR_WAY = (Event.Status.SUBMITTED, Event.Status.APPROVED, Event.Status.HELD)


# Public before their results are: the event, its arbiter and how far it has come.
STATUS_ONLY = (Event.Status.SUBMITTED, Event.Status.HELD)


def public_events():
    """The events the public sees, on the site and through the API: approved and rated ones with
    their results, and those submitted or held for review by their status alone (STATUS_ONLY)."""
    return Event.objects.filter(status__in=(*IN_RATING, *STATUS_ONLY)).select_related("rating_list", "arbiter")


def public_event_by_code(code: str) -> Event | None:
    """The public event (public_events) of ``code`` or, typed in another case, the one it names,
    with its list and arbiter; None if none. A plain query (common.lookups.rows_with): every event
    page asks, and the ORM's building of it cost more than the query."""
    statuses = (*IN_RATING, *STATUS_ONLY)
    found = rows_with(
        Event, ["rating_list", "arbiter"], f"t.code = %s AND t.status IN ({in_list(statuses)})", [code, *statuses]
    )
    return found[0] if found else public_events().filter(code__iexact=code).order_by("pk").first()


def in_list(values) -> str:
    return ", ".join(["%s"] * len(values))


def events_of_player(player, statuses=None, most=30) -> list[Event]:
    """The public events ``player`` is entered in (matched to their record), latest first,
    ``most`` of them; of ``statuses`` only, if given."""
    found = public_events().filter(entries__player=player)
    if statuses:
        found = found.filter(status__in=statuses)
    return list(found.distinct().order_by("-end_date", "code")[:most])


def events_on_their_way(player) -> list[Event]:
    """The events ``player`` is entered in not yet rated (ON_THEIR_WAY), latest first."""
    # Every player page asks, and most players have none: a plain query of their entries says
    # so (the ORM's query, with its joins and DISTINCT, cost a fifth of the page).
    with prepared_cursor(Entry) as cursor:
        cursor.execute(
            f"SELECT en.event_id FROM {table(Entry)} en JOIN {table(Event)} e ON e.id = en.event_id "
            f"WHERE en.player_id = %s AND e.status IN ({in_list(ON_THEIR_WAY)})",
            [player.pk, *ON_THEIR_WAY],
        )
        ids = [row[0] for row in cursor.fetchall()]
    return list(public_events().filter(pk__in=ids).order_by("-end_date", "code")) if ids else []


@dataclass(frozen=True)
class Step:
    label: str
    at: object  # a datetime


def steps_so_far(event: Event) -> list[Step]:
    """When the event was received (its first file; a corrected one too), then submitted,
    approved or held since its latest file, the latest of each, in order; nothing of who wrote
    what, or why."""
    labels = {
        Event.Status.SUBMITTED: "submitted for approval",
        Event.Status.APPROVED: "approved for rating",
        Event.Status.HELD: "held for review",
        Event.Status.RATED: "rated",
    }
    changes = list(
        EventChange.objects.filter(event=event, status__in=[Event.Status.UPLOADED, *labels]).order_by("at", "pk")
    )
    uploads = [change.at for change in changes if change.status == Event.Status.UPLOADED]
    steps = [Step("received", uploads[0])] if uploads else []
    if len(uploads) > 1:
        steps.append(Step("corrected file received", uploads[-1]))
    latest = {}
    for change in changes:
        if change.status in labels and (not uploads or change.at >= uploads[-1]):
            latest[change.status] = change.at
    return steps + sorted((Step(labels[status], at) for status, at in latest.items()), key=lambda step: step.at)
