"""What an event's arbiter is mailed of its workflow (docs/mails.md): approved, sent back (with
the officer's reason), rated (with the publication it is in), or held for review (that it awaits
review, never why: the reason of a hold is for the rating officers). One mail per step, its
subject the step's EventChange. Not mailed: a step the arbiter took themselves (an officer who
uploaded and approved their own event), and the officers' other steps (a release from review, a
flag cleared), whose notes are theirs."""

from django.db.models import Q
from django.urls import reverse

from common.outgoing_mail import site_url
from events.models import Event, EventChange
from grading.models import RatingRun
from mails.choices import wants
from mails.delivery import Mail, Recipient
from mails.models import Kind

KINDS = {
    Event.Status.APPROVED: Kind.APPROVED,
    Event.Status.SENT_BACK: Kind.SENT_BACK,
    Event.Status.RATED: Kind.RATED,
    Event.Status.HELD: Kind.HELD,
}
TITLES = {
    Kind.APPROVED: "{event.name} ({event.code}) is approved for rating",
    Kind.SENT_BACK: "{event.name} ({event.code}) is sent back to you",
    Kind.RATED: "{event.name} ({event.code}) is rated",
    Kind.HELD: "{event.name} ({event.code}) awaits review",
}
MAILED = Q(step="") & (Q(status=Event.Status.HELD) | Q(status__in=list(KINDS), for_officers=False))


def kind_of(change) -> str | None:
    """The kind of mail a step of an event's workflow sends its arbiter, if any."""
    if change.step or (change.for_officers and change.status != Event.Status.HELD):
        return None
    return KINDS.get(change.status)


def mailed_steps(since):
    """The steps since ``since`` whose events have an arbiter with an address to mail."""
    steps = EventChange.objects.filter(MAILED, at__gte=since, event__arbiter__is_active=True)
    return steps.exclude(event__arbiter__email="").select_related("event__arbiter", "event__rating_list")


def mail_of_step(change) -> Mail | None:
    """The mail of ``change`` to its event's arbiter, or None if the step is not mailed; without
    recipients if the arbiter has no address, took the step themselves or turned the kind off."""
    kind = kind_of(change)
    event = change.event
    if kind is None or event.arbiter_id is None:
        return None
    arbiter = event.arbiter
    mailed = arbiter.is_active and arbiter.email and arbiter.pk != change.by_id and wants(arbiter, kind)
    # Only what each kind says: a hold's reason (change.note) is never in a held mail's context.
    context = {"event": event, "at": change.at, "event_url": site_url(reverse("arbiter-event", args=[event.pk]))}
    if kind == Kind.SENT_BACK:
        context["reason"] = change.note
    if kind == Kind.RATED:
        context.update(publication_of(change))
    return Mail(
        kind,
        str(change.pk),
        TITLES[kind].format(event=event),
        kind,
        context,
        [Recipient(arbiter.email, arbiter)] if mailed else [],
    )


def publication_of(change) -> dict:
    """The publication that rated the event at ``change``: the run that marked it rated is the
    latest published one with its games started before it (grading.run.rating.mark_events_rated)."""
    event = change.event
    run = (
        RatingRun.objects.filter(events=event.pk, revision__isnull=False, started_at__lte=change.at)
        .select_related("period__rating_list")
        .order_by("-started_at", "-pk")
        .first()
    )
    found = {"public_url": site_url(reverse("event", args=[event.code]))}
    if run is None:  # its runs' records gone since (not in any list kept): the event page says it all
        return found
    rating_list, month = run.period.rating_list, run.period.month
    return {
        **found,
        "list_name": rating_list.name,
        "month": month,
        "list_url": site_url(reverse("rating-list-period", args=[rating_list.code, month])),
    }
