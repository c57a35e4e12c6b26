"""The acknowledgement of an error report, mailed to its reporter with its reference
(docs/mails.md). Whoever typed the address may not own it: the mail says only what our records
say (the reference, the kind, what it is about), never the words sent, so that the form cannot
carry anyone's text to anyone's inbox; the corrections page's limits (five reports a day naming
one address) keep how many it sends. A reporter with an account (the address of an active user)
may turn acknowledgements off; one without has nothing to turn off, and the mail says so."""

from django.contrib.auth import get_user_model

from corrections.models import Report
from mails.choices import wants
from mails.delivery import Mail, Recipient
from mails.models import Kind


def mail_of_report(report: Report) -> Mail:
    users = list(get_user_model().objects.filter(email__iexact=report.email, is_active=True).order_by("pk"))
    wanting = [user for user in users if wants(user, Kind.ACKNOWLEDGED)]
    recipients = [] if users and not wanting else [Recipient(report.email, wanting[0] if wanting else None)]
    return Mail(
        Kind.ACKNOWLEDGED,
        str(report.pk),
        f"Your report {report.reference} is received",
        Kind.ACKNOWLEDGED,
        {"report": report},
        recipients,
    )


def reports_since(since):
    return Report.objects.filter(created_at__gte=since).select_related("player", "event")
