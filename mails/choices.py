"""Who may receive which kind of role mail, and what each user chose (their page,
/accounts/mails/): every kind is on until its recipient turns it off."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.roles import RATING_OFFICERS
from common.locking import lock_row
from events.approval import APPROVE_PERMISSION
from mails.models import Kind, MailChoice, MailChoiceChange

DESCRIPTIONS = {
    Kind.APPROVED: "When a rating officer approves one of your events for rating.",
    Kind.SENT_BACK: "When a rating officer sends one of your events back to you, with their reason.",
    Kind.RATED: "When one of your events is first rated: the list and month it is published in.",
    Kind.HELD: "When one of your events is held for review (the mail says only that it awaits review).",
    Kind.DIGEST: "Once a day, what waits for the rating officers: events submitted, error reports open, "
    "accounts to approve, integrity flags open. No mail when nothing waits.",
    Kind.ACKNOWLEDGED: "When you report an error from this address: its reference.",
}
ARBITERS_KINDS = [Kind.APPROVED, Kind.SENT_BACK, Kind.RATED, Kind.HELD]
# The kinds a user may turn off: all but a declined application's reason, whose applicant has no
# account.
CHOSEN_KINDS = [kind for kind in Kind.values if kind != Kind.DECLINED]
APPROVE = tuple(APPROVE_PERMISSION.split("."))  # (app label, codename)


def officers():
    """The active users with an address who get the officers' digest: the Rating officers, and
    the staff who may approve events (administrators included)."""
    approve = Permission.objects.filter(content_type__app_label=APPROVE[0], codename=APPROVE[1])
    may_approve = Q(is_superuser=True) | Q(user_permissions__in=approve) | Q(groups__permissions__in=approve)
    users = get_user_model().objects.filter(is_active=True).exclude(email="")
    return users.filter(Q(groups__name=RATING_OFFICERS) | Q(is_staff=True) & may_approve).distinct().order_by("pk")


def is_officer(user) -> bool:
    return user.is_active and (
        user.groups.filter(name=RATING_OFFICERS).exists() or (user.is_staff and user.has_perm(".".join(APPROVE)))
    )


def is_arbiter(user) -> bool:
    return user.has_perm("events.submit_results") or user.arbitrated_events.exists()


def offered_kinds(user) -> list[str]:
    """The kinds ``user`` may receive, in the order their page lists them: an arbiter's, an
    officer's, and the acknowledgement of an error report (anyone may send one)."""
    kinds = list(ARBITERS_KINDS) if is_arbiter(user) else []
    if is_officer(user):
        kinds.append(Kind.DIGEST)
    return [*kinds, Kind.ACKNOWLEDGED]


def choices_of(user) -> dict[str, bool]:
    """{kind: on} of every kind, those never chosen on."""
    chosen = dict(MailChoice.objects.filter(user=user).values_list("kind", "on"))
    return {kind: chosen.get(kind, True) for kind in CHOSEN_KINDS}


def wants(user, kind: str) -> bool:
    return MailChoice.objects.filter(user=user, kind=kind, on=False).first() is None


def do_set_mail_choices(user, chosen: dict[str, bool], *, acting_user) -> list[str]:
    """Turn each kind of ``chosen`` on or off for ``user``; each change recorded (who, when).
    Returns the kinds changed."""
    unknown = set(chosen) - set(CHOSEN_KINDS)
    if unknown:
        raise ValueError(f"no such kind of mail: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        lock_row(get_user_model().objects.filter(pk=user.pk))  # two pages saved at once: one after the other
        now = timezone.now()
        before = {choice.kind: choice for choice in MailChoice.objects.filter(user=user)}
        changed = [kind for kind, on in chosen.items() if (before[kind].on if kind in before else True) != on]
        for kind in changed:
            MailChoice.objects.update_or_create(user=user, kind=kind, defaults={"on": chosen[kind], "changed_at": now})
        MailChoiceChange.objects.bulk_create(
            MailChoiceChange(user=user, kind=kind, on=chosen[kind], by=acting_user, at=now) for kind in changed
        )
    return changed
