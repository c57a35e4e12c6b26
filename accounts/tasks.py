"""The accounts' Celery tasks: each mails one address, and is retried three times on a connection
error (the mail server away), backing off from half a minute; a message the broker lost is not
sent again by anyone: its asker asks again (a reset, an e-mail change) or an officer sends the
invitation's link again from the invitations list, which shows it not yet mailed.

- mail_password_reset: the address's accounts (active, with a password) mailed their reset
  links; the lookup is here, on the worker, so that the page that asked did the same work for
  any address.
- mail_invitation: an invitation's (or an approval's) set-up link; its mail recorded as sent.
- mail_email_confirmation, mail_email_changed: the new address's link; the old address told.
"""

from celery import shared_task
from django.contrib.auth import get_user_model

from accounts import letters
from accounts.services.invitations import sent, to_mail
from accounts.services.passwords import accounts_to_reset

RETRIED = {"ignore_result": True, "autoretry_for": (OSError,), "retry_backoff": 30, "max_retries": 3}


@shared_task(name="accounts.tasks.mail_password_reset", **RETRIED)
def mail_password_reset(email: str):
    for user in accounts_to_reset(email):
        letters.password_reset(user).send()


@shared_task(name="accounts.tasks.mail_invitation", **RETRIED)
def mail_invitation(invitation_pk: int):
    invitation = to_mail(invitation_pk)
    if invitation is not None:
        letters.invitation(invitation).send()
        sent(invitation)


@shared_task(name="accounts.tasks.mail_email_confirmation", **RETRIED)
def mail_email_confirmation(user_pk: int, new_email: str):
    user = get_user_model().objects.filter(pk=user_pk, is_active=True).first()
    if user is not None:
        letters.email_confirmation(user, new_email).send()


@shared_task(name="accounts.tasks.mail_email_changed", **RETRIED)
def mail_email_changed(user_pk: int, old_email: str):
    user = get_user_model().objects.filter(pk=user_pk).first()
    if user is not None:
        letters.email_changed(user, old_email).send()
