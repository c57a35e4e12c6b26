"""Parsers for the event files arbiters upload: FIDE TRF, the ECF results file, our CSV.

Pure Python, no Django: ``parse_event_file(data, filename)`` returns a ParsedEvent whose
``problems`` say, line by line, what is wrong; the Django side matches the players against the
federation's database and stores the event.
"""

from events.formats.base import (
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
from events.formats.csvgames import COLUMNS as CSV_COLUMNS
from events.formats.csvgames import parse_csv
from events.formats.detect import detect_format, parse_event_file
from events.formats.ecf import parse_ecf
from events.formats.trf import parse_trf

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
