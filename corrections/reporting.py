"""A report sent by the public, and the officers' answers to it (docs/corrections.md).

The reporter has no account: their address is where replies go. The officers' steps are
actions (``do_...``, the acting user passed in, the history row written in the same
transaction, the reply mailed once it commits).
"""

import logging

from django.db import transaction
from django.utils import timezone

from common.locking import lock_row
from corrections.models import Report, ReportChange
from corrections.signals import report_sent
from grading.run.broker import Unreachable, send

logger = logging.getLogger(__name__)

MOST_CHARACTERS = 3000  # a report is a few sentences, not a file


class AnswerRefused(Exception):
    """Why an officer's step was not taken: the message says it."""


def send_report(kind: str, email: str, message: str, *, player=None, event=None, other_record="") -> Report:
    """Store what the public reports about ``player`` or ``event`` (or a player's result in an
    event: both), new."""
    now = timezone.now()
    about = f"{player.name} ({player.code})" if player else f"{event.name} ({event.code})"
    if player and event:
        about += f" in {event.name} ({event.code})"
    with transaction.atomic():
        report = Report.objects.create(
            kind=kind,
            player=player,
            event=event,
            about=about[:250],
            other_record=other_record.strip()[:40],
            message=message.strip()[:MOST_CHARACTERS],
            email=email.strip().lower(),
            created_at=now,
            state_changed_at=now,
        )
        ReportChange.objects.create(report=report, state=Report.State.NEW, at=now)
        report_sent.send(sender=Report, report=report)
    return report


def do_answer_report(report: Report, state: str, reply: str = "", note: str = "", *, acting_user) -> Report:
    """An officer moves ``report`` to ``state`` (or leaves it there), with a ``reply`` mailed to
    the reporter and a ``note`` for the officers; declining says why to the reporter."""
    reply, note = reply.strip(), note.strip()
    if state not in Report.State.values or state == Report.State.NEW:
        raise AnswerRefused("Choose what becomes of the report: in hand, resolved or declined.")
    if state == Report.State.DECLINED and not reply:
        raise AnswerRefused("Say why in the reply: a report is declined with a word to its reporter.")
    with transaction.atomic():
        report = lock_row(Report.objects.filter(pk=report.pk))
        if state == report.state and not reply and not note:
            raise AnswerRefused(f"The report is {report.get_state_display()} already, and nothing was written.")
        now = timezone.now()
        change = ReportChange.objects.create(
            report=report, state=state, by=acting_user, at=now, reply=reply[:MOST_CHARACTERS], note=note
        )
        if state != report.state:
            report.state, report.state_changed_at = state, now
            report.save(update_fields=["state", "state_changed_at"])
        if reply:
            transaction.on_commit(lambda: mail_reply(change))
    return report


def mail_reply(change: ReportChange) -> None:
    """Send the reply on a worker. A reply the broker cannot take now is not lost: the report's
    page shows it not yet mailed, and beat's mail_replies_waiting sends it."""
    try:
        send("corrections.tasks.mail_reply", (change.pk,))
    except Unreachable as error:
        logger.warning("reply to report %s: %s", change.report_id, error)
    except Exception:
        logger.exception("reply to report %s failed", change.report_id)
