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
from django.db.models import F, Q
from django.utils import timezone

from alerts.models import CONFIRMED, Follow, Follower
from common.locking import lock_row, lock_rows
from grading.run.broker import Unreachable, send

# One mail of an address's key asked for on the site every so often, at most: asking again and
# again floods nobody's inbox. The link of the mail before confirms what was asked since.
LINK_INTERVAL = datetime.timedelta(minutes=10)
MOST_FOLLOWS = 200  # a follower of a whole club follows the club, not its 200 players
MOST_WAITING = 50  # follows asked for and not yet confirmed
# Confirmation mails to an address that has never confirmed anything: past these, one a day at
# most, whoever asks (a stranger's address typed in again and again floods nobody; its owner
# still gets one, and the link of any of them confirms everything asked for).
MOST_UNANSWERED = 3
UNANSWERED_PAUSE = datetime.timedelta(days=1)
FORGOTTEN_AFTER = datetime.timedelta(days=30)  # a follow never confirmed is dropped


class FollowRefused(Exception):
    """Why a follow was not added: the message says it."""


@dataclass(frozen=True)
class NotMailed:
    """No mail was sent for an ask, because of a limit: why, and when one can be asked for again."""

    why: str
    again_at: datetime.datetime


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


def ask_to_follow(email: str, target: Target) -> NotMailed | None:
    """``email`` asks to follow ``target``: the follow is added unconfirmed (or stays as it is),
    and the address is mailed the link that confirms it, unless nothing waits for confirmation
    (it follows ``target`` already), or a limit holds the mail back: a link mailed within
    LINK_INTERVAL (which confirms this one too), or MOST_UNANSWERED such mails left unanswered
    and the latest within UNANSWERED_PAUSE. Then what held it back, and until when."""
    email = email.strip().lower()
    now = timezone.now()
    with transaction.atomic():
        follower = follower_by_email(email, now)
        follows = follower.follows.order_by()
        if follows.filter(CONFIRMED).count() >= MOST_FOLLOWS:
            raise FollowRefused(f"An address follows {MOST_FOLLOWS} players, clubs or lists at most.")
        if follows.filter(confirmed_at=None).count() >= MOST_WAITING:
            raise FollowRefused("This address has too much waiting for its confirmation: confirm it first.")
        Follow.objects.get_or_create(
            follower=follower, kind=target.kind, **target.filter(), defaults={"created_at": now}
        )
        if not follows.filter(confirmed_at=None).exists():
            return None  # it follows ``target`` already: nothing to confirm
        unanswered = not follows.filter(CONFIRMED).exists()
        held = held_back(follower, now, unanswered)
        if held is None and not link_due(follower, now):  # the manage link mailed this instant
            held = sent_lately(now)
        if held is not None:
            return held
        if unanswered:
            Follower.objects.filter(pk=follower.pk).update(unanswered=F("unanswered") + 1)
    mail_link(follower, "confirm", counted=unanswered)
    return None


def held_back(follower: Follower, now, unanswered: bool) -> NotMailed | None:
    """Which limit, if any, holds back a confirmation mail to ``follower`` now."""
    latest = follower.link_sent_at
    if unanswered and follower.unanswered >= MOST_UNANSWERED and latest and latest > now - UNANSWERED_PAUSE:
        why = (
            f"this address has been sent {follower.unanswered} confirmation mails that nobody has answered yet: "
            "the link in the latest confirms this too"
        )
        return NotMailed(why, latest + UNANSWERED_PAUSE)
    if latest and latest > now - LINK_INTERVAL:
        return sent_lately(latest)
    return None


def sent_lately(latest) -> NotMailed:
    """Held back by LINK_INTERVAL, the latest mail of the address's link sent at ``latest``."""
    minutes = int(LINK_INTERVAL.total_seconds() // 60)
    why = f"a mail with this address's link went to it less than {minutes} minutes ago: its link confirms this too"
    return NotMailed(why, latest + LINK_INTERVAL)


def ask_for_link(email: str) -> None:
    """``email`` asks for the link to manage its alerts: mailed if the address has confirmed a
    follow (and no link was mailed within LINK_INTERVAL); nothing is said either way."""
    follower = Follower.objects.filter(email=email.strip().lower()).first()
    confirmed = follower is not None and follower.follows.filter(CONFIRMED).exists()
    if confirmed and link_due(follower, timezone.now()):
        mail_link(follower, "manage")


def mail_link(follower: Follower, what: str, counted=False) -> None:
    """Send the mail of the follower's link (alerts.tasks.send_link); if it cannot go now, the
    address may ask again at once (MailDelayed), and the mail is not counted as unanswered."""
    try:
        send("alerts.tasks.send_link", (follower.pk, what))
    except (Unreachable, OSError, smtplib.SMTPException, Retry) as error:
        undone = {"link_sent_at": None, **({"unanswered": F("unanswered") - 1} if counted else {})}
        Follower.objects.filter(pk=follower.pk).update(**undone)
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


def confirm(follower: Follower, follow_pks) -> int:
    """Confirm the follows the confirmation page showed (those asked for since are not: they
    wait for their own): the number confirmed."""
    confirmed = Follow.objects.filter(follower=follower, confirmed_at=None, pk__in=follow_pks)
    count = confirmed.update(confirmed_at=timezone.now())
    if count:
        Follower.objects.filter(pk=follower.pk).update(unanswered=0)
    return count


def stop_following(follower: Follower, follow_pk: int) -> Follow | None:
    """Remove one of the address's follows (None: it has no such follow)."""
    follow = Follow.objects.filter(follower=follower, pk=follow_pk).first()
    if follow is not None:
        follow.delete()
    return follow


def forget_unconfirmed(now=None) -> int:
    """Drop the follows never confirmed within FORGOTTEN_AFTER, and the addresses left with
    nothing (an address is kept only while it follows something): the follows dropped."""
    before = (now or timezone.now()) - FORGOTTEN_AFTER
    dropped, _ = Follow.objects.filter(confirmed_at=None, created_at__lt=before).delete()
    Follower.objects.filter(created_at__lt=before, follows=None).delete()
    return dropped


def unsubscribe(follower: Follower) -> int:
    """Stop every alert of the address (the one-click unsubscribe): the number of follows removed."""
    removed, _ = Follow.objects.filter(follower=follower).delete()
    return removed
