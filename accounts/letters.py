"""The accounts' mails, each in plain text and HTML (templates/accounts/mail/), each to one
address: a password reset's link, an invitation's set-up link, a new address's confirmation, and
the old address told of the change. A declined application's reason is a role mail (mails/)."""

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from accounts import links
from common.outgoing_mail import site_url


def letter(name: str, subject: str, to: str, context: dict) -> EmailMultiAlternatives:
    context = {**context, "login_url": site_url(reverse("login")), "hours": settings.PASSWORD_RESET_TIMEOUT // 3600}
    message = EmailMultiAlternatives(
        subject,
        render_to_string(f"accounts/mail/{name}.txt", context),
        settings.DEFAULT_FROM_EMAIL,
        [to],
        headers={"Auto-Submitted": "auto-generated"},
    )
    message.attach_alternative(render_to_string(f"accounts/mail/{name}.html", context), "text/html")
    return message


def password_reset(user) -> EmailMultiAlternatives:
    context = {"user": user, "link": links.reset_url(user), "reset_again": site_url(reverse("password_reset"))}
    return letter("password_reset", "Reset your password", user.email, context)


def invitation(invitation) -> EmailMultiAlternatives:
    context = {
        "invitation": invitation,
        "user": invitation.user,
        "link": links.set_up_url(invitation.user),
        "days": settings.INVITATION_TIMEOUT // 86400,
    }
    subject = "Your arbiter's account is approved" if invitation.application_id else "You are invited to upload results"
    return letter("invitation", subject, invitation.email, context)


def email_confirmation(user, new_email: str) -> EmailMultiAlternatives:
    context = {"user": user, "new_email": new_email, "link": links.email_change_url(user, new_email)}
    return letter("email_confirmation", "Confirm your new e-mail address", new_email, context)


def email_changed(user, old_email: str) -> EmailMultiAlternatives:
    context = {"user": user, "new_email": masked(user.email)}
    return letter("email_changed", "Your account's e-mail address was changed", old_email, context)


def masked(email: str) -> str:
    """An address as the one it replaced is told it: enough for its owner to know it, no more
    for anyone else who reads the old mailbox (``j***@example.org``)."""
    local, _, domain = email.partition("@")
    return f"{local[:1]}***@{domain}"
