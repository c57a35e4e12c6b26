"""What a rating officer does with a flag: clear it with a reason, written in the history of
each event it concerns. Holding an event and releasing it are the event's own steps
(events.workflow.do_hold_event, do_release_event)."""

from django.db import transaction
from django.utils import timezone

from common.locking import lock_row
from events.models import EventChange
from events.workflow import WorkflowError, reason_given
from grading.models import Flag


def do_clear_flag(flag, reason, *, acting_user) -> Flag:
    """``acting_user`` clears ``flag``, saying why: it stays cleared when scans find it again."""
    reason = reason_given(reason, "the flag is cleared")
    with transaction.atomic():
        flag = lock_row(Flag.objects.filter(pk=flag.pk))
        if flag.state == Flag.State.CLEARED:
            raise WorkflowError(f"the flag was cleared already, by {flag.cleared_by or 'a former user'}")
        flag.state, flag.cleared_by, flag.cleared_at, flag.reason = (
            Flag.State.CLEARED,
            acting_user,
            timezone.now(),
            reason,
        )
        flag.save(update_fields=["state", "cleared_by", "cleared_at", "reason"])
        EventChange.objects.bulk_create(
            EventChange(
                event=event,
                status=event.status,
                by=acting_user,
                at=flag.cleared_at,
                step="flag cleared",
                note=f"{flag.get_kind_display()}: {flag.summary}; {reason}",
                for_officers=True,
            )
            for event in flag.events.all()
        )
    return flag
