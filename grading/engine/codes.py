"""Small integer codes used in the columnar arrays; 0 always means "none"."""

from __future__ import annotations

# State types (prior states and new ratings).
NO_STATE, PARTIAL, FULL = 0, 1, 2
TYPE_NAMES = (None, "partial", "full")
TYPE_CODES = {"partial": PARTIAL, "full": FULL}

# Player categories, docs/rules.md section 3 (NOT_RATED: no rated game in the period).
NOT_RATED, FULLY_RATED, PARTIALLY_RATED, NEW = 0, 1, 2, 3
CATEGORY_NAMES = (None, "full", "partial", "new")

# Rating methods.
NO_METHOD, METHOD_P, METHOD_K = 0, 1, 2
METHOD_NAMES = (None, "P", "K")

# Game results, as white's score in half points.
RESULT_WHITE_HALVES = {"1-0": 2, "1/2-1/2": 1, "0-1": 0}
