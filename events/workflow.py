"""The event workflow: uploaded -> checked -> submitted -> approved -> rated, or sent back, or
withdrawn by its arbiter; or held from rating by a rating officer (the integrity watch) until
released.

Its steps are actions (``do_*``, the acting user keyword-only): storing an upload
(events/uploads/storing.py), submitting, withdrawing and sending back (here), approving, with the
registration of new players (events/approval.py), and approving the length of a long event
(events/lengths.py). Views, admin actions and commands all call them; each runs in one
transaction and holds the event's lock (``lock_event``), so two clicks or two staff members
cannot interleave, and writes its history row (``record``, an EventChange) in that transaction.
What follows in grading (revisions, live ratings) is asked for through
events.signals.rated_games_changed, and sent once the transaction commits; each step recorded is
announced with events.signals.steps_recorded, for the role mails to tell its arbiter.
"""

from django.db import transaction
from django.utils import timezone

from common.locking import lock_row
from events.models import Event, EventChange
from events.signals import rated_games_changed, steps_recorded


class WorkflowError(Exception):
    """A step the event's state or the user's role does not allow; the message says why."""


def record(event, status, user, note="", for_officers=False):
    event.status = status
    event.status_changed_at = timezone.now()
    event.status_changed_by = user
    event.save(update_fields=["status", "status_changed_at", "status_changed_by", "sent_back_reason", "held_from"])
    change = EventChange.objects.create(
        event=event, status=status, by=user, at=event.status_changed_at, note=note, for_officers=for_officers
    )
    steps_recorded.send(sender=Event, changes=[change])
    return change


def reason_given(reason, what: str) -> str:
    """An officer's reason why ``what`` ("the event is held"), stripped; WorkflowError if there is
    none, or it is too long."""
    reason = (reason or "").strip()
    if not reason:
        raise WorkflowError(f"say why {what}")
    if len(reason) > 2000:
        raise WorkflowError(f"the reason is {len(reason):,} characters long: say it in 2,000 or fewer")
    return reason


def lock_event(event):
    """The event as it is now, locked for this transaction: every change of an event's workflow
    goes through here, so that two clicks or two staff members cannot interleave."""
    return lock_row(Event.objects.filter(pk=event.pk))


def do_submit_event(event, *, acting_user):
    """``acting_user`` submits a checked event (or one sent back) for approval (``may_submit``)."""
    with transaction.atomic():
        event = lock_event(event)
        if event.status not in (Event.Status.CHECKED, Event.Status.SENT_BACK):
            raise WorkflowError(f"{event.code} is {event.get_status_display()}: only a checked event can be submitted")
        if not may_submit(event, acting_user):
            raise WorkflowError(f"{event.code} is submitted by its arbiter, or by whoever uploaded its latest file")
        record(event, Event.Status.SUBMITTED, acting_user)
    return event


def may_submit(event, user) -> bool:
    """Its arbiter submits an event once they have read the report; so does whoever uploaded its
    latest file (a rating officer loading results sent in by e-mail), never someone else for
    them: an officer does not approve a file its arbiter has not vouched for."""
    return user.pk == event.arbiter_id or uploaded_by(event, user)


def uploaded_by(event, user) -> bool:
    """Whether ``user`` uploaded the event's latest file."""
    latest = event.uploads.order_by("-uploaded_at", "-pk").first()
    return latest is not None and latest.uploaded_by_id == user.pk


WITHDRAWABLE = (Event.Status.UPLOADED, Event.Status.CHECKED, Event.Status.SUBMITTED, Event.Status.SENT_BACK)


def do_withdraw_event(event, *, acting_user):
    """The arbiter takes back an event not yet approved: it will not be rated. Its uploads and
    history stay, for the record; uploading the code again brings it back (a higher index)."""
    with transaction.atomic():
        event = lock_event(event)
        if event.arbiter_id != acting_user.pk:
            raise WorkflowError(f"{event.code} is another arbiter's event")
        if event.status not in WITHDRAWABLE:
            raise WorkflowError(
                f"{event.code} is {event.get_status_display()}: only an event not yet approved can be "
                "withdrawn; ask a rating officer to send it back"
            )
        record(event, Event.Status.WITHDRAWN, acting_user, "withdrawn by its arbiter")
    return event


def do_send_back_event(event, reason, *, acting_user):
    """``acting_user`` (a rating officer) sends ``event`` back to its arbiter, saying why: one
    approved or rated leaves the months it was rated in, and the live ratings."""
    reason = reason_given(reason, "the event is sent back")
    with transaction.atomic():
        event = lock_event(event)
        if event.status not in (
            Event.Status.SUBMITTED,
            Event.Status.CHECKED,
            Event.Status.APPROVED,
            Event.Status.RATED,
            Event.Status.HELD,
        ):
            raise WorkflowError(f"{event.code} is {event.get_status_display()}: it cannot be sent back")
        counted = event.status in (Event.Status.APPROVED, Event.Status.RATED)
        event.sent_back_reason, event.held_from = reason, ""
        record(event, Event.Status.SENT_BACK, acting_user, reason)
        if counted:
            # Withdrawn from rated months (they are revised without its games), or from the
            # live ratings.
            rated_games_changed.send(sender=Event, event=event, user=acting_user)
    return event


HOLDABLE = (Event.Status.SUBMITTED, Event.Status.APPROVED, Event.Status.RATED)


def do_hold_event(event, reason, *, acting_user):
    """``acting_user`` (a rating officer) holds ``event`` from rating while its results are
    reviewed: its games stay stored, no run or live rating reads them, and one rated leaves the
    months it was rated in (they are revised). The public sees only that it awaits review."""
    reason = reason_given(reason, "the event is held")
    with transaction.atomic():
        event = lock_event(event)
        if event.status not in HOLDABLE:
            raise WorkflowError(
                f"{event.code} is {event.get_status_display()}: only an event submitted, approved or rated can be held"
            )
        counted = event.in_rating
        event.held_from = event.status
        record(event, Event.Status.HELD, acting_user, reason, for_officers=True)
        if counted:
            rated_games_changed.send(sender=Event, event=event, user=acting_user)
    return event


def do_release_event(event, reason, *, acting_user):
    """``acting_user`` releases a held event, saying why: it returns to where it was (one that
    was rated, to approved: the next run rates it again), and its games count again."""
    reason = reason_given(reason, "the event is released")
    with transaction.atomic():
        event = lock_event(event)
        if event.status != Event.Status.HELD:
            raise WorkflowError(f"{event.code} is {event.get_status_display()}: only a held event can be released")
        back = Event.Status.SUBMITTED if event.held_from == Event.Status.SUBMITTED else Event.Status.APPROVED
        event.held_from = ""
        record(event, back, acting_user, f"released from review: {reason}", for_officers=True)
        if event.in_rating:
            rated_games_changed.send(sender=Event, event=event, user=acting_user)
    return event
