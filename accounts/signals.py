"""What this app announces to the one above it, which it does not import (docs/architecture.md)."""

from django.dispatch import Signal

# A rating officer declined an application for an account: sent inside the transaction that
# recorded it, with ``application``; the role mails mail the reason to the applicant, once,
# however the broker and the mail server behave (mails/applicants.py).
application_declined = Signal()
