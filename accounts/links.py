"""The links an account's mails carry: each opens one thing, for one account, once, for a while.

- A password reset: Django's own token (PasswordResetTokenGenerator), which hashes the account's
  password and last login, so that setting a password kills it; PASSWORD_RESET_TIMEOUT.
- An invitation's set-up link: the same token with a salt of its own (a reset link never sets
  up an account, nor the reverse) and INVITATION_TIMEOUT.
- A new e-mail address confirmed: the account, the new address and a fingerprint of the address
  it has now, signed: once the change is made the fingerprint no longer matches, so the link
  works once; PASSWORD_RESET_TIMEOUT.
"""

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, urlsafe_base64_encode

from common.outgoing_mail import site_url

EMAIL_CHANGE_SALT = "accounts.links.email-change"


class InvitationTokenGenerator(PasswordResetTokenGenerator):
    """Django's reset tokens, salted apart, lasting INVITATION_TIMEOUT rather than
    PASSWORD_RESET_TIMEOUT (which Django's check_token reads)."""

    key_salt = "accounts.links.InvitationTokenGenerator"

    def check_token(self, user, token):
        if not (user and token):
            return False
        try:
            timestamp = base36_to_int(token.split("-")[0])
        except ValueError:
            return False
        if self._num_seconds(self._now()) - timestamp > settings.INVITATION_TIMEOUT:
            return False
        return any(
            constant_time_compare(self._make_token_with_timestamp(user, timestamp, secret), token)
            for secret in [self.secret, *self.secret_fallbacks]
        )


invitation_tokens = InvitationTokenGenerator()


def uid(user) -> str:
    return urlsafe_base64_encode(force_bytes(user.pk))


def reset_url(user, tokens=default_token_generator) -> str:
    return site_url(reverse("password_reset_confirm", args=[uid(user), tokens.make_token(user)]))


def set_up_url(user, tokens=invitation_tokens) -> str:
    return site_url(reverse("account-set-up", args=[uid(user), tokens.make_token(user)]))


def address_fingerprint(email: str) -> str:
    return salted_hmac("accounts.links.address", email.strip().lower(), algorithm="sha256").hexdigest()[:20]


def email_change_token(user, new_email: str) -> str:
    payload = {"user": user.pk, "email": new_email, "was": address_fingerprint(user.email)}
    return signing.dumps(payload, salt=EMAIL_CHANGE_SALT, compress=True)


def email_change_url(user, new_email: str) -> str:
    return site_url(reverse("account-email-confirm", args=[email_change_token(user, new_email)]))


class LinkRefused(Exception):
    """Why a link opens nothing: the message says it."""


def email_change_of(token: str) -> dict:
    """What a confirmation link asks (``user``, ``email``, ``was``), or LinkRefused."""
    try:
        payload = signing.loads(token[:1000], salt=EMAIL_CHANGE_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.SignatureExpired:
        raise LinkRefused("This link has expired: ask for the change again on your account page.") from None
    except signing.BadSignature:
        raise LinkRefused("This link is not one of ours, or it was cut short: open it from the mail again.") from None
    if not isinstance(payload, dict) or set(payload) != {"user", "email", "was"}:
        raise LinkRefused("This link is not one of ours, or it was cut short: open it from the mail again.")
    return payload
