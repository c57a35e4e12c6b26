"""What the apps that send mail share: the site's address for a mail's links (a worker writes
them, with no request to ask), and the judgement of a mail server's refusal."""

import smtplib

from django.conf import settings
from django.core.mail import BadHeaderError


def site_url(path: str) -> str:
    """An absolute address of the site: SITE_URL and ``path``."""
    return settings.SITE_URL.rstrip("/") + path


def refused_for_good(error) -> bool:
    """Whether a mail was refused for good (a 5xx, or a header no mail may have) rather than for
    now (a 4xx: try again later). ``error`` is one of REFUSALS."""
    if isinstance(error, BadHeaderError):
        return True
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    return error.smtp_code >= 500


# What a mail server (or Django, of a header) answers of one mail it will not take.
REFUSALS = (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError, BadHeaderError)
