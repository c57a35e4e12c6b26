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
from django.utils import timezone

from chess import results
from chess.dates import written
from chess.months import Month
from chess.time_controls import TimeControl
from events.formats import WARNING, ParsedEvent, Problem, check_dates, parse_event_file
from events.formats.base import HasProblems
from events.formats.trf import UNREAD_TIME_CONTROL
from events.matching import Match, match_players, of_another_federation
from events.models import EVENT_CODE, Entry
from players.models import birth_date_problem

FORMAT_CODES = {"TRF16": "trf", "TRF-2026": "trf", "ECF": "ecf", "CSV": "csv"}
TAKEN_ON = "in a month taken on from the previous system"  # a game's reason for not being rated


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
        if reason := results.unrated_reason(game.result):
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
    check.matches = match_players(check.parsed.players)
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


def check_event_details(check):
    """The event as a whole, from the file and the form: its submission index, code, name and
    dates, its time control and the list it goes on."""
    check_submission_index(check)
    check_event_code(check)
    check_event_name(check)
    check_event_dates(check)
    check_round_dates(check)
    parsed, details = check.parsed, check.details
    check.time_control = parsed.time_control or (
        TimeControl.from_text(details.time_control) if details.time_control else None
    )
    online = details.online or bool(parsed.online)
    lists = check.lists
    check.rating_list = chosen(details.rating_list, lists) or classify(check.time_control, online, lists)
    check_when(check)
    if check.rating_list is None:
        check.problems.append(no_list_problem(check))


def check_submission_index(check):
    parsed, details = check.parsed, check.details
    if details.submission_index and parsed.submission_index and details.submission_index != parsed.submission_index:
        check.problems.append(
            Problem(
                None,
                None,
                f"the submission index {details.submission_index} given with the upload is used, "
                f"not the file's {parsed.submission_index}",
                WARNING,
            )
        )


def check_event_code(check):
    if not check.code:
        check.problems.append(Problem(None, None, "the file gives no event code: give one in the Event code field"))
    elif len(check.code) > 40:
        check.problems.append(Problem(None, None, f"the event code {check.code!r} is longer than 40 characters"))
    elif not EVENT_CODE.fullmatch(check.code):
        check.problems.append(
            Problem(
                None,
                None,
                f"the event code {check.code!r} may hold only letters and digits, and single - _ . / between them",
            )
        )


def check_event_name(check):
    if len(check.name) > 200:
        where = "the Event name field" if check.details.name.strip() else "the file's event name"
        check.problems.append(
            Problem(None, None, f"{where} is {len(check.name):,} characters long: an event name is at most 200")
        )


def check_event_dates(check):
    """The event has a first and a last day, in that order, from 1900 and at most a year apart;
    the games fall within days the form gave."""
    if not check.start_date or not check.end_date:
        check.problems.append(
            Problem(None, None, "the file gives no event dates: give them in the Start date and End date fields")
        )
    elif check.end_date < check.start_date:
        check.problems.append(
            Problem(
                None,
                None,
                f"the event ends ({written(check.end_date)}, {date_source(check, 'end')}) "
                f"before it starts ({written(check.start_date)}, "
                f"{date_source(check, 'start')})",
            )
        )
    elif check.start_date < EARLIEST_EVENT:
        check.problems.append(
            Problem(
                None,
                None,
                f"the event starts on {written(check.start_date)} "
                f"({date_source(check, 'start')}): before 1900, a mistyped year",
            )
        )
    elif (check.end_date - check.start_date).days > LONGEST_EVENT_DAYS:
        check.problems.append(
            Problem(
                None,
                None,
                f"the event runs from {written(check.start_date)} ({date_source(check, 'start')}) to "
                f"{written(check.end_date)} ({date_source(check, 'end')}): more than a year; upload each season or "
                "year as an event of its own",
            )
        )
    elif not (check.parsed.start_date and check.parsed.end_date):
        # The dates came from the form: the games must fall within them.
        check.problems += check_dates(check.parsed, check.start_date, check.end_date)


def check_round_dates(check):
    games = check.parsed.games
    if games and not any(game.date for game in games) and check.end_date:
        check.problems.append(
            Problem(
                None,
                None,
                f"the file gives no round dates: every game is dated {written(check.end_date)}, the event's last day",
                WARNING,
            )
        )


def no_list_problem(check):
    """Why the event goes on no list: a time control not understood, none, or one no list rates."""
    details = check.details
    if check.time_control is None and details.time_control and not check.parsed.time_control:
        return Problem(
            None,
            None,
            f"the time control {details.time_control[:100]!r} in the Time control field is not understood: "
            "write it as minutes and seconds a move, e.g. 90+30, 15+10 or 40/90, 30+30",
        )
    if check.time_control is None:
        return Problem(None, None, "the file gives no time control: give one in the Time control field, e.g. 90+30")
    minutes = check.time_control.minutes_per_player()
    return Problem(
        None,
        None,
        f"the time control {check.time_control} ({minutes:g} minutes for 60 moves) is not rated on any list",
    )


EARLIEST_EVENT = datetime.date(1900, 1, 1)
LONGEST_EVENT_DAYS = 366  # a league season runs under a year


def date_source(check, which):
    """Where the event's start or end date came from, for a message: "the file", "the Start
    date field", or "its games' dates"."""
    if getattr(check.parsed, f"{which}_date"):
        return "in the file"
    if getattr(check.details, f"{which}_date"):
        return f"the {which.capitalize()} date field"
    return "from its games' dates"


def check_when(check):
    """Results are of games played: none in the future, and none in a month the previous system
    rated (those months keep the ratings taken on from it)."""
    today = timezone.localdate()
    if check.end_date and check.end_date > today:
        check.problems.append(
            Problem(
                None,
                None,
                f"the event ends on {written(check.end_date)} "
                f"({date_source(check, 'end')}), after today: results are uploaded "
                "once the games are played",
            )
        )
    check.taken_on = check.rating_list.taken_on if check.rating_list else None
    early = [game for game in check.parsed.games if check.unrated_reason(game) == TAKEN_ON]
    if early:
        check.problems.append(
            Problem(
                early[0].lines[0] if early[0].lines else None,
                None,
                f"{len(early)} game(s) are dated in or before {check.taken_on}, which {check.rating_list.name} took on "
                "from the previous system's ratings: they will not be rated",
                WARNING,
            )
        )


def chosen(wanted, lists):
    """The list staff chose, as ``lists`` give it."""
    return next((rating_list for rating_list in lists if rating_list.pk == wanted.pk), None) if wanted else None


def classify(time_control, online, lists):
    """The list an event belongs to: the first, online or over the board, whose band holds the
    minutes each player has for 60 moves. An online event with no time control goes on the
    first online list."""
    lists = [rating_list for rating_list in lists if rating_list.online == online]
    if time_control is None:
        return lists[0] if online and lists else None
    minutes = time_control.minutes_per_player()
    return next((rating_list for rating_list in lists if rating_list.holds(minutes)), None)


def sum_up_new_players(check):
    """One warning for all the players on no federation record, not one each: the Players table
    lists them, and a congress of juniors would bury every other warning."""
    new = [parsed for parsed in check.parsed.players if check.matches[parsed.pin].player is None]
    if not new:
        return
    codes = [parsed.federation_code for parsed in new if parsed.federation_code]
    visitors = [parsed for parsed in new if of_another_federation(parsed.fide_federation, parsed.federation_code)]
    text = (
        f"{len(new)} player{'s are' if len(new) != 1 else ' is'} on no federation record and will be registered "
        "as new on approval (see Players)"
    )
    if visitors:
        federations = sorted({parsed.fide_federation.strip().upper() for parsed in visitors})
        text += (
            f"; {len(visitors)} of them {'are' if len(visitors) != 1 else 'is'} of other federations "
            f"({', '.join(federations[:10])}{', ...' if len(federations) > 10 else ''}): registered only if a "
            "rating officer says so"
        )
    if codes:
        text += (
            f"; the file gives {'these codes' if len(codes) > 1 else 'this code'}, not on record: "
            f"{', '.join(codes[:10])}{', ...' if len(codes) > 10 else ''}"
        )
    check.problems.append(Problem(None, None, text, WARNING))


def hold_out_impossible_birth_dates(check):
    """A birth date no player of the event can have is not stored (a typo, or a program's
    placeholder): kept, it would stop the rating of the whole list. A warning, not an error, so
    that one date does not refuse a congress; staff can add the right date to the record."""
    first_day = check.start_date or timezone.localdate()
    for parsed in check.parsed.players:
        if problem := birth_date_problem(parsed.birth_date, first_day, ", the event's first day"):
            check.problems.append(
                Problem(parsed.line, None, f"player {parsed.pin} ({parsed.name}): {problem}: it is not stored", WARNING)
            )
            parsed.birth_date = None


def check_name_lengths(check):
    surname, forenames = (Entry._meta.get_field(name).max_length for name in ("surname", "forenames"))
    for parsed in check.parsed.players:
        if len(parsed.surname) > surname or len(parsed.forenames) > forenames:
            check.problems.append(
                Problem(
                    parsed.line,
                    None,
                    f"player {parsed.pin}: a surname is kept to {surname} characters and forenames "
                    f"to {forenames}: this name is cut to fit",
                    WARNING,
                )
            )


def check_same_person_twice(check):
    """Two players of the file that are one person: the same federation record, or the same
    federation code or FIDE ID (on no record yet: they would become two records, or crash the
    approval)."""
    for label, key in (("federation code", "federation_code"), ("FIDE ID", "fide_id")):
        first = {}
        for parsed in check.parsed.players:
            value = getattr(parsed, key)
            if not value:
                continue
            if value in first and check.matches[parsed.pin].player is None:
                other = first[value]
                check.problems.append(
                    Problem(
                        parsed.line,
                        None,
                        f"players {other.pin} ({other.name}, line {other.line}) and {parsed.pin} "
                        f"({parsed.name}) have the same {label} {value}: one person cannot be two players",
                    )
                )
            first.setdefault(value, parsed)
    seen = {}
    for parsed in check.parsed.players:
        player = check.matches[parsed.pin].player
        if player is None:
            continue
        if player.pk in seen:
            check.problems.append(
                Problem(
                    parsed.line,
                    None,
                    f"players {seen[player.pk]} and {parsed.pin} are both the federation's "
                    f"{player.code} ({player.name})",
                )
            )
        seen.setdefault(player.pk, parsed.pin)
