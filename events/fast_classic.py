"""Approving an event as fast classic (docs/rules.md part 5, the rate of play): FIDE's decision of
2026 lets a rating officer approve, event by event, one played at 45 minutes and 30 seconds a move
or more as standard play, rated at its time control whatever its players' ratings (a list rated by
FIDE's 2024 rules otherwise asks 90 or 120 minutes for 60 moves where a player is rated 1800 or
2400). Who approved it and when are kept on the event and in its history, as an approved length.

Actions as in events/lengths.py: atomic, under the event's lock, the acting user passed in, the
history row in the same transaction, the rated months of an event in rating revised.
"""

from django.db import transaction
from django.utils import timezone

from chess.time_controls import TimeControl
from events.lengths import approved_by, note_in_history, refuse_without_permission, revise_rated_months
from events.models import Event
from events.workflow import WorkflowError, lock_event

FAST_CLASSIC_MINUTES = 45  # the least a player has for the game (or its first control) ...
FAST_CLASSIC_INCREMENT = 30  # ... with at least this many seconds a move


def do_approve_fast_classic(event, *, acting_user) -> Event:
    """``acting_user`` approves ``event`` as fast classic: rated as standard play at its time control."""
    refuse_without_permission(acting_user, "approve an event as fast classic")
    with transaction.atomic():
        event = lock_event(event)
        if event.fast_classic:
            raise WorkflowError(f"it was approved as fast classic already, {approval_text(event)}: nothing changed")
        refuse_too_fast(event)
        event.fast_classic_approved_by, event.fast_classic_approved_at = acting_user, timezone.now()
        event.save(update_fields=["fast_classic_approved_by", "fast_classic_approved_at"])
        note_in_history(
            event,
            acting_user,
            "approved as fast classic",
            f"approved as fast classic at {event.time_control}: rated as standard play whatever the ratings",
            at=event.fast_classic_approved_at,
        )
        revise_rated_months(event, acting_user)
    return event


def do_withdraw_fast_classic(event, *, acting_user) -> Event:
    """``acting_user`` withdraws the approval of ``event`` as fast classic."""
    refuse_without_permission(acting_user, "withdraw an event's approval as fast classic")
    with transaction.atomic():
        event = lock_event(event)
        if not event.fast_classic:
            raise WorkflowError("it is not approved as fast classic: there is no approval to withdraw")
        event.fast_classic_approved_by = event.fast_classic_approved_at = None
        event.save(update_fields=["fast_classic_approved_by", "fast_classic_approved_at"])
        note_in_history(
            event,
            acting_user,
            "fast classic approval withdrawn",
            "approval as fast classic withdrawn: its games need the time the players' ratings ask",
        )
        revise_rated_months(event, acting_user)
    return event


def refuse_too_fast(event) -> None:
    """FIDE's fast classic is 45 minutes and 30 seconds a move or more: refuse an event without a
    time control, or with a faster one, saying which."""
    control = TimeControl.from_text(event.time_control) if event.time_control else None
    if control is None:
        raise WorkflowError("it has no time control that can be read: give it one first")
    if control.base_minutes < FAST_CLASSIC_MINUTES or control.increment_seconds < FAST_CLASSIC_INCREMENT:
        raise WorkflowError(
            f"its time control, {control}, is faster than fast classic: at least {FAST_CLASSIC_MINUTES} min "
            f"+ {FAST_CLASSIC_INCREMENT} s/move"
        )


def approval_text(event) -> str:
    """Who approved the event as fast classic and when: "by officer on 06/05/2026"."""
    return approved_by(event.fast_classic_approved_by, event.fast_classic_approved_at)
