"""Sending a role mail once to each of its recipients (docs/mails.md), as the followers' mails
are sent (alerts/mailing.py): the occasion (kind and subject: "event-approved" and a step,
"officer-digest" and a day) is claimed by the task at work on it with an advisory lock its
database session holds (common.locking.claim_number): a second task finds it claimed, or
finished, and sends nothing; a worker killed in the middle lets go of it with its connection,
and the next task (a worker that starts, beat's mail_missed) goes on.

Each recipient's Delivery (unique per occasion and address) is claimed before the mail is sent:
written and committed, then the mail sent, then marked sent, or refused for good (a 5xx, not
tried again). A claim found unsent is one a killed worker left in flight: the server may or may
not have taken it, and it is sent again under the same Message-ID, which mail programs show as
one message. Anything else that stops the sending (the mail server away) stops the occasion,
for the task's retry or beat to take up.
"""

import contextlib
import logging
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db.models import Q
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone

from common.locking import claim_number
from common.outgoing_mail import REFUSALS, refused_for_good, site_url
from mails.models import Delivery, Occasion

logger = logging.getLogger(__name__)

OCCASION_LOCKS = 0x726F6C65 << 32  # an occasion's claim: the advisory lock of this plus its pk


@dataclass
class Recipient:
    address: str
    user: object = None  # None: an address with no account (a reporter)
    context: dict = field(default_factory=dict)  # what their own mail says besides the mail's


@dataclass
class Mail:
    """One occasion of a kind of role mail: what it is about, its Subject line, its templates
    (templates/mails/mail/TEMPLATE.txt and .html), and whom it goes to (those who turned the kind
    off are not among them)."""

    kind: str
    subject: str  # what it is about, in its key: an event's step, a report, a day
    title: str
    template: str
    context: dict
    recipients: list[Recipient]

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.subject}"


class Postman:
    """One SMTP connection for a task's mails, opened only if a mail is to go."""

    def __init__(self):
        self.connection = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.connection is not None:
            self.connection.close()

    def ready(self):
        """Connected: before a mail is claimed, so that a mail server away leaves no claim."""
        if self.connection is None:
            self.connection = get_connection()
            self.connection.open()

    def send(self, message):
        self.ready()
        self.connection.send_messages([message])


@contextlib.contextmanager
def claimed(mail: Mail):
    """The occasion of ``mail``, claimed by this task while the block runs; None if it is
    finished, or another task (alive: its connection holds the claim) is at work on it."""
    now = timezone.now()
    occasion, _ = Occasion.objects.get_or_create(
        kind=mail.kind, subject=mail.subject, defaults={"title": " ".join(mail.title.split())[:200], "created_at": now}
    )
    with claim_number(OCCASION_LOCKS + occasion.pk) as held:
        occasion.refresh_from_db()
        if not held or occasion.finished_at is not None:
            yield None
            return
        Occasion.objects.filter(pk=occasion.pk).update(claimed_at=now)  # at work since, for the admin
        try:
            yield occasion
        finally:
            # Finished, or cut off (the mail server away): the claim let go of either way.
            Occasion.objects.filter(pk=occasion.pk).update(claimed_at=None)


def deliver(mail: Mail, postman: Postman) -> Occasion | None:
    """Send ``mail`` to each of its recipients not yet reached: its occasion, or None if another
    task has it. One without recipients is finished at once, without the mail server."""
    with claimed(mail) as occasion:
        if occasion is None:
            return None
        for recipient in mail.recipients:
            deliver_one(occasion, mail, recipient, postman)
        Occasion.objects.filter(pk=occasion.pk).update(
            finished_at=timezone.now(),
            recipients=len(mail.recipients),
            sent=Delivery.objects.filter(occasion=occasion, sent_at__isnull=False).count(),
        )
    occasion.refresh_from_db()
    return occasion


def deliver_one(occasion, mail: Mail, recipient: Recipient, postman: Postman) -> None:
    done = Q(sent_at__isnull=False) | Q(refused=True)
    if Delivery.objects.filter(done, occasion=occasion, address=recipient.address).exists():
        return
    postman.ready()
    now = timezone.now()
    delivery, claimed_now = Delivery.objects.get_or_create(
        occasion=occasion, address=recipient.address, defaults={"user": recipient.user, "claimed_at": now}
    )
    if not claimed_now:
        logger.warning("%s to %s: cut off mid-send before, sent again under its Message-ID", mail.key, delivery.address)
        Delivery.objects.filter(pk=delivery.pk).update(claimed_at=now, attempts=delivery.attempts + 1)
    try:
        postman.send(letter(mail, recipient, delivery))
    except REFUSALS as error:
        if not refused_for_good(error):
            raise
        logger.warning("%s to %s refused: %s", mail.key, delivery.address, error)
        Delivery.objects.filter(pk=delivery.pk).update(refused=True)
        return
    Delivery.objects.filter(pk=delivery.pk).update(sent_at=timezone.now())


def message_id(mail: Mail, delivery: Delivery) -> str:
    """The same for every sending of one delivery: a mail sent again after a cut-off is one
    message to a mail program."""
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"<{mail.kind}.{mail.subject}.{delivery.pk}@{host}>"


def letter(mail: Mail, recipient: Recipient, delivery: Delivery) -> EmailMultiAlternatives:
    context = {**mail.context, **recipient.context, "choices_url": site_url(reverse("mail-choices"))}
    context["account"] = recipient.user is not None
    message = EmailMultiAlternatives(
        " ".join(mail.title.split()),
        get_template(f"mails/mail/{mail.template}.txt").render(context),
        settings.DEFAULT_FROM_EMAIL,
        [recipient.address],
        headers={"Message-ID": message_id(mail, delivery), "Auto-Submitted": "auto-generated"},
    )
    message.attach_alternative(get_template(f"mails/mail/{mail.template}.html").render(context), "text/html")
    return message
