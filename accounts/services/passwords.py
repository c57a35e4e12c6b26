"""Passwords: a reset by e-mail asked for, its links mailed; a password set from a reset link or
changed on the account page, each recorded in the account's history.

Asking for a reset does the same work whatever the address: it sends one task's message with
the address, and the worker looks for accounts that have it and mails each its link (Django's
reset token: docs/accounts.md). So neither the answer nor the time it takes tells anyone
whether an account has the address.
"""

import logging

from django.contrib.auth.forms import PasswordResetForm
from django.db import transaction

from accounts.models import AccountChange
from accounts.services.history import record
from common.cache import within_rate
from grading.run.broker import Unreachable, send

logger = logging.getLogger(__name__)

# Reset mails to one address in an hour, at most, however often it is asked for: the link of
# the latest works (each new one does not kill the one before).
RESET_MAILS_AN_HOUR = 3


def ask_for_password_reset(email: str) -> None:
    """Send the task that mails ``email``'s accounts their reset links (Unreachable: the broker
    cannot be reached, whatever the address). Run in process (no broker), a failure of the task
    itself (the mail server away) is logged and the asker answered as always: saying it would
    tell that an account has the address."""
    try:
        send("accounts.tasks.mail_password_reset", (email.strip(),))
    except Unreachable:
        raise
    except Exception:
        logger.exception("the password reset task failed in process")


def accounts_to_reset(email: str) -> list:
    """The accounts a reset link goes to: active, with a password, with this address (in any
    case), as Django's PasswordResetForm finds them; none past RESET_MAILS_AN_HOUR."""
    users = list(PasswordResetForm().get_users(email))
    if users and not within_rate(f"password-reset:{email.strip().lower()}", RESET_MAILS_AN_HOUR, 3600)[0]:
        return []
    return users


def do_reset_password(form, *, acting_user):
    """Set the password a reset link's form (Django's SetPasswordForm, valid) gives."""
    with transaction.atomic():
        user = form.save()
        record(user, AccountChange.What.PASSWORD_RESET, acting_user)
    return user


def do_change_password(form, *, acting_user):
    """Set the password the account page's form (Django's PasswordChangeForm, valid) gives."""
    with transaction.atomic():
        user = form.save()
        record(user, AccountChange.What.PASSWORD_CHANGED, acting_user)
    return user
