"""Small integer codes used in the columnar arrays; 0 always means "none"."""

from __future__ import annotations

# State types (prior states and new ratings); PENDING (Elo): games towards a first rating.
NO_STATE, PARTIAL, FULL, PENDING = 0, 1, 2, 3
TYPE_NAMES = (None, "partial", "full", "pending")
TYPE_CODES = {"partial": PARTIAL, "full": FULL}
ELO_TYPE_CODES = {"full": FULL, "pending": PENDING}
STATE_TYPE_CODES = {**TYPE_CODES, **ELO_TYPE_CODES}  # any list's states, whichever method wrote them

# Player categories, docs/rules.md sections 3 and 9 (NOT_RATED: no rated game in the period).
NOT_RATED, FULLY_RATED, PARTIALLY_RATED, NEW, RATED, UNRATED = 0, 1, 2, 3, 4, 5
CATEGORY_NAMES = (None, "full", "partial", "new", "rated", "unrated")

# Rating methods: the ECF's P and K ratings; Elo's rating change and first rating.
NO_METHOD, METHOD_P, METHOD_K, METHOD_ELO, METHOD_FIRST = 0, 1, 2, 3, 4
METHOD_NAMES = (None, "P", "K", "elo", "first")

# What set an Elo K factor (docs/rules.md section 11).
K_NONE, K_NEW_PLAYER, K_JUNIOR, K_TOP, K_BASE, K_FLAT = 0, 1, 2, 3, 4, 5
K_RULE_NAMES = (None, "new-player", "junior", "top", "base", "flat")

# How a first rating was found (docs/rules.md section 12).
# FIRST_DRAWS: FIDE's 2024 rules, with two imaginary drawn games (section 17.3).
FIRST_NONE, FIRST_EVEN, FIRST_ABOVE, FIRST_BELOW, FIRST_DRAWS = 0, 1, 2, 3, 4
FIRST_BRANCH_NAMES = (None, "even", "above", "below", "draws")

# A rating used given with a game: USED_AT_START, the opponent's rating at the start of the
# period; UNRATED_USED, the opponent was unrated when the event began.
USED_AT_START, UNRATED_USED = -2, -1

# Game results, as white's score in half points.
RESULT_WHITE_HALVES = {"1-0": 2, "1/2-1/2": 1, "0-1": 0}
