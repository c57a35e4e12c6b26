"""The checks of an uploaded event as a whole, from the file and the upload form: its submission
index, code, name and dates, its rounds' dates, its time control and the list it goes on."""

import datetime

from django.utils import timezone

from chess.dates import written
from chess.time_controls import TimeControl
from events.formats import WARNING, Problem, check_dates
from events.models import EVENT_CODE

TAKEN_ON = "in a month taken on from the previous system"  # a game's reason for not being rated


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
