"""What this app announces to the apps above it, which it does not import (docs/architecture.md)."""

from django.dispatch import Signal

# The public sent a report: sent inside the transaction that stored it, with ``report``; the role
# mails acknowledge it to its reporter with its reference, once it commits (mails/receivers.py).
report_sent = Signal()
