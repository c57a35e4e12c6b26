"""What a rating officer does with a flag: clear it with a reason, written in the history of
each event it concerns; and a list's threshold of improbable results, each change recorded.
Holding an event and releasing it are the event's own steps
(events.workflow.do_hold_event, do_release_event)."""

from django.db import transaction
from django.utils import timezone

from common.locking import lock_row
from events.models import EventChange
from events.workflow import WorkflowError, reason_given
from grading.models import Flag, RatingList, ThresholdChange

THRESHOLDS = dict(RatingList._meta.get_field("integrity_threshold").choices)


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


def do_set_integrity_threshold(rating_list, threshold, reason, *, acting_user) -> ThresholdChange:
    """``acting_user`` sets the chance at which ``rating_list``'s improbable results are flagged,
    saying why; the change is recorded, and scans from now on read it."""
    if threshold not in THRESHOLDS:
        raise WorkflowError(f"{threshold!r} is not one of the chances offered ({', '.join(THRESHOLDS.values())})")
    reason = reason_given(reason, "the threshold is changed")
    with transaction.atomic():
        rating_list = lock_row(RatingList.objects.filter(pk=rating_list.pk))
        if rating_list.integrity_threshold == threshold:
            raise WorkflowError(f"the threshold of {rating_list.name} is {THRESHOLDS[threshold]} already")
        change = ThresholdChange.objects.create(
            rating_list=rating_list,
            at=timezone.now(),
            by=acting_user,
            before=rating_list.integrity_threshold,
            after=threshold,
            reason=reason,
        )
        rating_list.integrity_threshold = threshold
        rating_list.save(update_fields=["integrity_threshold"])
    return change
