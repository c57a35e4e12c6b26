"""An arbiter's application for an account (docs/accounts.md): made on the public form, approved
or declined by a rating officer. Approval makes the account, in the Arbiters group with no
password, and mails its link to set one (the invitation's); a decline is announced, and the role
mails mail the reason (mails/applicants.py)."""

from django.db import transaction
from django.utils import timezone

from accounts.models import AccountChange, Application
from accounts.services.history import record
from accounts.services.making import AccountRefused, make_arbiter
from accounts.signals import application_declined
from common.locking import lock_row

MOST_REASON = 2000


def do_apply_for_account(
    forenames: str, surname: str, email: str, licence: str, *, fide_id=None, player=None, player_code="", acting_user
) -> Application | None:
    """Store an application, checked by its form (accounts/pages/forms.py); None if the address
    has one waiting already (the applicant is told the same either way, and nothing is mailed
    until an officer decides). ``acting_user`` is None: the public applies."""
    email = email.strip()
    with transaction.atomic():
        if Application.objects.filter(email__iexact=email, state=Application.State.WAITING).exists():
            return None
        return Application.objects.create(
            forenames=forenames.strip(),
            surname=surname.strip(),
            email=email,
            fide_id=fide_id,
            player=player,
            player_code=player_code,
            licence=licence.strip(),
            created_at=timezone.now(),
        )


def waiting(application: Application, acting_user) -> Application:
    """The application locked, if it waits for a decision and ``acting_user`` may make it."""
    if not (acting_user and acting_user.has_perm("accounts.decide_application")):
        raise AccountRefused("Only a rating officer approves or declines an application.")
    application = lock_row(Application.objects.filter(pk=application.pk))
    if application.state != Application.State.WAITING:
        decided = f" on {timezone.localtime(application.decided_at):%d/%m/%Y}" if application.decided_at else ""
        raise AccountRefused(f"It was {application.get_state_display()}{decided} already.")
    return application


def do_approve_application(application: Application, *, acting_user) -> Application:
    """Approve ``application``: its account is made (an arbiter, no password yet) and the link
    to set a password is mailed to it (AccountRefused if an account has its address)."""
    with transaction.atomic():
        application = waiting(application, acting_user)
        invitation = make_arbiter(
            application.email,
            application.forenames,
            application.surname,
            invited_by=acting_user,
            application=application,
        )
        now = timezone.now()
        application.state, application.decided_by, application.decided_at = Application.State.APPROVED, acting_user, now
        application.user = invitation.user
        application.save(update_fields=["state", "decided_by", "decided_at", "user"])
        record(
            invitation.user,
            AccountChange.What.APPROVED,
            acting_user,
            f"application of {application.created_at:%Y-%m-%d}",
            at=now,
        )
    return application


def do_decline_application(application: Application, reason: str, *, acting_user) -> Application:
    """Decline ``application``, saying why: the reason is mailed to the applicant."""
    reason = reason.strip()
    if not reason:
        raise AccountRefused("Say why: the reason is mailed to the applicant.")
    if len(reason) > MOST_REASON:
        raise AccountRefused(f"The reason is {len(reason)} characters: {MOST_REASON} at most.")
    with transaction.atomic():
        application = waiting(application, acting_user)
        application.state, application.decided_by = Application.State.DECLINED, acting_user
        application.decided_at, application.decline_reason = timezone.now(), reason
        application.save(update_fields=["state", "decided_by", "decided_at", "decline_reason"])
        application_declined.send(sender=Application, application=application)
    return application
