"""Parsers for the event files arbiters upload: FIDE TRF, the ECF results file, our CSV.

Pure Python, no Django: ``parse_event_file(data, filename)`` returns a ParsedEvent whose
``problems`` say, line by line, what is wrong; the Django side matches the players against the
federation's database and stores the event.
"""

from .base import (
    ERROR,
    OTHER,
    ROUND_ROBIN,
    SWISS,
    TEAM_MATCH,
    WARNING,
    ParsedEvent,
    ParsedGame,
    ParsedPlayer,
    Problem,
    check_dates,
)
from .csvgames import COLUMNS as CSV_COLUMNS
from .csvgames import parse_csv
from .detect import detect_format, parse_event_file
from .ecf import parse_ecf
from .trf import parse_trf

__all__ = [
    "CSV_COLUMNS",
    "ERROR",
    "OTHER",
    "ROUND_ROBIN",
    "SWISS",
    "TEAM_MATCH",
    "WARNING",
    "ParsedEvent",
    "ParsedGame",
    "ParsedPlayer",
    "Problem",
    "check_dates",
    "detect_format",
    "parse_csv",
    "parse_ecf",
    "parse_event_file",
    "parse_trf",
]
