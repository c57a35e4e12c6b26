"""An arbiter's account made, by an approval or an invitation: its username, its group, no
password until its owner sets one from the link mailed (accounts/services/invitations.py)."""

import logging
import re

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from accounts.models import Invitation
from accounts.roles import ARBITERS
from chess.names import fold
from common.locking import lock_number
from grading.run.broker import Unreachable, send

logger = logging.getLogger(__name__)

# Accounts are made one at a time (an advisory lock): two made at once for one address, or with
# one username, would both pass the checks.
ACCOUNT_MAKING = 0x61636374 << 32


class AccountRefused(Exception):
    """Why an account was not made (or an application not decided): the message says it."""


def account_with(email: str):
    """The account that has ``email`` already (in any case), if any."""
    return get_user_model().objects.filter(email__iexact=email.strip()).order_by("pk").first()


def username_for(forenames: str, surname: str) -> str:
    """A free username from the name: ``jane.smith``, else ``jane.smith2``, ``jane.smith3`` ...
    (a name of no letters Django's usernames take gives ``arbiter``)."""
    first = fold(forenames).split(" ")[0] if forenames.strip() else ""
    base = ".".join(part for part in (first, fold(surname).replace(" ", "")) if part)
    base = re.sub(r"[^\w.-]", "", base)[:140].strip(".-") or "arbiter"
    taken = set(get_user_model().objects.filter(username__istartswith=base).values_list("username", flat=True))
    taken = {name.lower() for name in taken}
    candidate, number = base, 1
    while candidate.lower() in taken:
        number += 1
        candidate = f"{base}{number}"
    return candidate


def make_arbiter(email: str, forenames: str, surname: str, *, invited_by, application=None) -> Invitation:
    """An arbiter's account for ``email``, with no password, and its invitation, whose link is
    mailed once the transaction commits. Inside the caller's transaction; AccountRefused if an
    account has the address already."""
    lock_number(ACCOUNT_MAKING)
    if existing := account_with(email):
        state = "not yet set up" if not existing.has_usable_password() else "in use"
        raise AccountRefused(
            f"An account already has the address {email}: {existing.get_username()}, {state}."
            + (" Send its link again from the invitations instead." if state == "not yet set up" else "")
        )
    user = get_user_model()(
        username=username_for(forenames, surname),
        email=email.strip(),
        first_name=forenames.strip()[:150],
        last_name=surname.strip()[:150],
    )
    user.set_unusable_password()
    user.save()
    user.groups.add(Group.objects.get(name=ARBITERS))
    invitation = Invitation.objects.create(
        email=user.email,
        forenames=user.first_name,
        surname=user.last_name,
        user=user,
        application=application,
        invited_by=invited_by,
        invited_at=timezone.now(),
    )
    mail_invitation_on_commit(invitation)
    return invitation


def mail_invitation_on_commit(invitation: Invitation) -> None:
    """The invitation's link mailed once the transaction commits, on a worker. With the broker
    away it is not lost: the invitation shows it not yet mailed, and its link is sent again
    from the invitations list."""
    transaction.on_commit(lambda: send_quietly("accounts.tasks.mail_invitation", invitation.pk))


def send_quietly(task_name: str, *args) -> bool:
    """Send a task's message after a commit; False (said in the log) if the broker cannot be
    reached, or, with tasks run in process (no broker), if the task failed: what was committed
    stands either way."""
    try:
        send(task_name, args)
    except Unreachable as error:
        logger.warning("%s%r not sent: %s", task_name, args, error)
        return False
    except Exception:
        logger.exception("%s%r failed", task_name, args)
        return False
    return True
