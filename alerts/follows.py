"""Following by e-mail: asked for on the site, confirmed from the address's mail (double opt-in),
managed and stopped by the link in every mail.

Nobody acts here as a logged-in user: the address's key, which only its mail holds, is the
authority. So the address is never told more than its own mail would: asking to follow gives
the same answer whether the address is known or not.
"""

import datetime
import secrets
import smtplib
from dataclasses import dataclass

from celery.exceptions import Retry
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from alerts.models import Follow, Follower
from common.locking import lock_row, lock_rows
from grading.run.broker import Unreachable, send

# One mail of an address's key asked for on the site every so often, at most: asking again and
# again floods nobody's inbox. The link of the mail before confirms what was asked since.
LINK_INTERVAL = datetime.timedelta(minutes=10)
MOST_FOLLOWS = 200  # a follower of a whole club follows the club, not its 200 players


class FollowRefused(Exception):
    """Why a follow was not added: the message says it."""


class MailDelayed(Exception):
    """The mail asked for could not be sent now (the broker or the mail server is down): what
    was asked is kept, and asking again later sends it."""


@dataclass(frozen=True)
class Target:
    """What is followed: a player, a club or a rating list (one of the three)."""

    kind: str
    player: object = None
    club: object = None
    rating_list: object = None

    @property
    def thing(self):
        return self.player or self.club or self.rating_list

    def filter(self) -> dict:
        return {"player": self.player, "club": self.club, "rating_list": self.rating_list}


def follower_of(key: str) -> Follower | None:
    if not key or len(key) > 64:
        return None
    return Follower.objects.filter(key=key).first()


def ask_to_follow(email: str, target: Target) -> None:
    """``email`` asks to follow ``target``: the follow is added unconfirmed (or stays as it is),
    and the address is mailed the link that confirms it, unless one was mailed within
    LINK_INTERVAL (whose link confirms this one too)."""
    email = email.strip().lower()
    now = timezone.now()
    with transaction.atomic():
        follower = follower_by_email(email, now)
        if follower.follows.count() >= MOST_FOLLOWS:
            raise FollowRefused(f"An address follows {MOST_FOLLOWS} players, clubs or lists at most.")
        Follow.objects.get_or_create(
            follower=follower, kind=target.kind, **target.filter(), defaults={"created_at": now}
        )
        due = link_due(follower, now)
    if due:
        mail_link(follower, "confirm")


def ask_for_link(email: str) -> None:
    """``email`` asks for the link to manage its alerts: mailed if the address follows anything
    (and no link was mailed within LINK_INTERVAL); nothing is said either way."""
    follower = Follower.objects.filter(email=email.strip().lower()).first()
    if follower is not None and follower.follows.exists() and link_due(follower, timezone.now()):
        mail_link(follower, "manage")


def mail_link(follower: Follower, what: str) -> None:
    """Send the mail of the follower's link (alerts.tasks.send_link); if it cannot go now, the
    address may ask again at once (MailDelayed)."""
    try:
        send("alerts.tasks.send_link", (follower.pk, what))
    except (Unreachable, OSError, smtplib.SMTPException, Retry) as error:
        Follower.objects.filter(pk=follower.pk).update(link_sent_at=None)
        raise MailDelayed("The mail cannot be sent just now: please ask again in a few minutes.") from error


def follower_by_email(email: str, now) -> Follower:
    """The follower of ``email``, made if new, locked until the transaction ends (two asks of one
    address at once count its follows one after the other)."""
    found = lock_rows(Follower.objects.filter(email=email))
    if found:
        return found[0]
    try:
        with transaction.atomic():
            return Follower.objects.create(email=email, key=secrets.token_urlsafe(32), created_at=now)
    except IntegrityError:  # the same address asked twice at once: the other made it
        return lock_row(Follower.objects.filter(email=email))


def link_due(follower: Follower, now) -> bool:
    """Whether a mail of the follower's key may be sent now; if so, it is recorded as sent (one
    UPDATE: of two asks at once, one sends)."""
    not_lately = Q(link_sent_at__isnull=True) | Q(link_sent_at__lt=now - LINK_INTERVAL)
    return bool(Follower.objects.filter(not_lately, pk=follower.pk).update(link_sent_at=now))


def confirm(follower: Follower) -> int:
    """Confirm every follow the address has asked for: the number confirmed."""
    return Follow.objects.filter(follower=follower, confirmed_at=None).update(confirmed_at=timezone.now())


def stop_following(follower: Follower, follow_pk: int) -> Follow | None:
    """Remove one of the address's follows (None: it has no such follow)."""
    follow = Follow.objects.filter(follower=follower, pk=follow_pk).first()
    if follow is not None:
        follow.delete()
    return follow


def unsubscribe(follower: Follower) -> int:
    """Stop every alert of the address (the one-click unsubscribe): the number of follows removed."""
    removed, _ = Follow.objects.filter(follower=follower).delete()
    return removed
