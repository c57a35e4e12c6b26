"""An officer invites an arbiter by e-mail; the invitee sets up their account from the link
(accounts/links.py: once, within INVITATION_TIMEOUT), and the link can be sent again while the
account is not set up. An approved application is set up the same way."""

from django.db import transaction
from django.utils import timezone

from accounts.models import AccountChange, Invitation
from accounts.services.history import record
from accounts.services.making import AccountRefused, mail_invitation_on_commit, make_arbiter
from common.locking import lock_row


def do_invite_arbiter(email: str, forenames: str, surname: str, *, acting_user) -> Invitation:
    """Make an arbiter's account for ``email`` and mail it the link to set its password."""
    if not (acting_user and acting_user.has_perm("accounts.add_invitation")):
        raise AccountRefused("Only a rating officer invites an arbiter.")
    with transaction.atomic():
        invitation = make_arbiter(email, forenames, surname, invited_by=acting_user)
        record(invitation.user, AccountChange.What.INVITED, acting_user, at=invitation.invited_at)
    return invitation


def do_send_invitation_again(invitation: Invitation, *, acting_user) -> Invitation:
    """Mail the invitation's link again, lasting INVITATION_TIMEOUT from the new mail (the
    invitee lost the mail, or let it expire)."""
    if not (acting_user and acting_user.has_perm("accounts.add_invitation")):
        raise AccountRefused("Only a rating officer sends an invitation.")
    with transaction.atomic():
        invitation = lock_row(Invitation.objects.filter(pk=invitation.pk).select_related("user"))
        if invitation.accepted_at is not None:
            raise AccountRefused(
                f"{invitation.email} set up the account on {timezone.localtime(invitation.accepted_at):%d/%m/%Y}."
            )
        user = invitation.user
        if user is None or user.has_usable_password():
            raise AccountRefused(f"The account of {invitation.email} is gone, or has a password already.")
        invitation.sent_at = None
        invitation.save(update_fields=["sent_at"])
        record(user, AccountChange.What.LINK_SENT_AGAIN, acting_user)
        mail_invitation_on_commit(invitation)
    return invitation


def do_set_up_account(form, *, acting_user) -> Invitation | None:
    """The invitee sets their first password from the link (``form``: Django's SetPasswordForm,
    valid, of ``acting_user``'s account): their invitation accepted."""
    with transaction.atomic():
        user = form.save()
        now = timezone.now()
        invitation = Invitation.objects.filter(user=user, accepted_at=None).order_by("-invited_at").first()
        if invitation is not None:
            Invitation.objects.filter(user=user, accepted_at=None).update(accepted_at=now)
        record(user, AccountChange.What.SET_UP, acting_user, at=now)
    return invitation


def to_mail(invitation_pk: int) -> Invitation | None:
    """The invitation whose link is to be mailed, None if it is set up or its account gone."""
    invitation = Invitation.objects.filter(pk=invitation_pk).select_related("user", "application").first()
    if invitation is None or invitation.accepted_at is not None or invitation.user is None:
        return None
    return None if invitation.user.has_usable_password() else invitation


def sent(invitation: Invitation) -> None:
    """Its link mailed now: it lasts INVITATION_TIMEOUT from now."""
    Invitation.objects.filter(pk=invitation.pk).update(sent_at=timezone.now())
