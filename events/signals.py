"""What this app announces to the one above it, which it does not import (docs/architecture.md)."""

from django.dispatch import Signal

# The rated games of an event have changed: it was approved, sent back after it was approved or
# rated, the players of its games were registered, or its length was approved (or the approval
# withdrawn) while it was approved or rated. Sent inside the transaction that changed
# them, with ``event`` and ``user``: grading revises the months already published that they
# change, and computes the live ratings again.
rated_games_changed = Signal()

# An event's results were stored from a file (a new event, or a replacement): sent inside the
# transaction that stored them, with ``event`` and ``user``; grading scans the event for results
# that look manipulated (the integrity watch), for rating officers to read.
results_stored = Signal()

# Steps of events' workflows were recorded (EventChange rows: submitted, approved, sent back,
# held, rated, ...): sent inside the transaction that recorded them, with ``changes``; the role
# mails tell each event's arbiter of the steps they expect (mails/receivers.py).
steps_recorded = Signal()
