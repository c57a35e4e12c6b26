"""Approving the length of a long event (docs/rules.md section 16.3): an event whose last day is
more than 89 days after its first (it lasts more than 90 days) is rated on a list rated by the
Elo method only once a rating officer has approved its length, for the dates it has then.

One function per action, as in events/workflow.py: atomic, under the event's lock, the acting
user passed in, the history row written in the same transaction. An event in rating has its
rated months revised (events.signals.rated_games_changed), as approving or sending back does:
its games go into, or out of, the months of the Elo lists they were left out of, or rated in.
New dates clear an approval: a new upload's (events.uploads.storing.save_event), or staff's in the
admin (``new_dates``).
"""

from django.db import transaction
from django.utils import timezone

from chess.dates import written
from events.approval import may_approve
from events.models import Event, EventChange
from events.signals import rated_games_changed
from events.workflow import WorkflowError, lock_event


def do_approve_length(event, *, acting_user) -> Event:
    """``acting_user`` approves the length of ``event``, which lasts more than 90 days, for its dates."""
    refuse_without_permission(acting_user, "approve the length of an event")
    with transaction.atomic():
        event = lock_event(event)
        if not event.needs_length_approval:
            raise WorkflowError(
                f"the event lasts {event.days} day{'s' if event.days != 1 else ''}: only an event of more "
                "than 90 needs its length approved"
            )
        if event.length_approved:
            raise WorkflowError(f"its length was approved already, {approval_text(event)}: nothing changed")
        event.length_approved_by, event.length_approved_at = acting_user, timezone.now()
        event.save(update_fields=["length_approved_by", "length_approved_at"])
        note_in_history(
            event,
            acting_user,
            "length approved",
            f"length of {event.length_text} approved for rating on Elo lists",
            at=event.length_approved_at,
        )
        revise_rated_months(event, acting_user)
    return event


def do_withdraw_length_approval(event, *, acting_user) -> Event:
    """``acting_user`` withdraws the approval of the length of ``event``: an Elo list no longer rates it."""
    refuse_without_permission(acting_user, "withdraw the approval of an event's length")
    with transaction.atomic():
        event = lock_event(event)
        if not event.length_approved:
            raise WorkflowError("its length is not approved: there is no approval to withdraw")
        forget_length_approval(
            event, acting_user, f"approval of the length of {event.length_text} for rating on Elo lists withdrawn"
        )
        revise_rated_months(event, acting_user)
    return event


def new_dates(event, user, approved_for: str) -> None:
    """Staff gave ``event`` new dates (in the admin): an approval of its length, which was for
    ``approved_for`` (Event.length_text before), is cleared. The event is not in rating: staff
    change only an event that is not."""
    if event.length_approved and event.length_text != approved_for:
        forget_length_approval(event, user, new_dates_note(approved_for, event, "its dates were changed to"))


def refuse_without_permission(user, what):
    if not may_approve(user):
        raise WorkflowError(f"you may not {what}: it needs the permission to approve events")


def approval_text(event) -> str:
    """Who approved the event's length and when: "by officer on 06/05/2026"."""
    return approved_by(event.length_approved_by, event.length_approved_at)


def approved_by(user, at) -> str:
    """Who approved something of an event and when: "by officer on 06/05/2026"."""
    who = user.get_username() if user else "a user since deleted"
    return f"by {who} on {written(timezone.localdate(at))}"


def note_in_history(event, user, step, note, at=None) -> EventChange:
    """A line of the event's history that does not change its status (an approval of its length,
    its approval as fast classic, and their withdrawals)."""
    return EventChange.objects.create(
        event=event, status=event.status, by=user, at=at or timezone.now(), step=step, note=note
    )


def revise_rated_months(event, user):
    """An event in rating with rated games: the months they fall in are rated again, as after an
    approval (grading revises the published months, and computes the live ratings again)."""
    if revises(event):
        rated_games_changed.send(sender=Event, event=event, user=user)


def revises(event) -> bool:
    """Whether approving the event's length, or withdrawing the approval, changes what is rated:
    it is approved or rated, with rated games."""
    return event.in_rating and event.games.rated().exists()


def forget_length_approval(event, user, note):
    """Clear the approval of the event's length, with ``note`` in its history."""
    event.length_approved_by = event.length_approved_at = None
    event.save(update_fields=["length_approved_by", "length_approved_at"])
    note_in_history(event, user, "length approval withdrawn", note)


def new_dates_note(approved_for, event, how):
    """The history's note when new dates clear the approval of an event's length: "length
    approval cleared: it was for 120 days (2026-01-05 to 2026-05-04), and the new file gives ..."."""
    then = "approve it again if they are right" if event.needs_length_approval else "90 days or fewer need none"
    return f"length approval cleared: it was for {approved_for}, and {how} {event.length_text}; {then}"
