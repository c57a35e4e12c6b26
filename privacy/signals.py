"""What this app announces to the apps above it, which it does not import (docs/architecture.md):
they hold personal data of an address too (the role mails' deliveries, the applications for an
account), and answer for it."""

from django.dispatch import Signal

# A player's data is being exported, with ``addresses`` (their own, checked, in lower case): each
# receiver returns {section: rows} of what it holds of those addresses, for the export's file.
gathering_personal_data = Signal()

# A player's data is being erased, inside the erasure's transaction, with ``addresses``: each
# receiver removes what it holds of them and returns {what: how many}, for the player's history.
erasing_personal_data = Signal()


def answers(signal: Signal, **kwargs) -> dict:
    """The receivers' answers to ``signal`` as one dict."""
    merged = {}
    for _receiver, answer in signal.send(sender=None, **kwargs):
        merged.update(answer or {})
    return merged
