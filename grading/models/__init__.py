"""Grading's models, in one module each for the lists and their months, the ratings, the runs
(and the merges of players' records, which revise them), the live ratings and the integrity
watch's flags; every one of them is imported from here (``from grading.models import ...``),
where Django finds them."""

from grading.models.integrity import Flag, Scan, ThresholdChange
from grading.models.lists import (
    RULE_SET_CHOICES,
    JSONText,
    RatingList,
    RatingPeriod,
    RuleSetChange,
    month_validator,
    rating_text,
)
from grading.models.live import LiveEntry, LiveGameNotRated, LiveList, LiveRating, live_change
from grading.models.ratings import (
    LIST_ORDER,
    RANKED,
    RANKED_TYPE,
    ListEntry,
    ListLine,
    PlayerRating,
    RatingState,
)
from grading.models.runs import GameNotRated, PlayerMerge, RatingRun

__all__ = [
    "LIST_ORDER",
    "RANKED",
    "RANKED_TYPE",
    "RULE_SET_CHOICES",
    "Flag",
    "GameNotRated",
    "JSONText",
    "ListEntry",
    "ListLine",
    "LiveEntry",
    "LiveGameNotRated",
    "LiveList",
    "LiveRating",
    "PlayerMerge",
    "PlayerRating",
    "RatingList",
    "RatingPeriod",
    "RatingRun",
    "RatingState",
    "RuleSetChange",
    "Scan",
    "ThresholdChange",
    "live_change",
    "month_validator",
    "rating_text",
]
