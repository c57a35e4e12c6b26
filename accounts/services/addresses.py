"""An account's e-mail address changed by its owner: asked for on the account page (with the
password), confirmed from a link mailed to the new address, made only then; the old address is
told of the change."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.links import LinkRefused, address_fingerprint
from accounts.models import AccountChange
from accounts.services.history import record
from accounts.services.making import send_quietly
from common.cache import within_rate
from common.locking import lock_row

ASKS_A_DAY = 5


class AddressRefused(Exception):
    """Why an address was not changed: the message says it."""


def do_ask_for_email_change(user, new_email: str, *, acting_user):
    """Mail ``new_email`` the link that confirms it as ``user``'s address."""
    new_email = new_email.strip()
    if new_email.lower() == (user.email or "").lower():
        raise AddressRefused(f"{new_email} is your address already.")
    if not within_rate(f"email-change:{user.pk}", ASKS_A_DAY, 86400)[0]:
        raise AddressRefused(f"You have asked {ASKS_A_DAY} times today: follow the link of the latest mail.")
    with transaction.atomic():
        record(user, AccountChange.What.EMAIL_ASKED, acting_user, f"to {new_email}")
        transaction.on_commit(lambda: send_quietly("accounts.tasks.mail_email_confirmation", user.pk, new_email))


USED = "This link has been used, or a newer change was made since: your account page shows its address."


def confirming(payload: dict):
    """The account a confirmation link (accounts.links.email_change_of) changes, or LinkRefused."""
    user = get_user_model().objects.filter(pk=payload["user"], is_active=True).first()
    if user is None or address_fingerprint(user.email) != payload["was"]:
        raise LinkRefused(USED)
    return user


def do_change_email(payload: dict, *, acting_user):
    """Make the change a confirmation link asks for, and tell the old address (LinkRefused: the
    link was used, or another account has the address since)."""
    with transaction.atomic():
        user = lock_row(get_user_model().objects.filter(pk=confirming(payload).pk))
        if address_fingerprint(user.email) != payload["was"]:  # two clicks at once: one changes it
            raise LinkRefused(USED)
        new_email = payload["email"]
        if get_user_model().objects.filter(email__iexact=new_email).exclude(pk=user.pk).exists():
            raise LinkRefused(f"Another account has the address {new_email}: one address, one account.")
        old_email = user.email
        user.email = new_email
        user.save(update_fields=["email"])
        record(
            user, AccountChange.What.EMAIL_CHANGED, acting_user, f"from {old_email} to {new_email}", at=timezone.now()
        )
        if old_email:
            transaction.on_commit(lambda: send_quietly("accounts.tasks.mail_email_changed", user.pk, old_email))
    return user
