"""Arbiters' API tokens: made, found by the secret a program sends, and revoked.

A token is 32 random bytes: kept only as its SHA-256 digest, which is enough for a secret of that
strength (no password hashing's slowness is needed against guessing). Its first characters are
kept too, so that its owner can tell their tokens apart.
"""

import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from common.locking import lock_row, lock_rows
from events.models import ApiToken

PREFIX = "fr_"  # a federation ratings token: what a secret scanner can look for
MOST_ACTIVE = 20


class TokenRefused(Exception):
    """Why a token was not made or revoked."""


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def do_create_token(name: str, *, acting_user) -> tuple[ApiToken, str]:
    """A new token of ``acting_user``'s own named ``name``, and its secret: the only time it is seen."""
    user = acting_user
    name = name.strip()
    if not name:
        raise TokenRefused("Name the token: what it is for, e.g. the program it is given to.")
    with transaction.atomic():
        lock_rows(get_user_model().objects.filter(pk=user.pk))  # two forms at once make one token each, not 21
        if ApiToken.objects.filter(user=user, revoked_at=None).count() >= MOST_ACTIVE:
            raise TokenRefused(f"You have {MOST_ACTIVE} tokens in use: revoke one you no longer need first.")
        secret = PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user, name=name[:100], digest=digest_of(secret), prefix=secret[:10], created_at=timezone.now()
        )
    return token, secret


def do_revoke_token(token: ApiToken, *, acting_user) -> ApiToken:
    """Revoke ``token`` (its owner, or an officer): it is kept, with who revoked it and when."""
    with transaction.atomic():
        token = lock_row(ApiToken.objects.filter(pk=token.pk))
        if token.revoked_at is None:
            token.revoked_at, token.revoked_by = timezone.now(), acting_user
            token.save(update_fields=["revoked_at", "revoked_by"])
    return token


class TokenNotInUse(Exception):
    """Why a secret sent is no token in use: unknown, or revoked (said so, with when)."""


def token_of(secret: str) -> ApiToken:
    """The token in use whose secret is ``secret``, its last use recorded now; ``TokenNotInUse``
    for a secret unknown, of a user no longer active (said as an unknown one), or revoked."""
    token = None
    if secret.startswith(PREFIX) and len(secret) <= 100:
        token = ApiToken.objects.select_related("user").filter(digest=digest_of(secret)).first()
    if token is None or not token.user.is_active:
        raise TokenNotInUse(
            "Send an arbiter's API token: Authorization: Bearer fr_... (made on My events → API tokens)."
        )
    if token.revoked_at is not None:
        raise TokenNotInUse(
            f"This token ({token.name!r}) was revoked on {timezone.localdate(token.revoked_at):%Y-%m-%d}: "
            "make a new one on My events → API tokens."
        )
    token.last_used_at = timezone.now()
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=token.last_used_at)
    return token
