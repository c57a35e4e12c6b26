"""An account's history: each step written by the action that takes it, in its transaction."""

from django.utils import timezone

from accounts.models import AccountChange


def record(user, what: str, by, note: str = "", at=None) -> AccountChange:
    return AccountChange.objects.create(
        user=user, username=user.get_username(), what=what, by=by, at=at or timezone.now(), note=note
    )
