"""A declined application's reason, mailed to its applicant (docs/accounts.md). It goes through
the role mails' delivery, so that it reaches the applicant once whatever the broker and the mail
server do; the applicant has no account, so there is nothing to turn off: it is the one mail
about the application."""

from django.urls import reverse

from accounts.models import Application
from common.outgoing_mail import site_url
from mails.delivery import Mail, Recipient
from mails.models import Kind


def mail_of_decline(application: Application) -> Mail:
    return Mail(
        Kind.DECLINED,
        str(application.pk),
        "Your application for an account",
        Kind.DECLINED,
        {"application": application, "apply_url": site_url(reverse("account-apply"))},
        [Recipient(application.email)],
    )


def declined_since(since):
    return Application.objects.filter(state=Application.State.DECLINED, decided_at__gte=since)
