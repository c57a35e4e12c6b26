"""Checking an uploaded event file: what it would store, and everything wrong with it.

Nothing here writes to the database: ``check_upload`` parses, validates, matches the players
and puts the event on a list, and the resulting Check is what the arbiter reads in the report
and what ``storing.do_store_upload`` stores when it has no errors.
"""

import contextlib
import datetime
import functools
import gc
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from chess import results
from chess.months import Month
from chess.time_controls import TimeControl
from events.formats import WARNING, ParsedEvent, Problem, parse_event_file
from events.formats.base import HasProblems
from events.formats.trf import UNREAD_TIME_CONTROL
from events.uploads.event_details import TAKEN_ON, check_event_details
from events.uploads.matching import Match, earlier_records, match_players, of_another_federation
from events.uploads.player_checks import (
    check_name_lengths,
    check_same_person_twice,
    hold_out_impossible_birth_dates,
    sum_up_new_players,
)

FORMAT_CODES = {"TRF16": "trf", "TRF-2026": "trf", "ECF": "ecf", "CSV": "csv"}


@dataclass
class EventDetails:
    """What the upload form (or the command line) adds to, or overrides in, the file."""

    code: str = ""
    name: str = ""
    start_date: datetime.date | None = None
    end_date: datetime.date | None = None
    time_control: str = ""
    online: bool = False
    kind: str = ""
    submission_index: int | None = None
    rating_list: Any = None  # staff only: one of the lists, overriding the time-control band


@dataclass
class Check(HasProblems):
    parsed: ParsedEvent
    details: EventDetails
    matches: dict[int, Match] = field(default_factory=dict)
    lists: Sequence = ()  # the federation's rating lists (see check_upload)
    rating_list: Any = None  # the one the event goes on
    time_control: TimeControl | None = None
    taken_on: str | None = None  # the list's latest month taken on from the previous system
    problems: list[Problem] = field(default_factory=list)

    @property
    def code(self):
        return (self.details.code or self.parsed.code).strip()

    @property
    def name(self):
        return (self.details.name or self.parsed.name).strip() or self.code

    @property
    def start_date(self):
        return self.parsed.start_date or self.details.start_date or self.game_dates[0]

    @property
    def end_date(self):
        return self.parsed.end_date or self.details.end_date or self.game_dates[1]

    @property
    def format(self):
        return FORMAT_CODES.get(self.parsed.format, "")

    @functools.cached_property
    def game_dates(self):
        """The first and last day a game is dated. Worked out once: every game's date and reason
        asks for the event's dates, and a file of 100,000 games must be checked in seconds."""
        dates = [game.date for game in self.parsed.games if game.date]
        return (min(dates), max(dates)) if dates else (None, None)

    def game_date(self, game):
        """A game's date; the event's last day when the file gives none (TRF without 132)."""
        return game.date or self.end_date

    def unrated_reason(self, game) -> str:
        """Why the game will not be rated (docs/rules.md section 2), or "" if it will be."""
        if reason := results.unrated_reason(game.result) or game.unrated_reason:
            return reason
        day = self.game_date(game)
        if self.taken_on and day and str(Month.of(day)) <= self.taken_on:
            return TAKEN_ON
        return ""

    def report(self) -> dict:
        """The validation report as stored with the upload and shown to the arbiter."""
        players = self.parsed.players
        unrated = [(game, reason) for game in self.parsed.games if (reason := self.unrated_reason(game))]
        return {
            "format": self.parsed.format,
            "encoding": self.parsed.encoding,
            "event": {
                "code": self.code,
                "name": self.name,
                "start_date": self.start_date.isoformat() if self.start_date else None,
                "end_date": self.end_date.isoformat() if self.end_date else None,
                "time_control": str(self.time_control) if self.time_control else self.details.time_control,
                "minutes": str(self.time_control.minutes_per_player()) if self.time_control else None,
                "list": self.rating_list.code if self.rating_list else None,
                "list_name": self.rating_list.name if self.rating_list else None,
                "kind": self.details.kind or self.parsed.kind,
                "rounds": self.parsed.scheduled_rounds,
            },
            "errors": [problem_dict(problem) for problem in self.errors],
            "warnings": [problem_dict(problem) for problem in self.warnings],
            "players": [player_dict(player, self.matches.get(player.pin)) for player in players],
            "games": {
                "total": len(self.parsed.games),
                "rated": len(self.parsed.games) - len(unrated),
                "unrated": [
                    {
                        "line": game.lines[0] if game.lines else None,
                        "round": game.round,
                        "board": game.board,
                        "white": game.white,
                        "black": game.black,
                        "result": game.result,
                        "reason": reason,
                    }
                    for game, reason in unrated
                ],
            },
        }


def problem_dict(problem):
    return {"line": problem.line, "column": problem.column, "message": problem.message}


def player_dict(parsed, match):
    record = match.player if match else None
    return {
        "pin": parsed.pin,
        "name": parsed.name,
        "code": parsed.federation_code or "",
        "federation": parsed.fide_federation.strip().upper(),
        "visitor": of_another_federation(parsed.fide_federation, parsed.federation_code),
        "birth_date": parsed.birth_date.isoformat() if parsed.birth_date else None,
        "match": match.how if match else "new",
        "player": {"code": record.code, "name": record.name} if record else None,
        "suggestions": [{"code": p.code, "name": p.name} for p in match.suggestions] if match else [],
        "warnings": match.warnings if match else [],
        "line": parsed.line,
    }


@contextlib.contextmanager
def cycle_collection_paused():
    """Parsing a large file makes hundreds of thousands of small objects and no reference
    cycles: the cycle collector would walk them again and again, half the time of a 5 MB file."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def check_upload(data: bytes, filename: str, details: EventDetails, lists: Sequence) -> Check:
    """Parse, validate and match an event file. ``lists`` are the federation's rating lists in
    the order they are offered (grading.selectors.history.lists_for_uploads: each with ``code``, ``name``,
    ``online``, ``holds(minutes)`` and ``taken_on``); the caller reads them, as this app is
    below the one that keeps them."""
    with cycle_collection_paused():
        return check_file(data, filename, details, lists)


def check_file(data, filename, details, lists):
    check = Check(parse_event_file(data, filename, settings.PLAYER_CODE_PATTERN), details, lists=lists)
    check.problems = list(check.parsed.problems)
    if not check.parsed.format:
        return check
    check_event_details(check)
    if check.time_control and not check.parsed.time_control:
        # The form gave what the file could not: the file's warning about it no longer applies.
        check.problems = [problem for problem in check.problems if problem.code != UNREAD_TIME_CONTROL]
    hold_out_impossible_birth_dates(check)
    check.matches = match_players(check.parsed.players, earlier_records(check.code))
    check_same_person_twice(check)
    check_name_lengths(check)
    sum_up_new_players(check)
    for parsed in check.parsed.players:
        for warning in check.matches[parsed.pin].warnings:
            check.problems.append(
                Problem(parsed.line, None, f"player {parsed.pin} ({parsed.name}): {warning}", WARNING)
            )
    check.problems.sort(key=lambda problem: (problem.line or 0, problem.column or 0))
    return check
