"""What grading announces to the apps above it, which it does not import (docs/architecture.md)."""

from django.dispatch import Signal

# A rating run has published (its own month, or months it revised on the way): sent once, after
# its commit, with ``run`` and ``months`` (those it published). The e-mail alerts mail the
# followers of its list, and of the players and clubs in it.
run_published = Signal()
