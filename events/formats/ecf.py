"""The ECF results submission file (formats.md section 2).

The file is a stream of ``#NAME=value`` fields (``#NAME`` alone marks a part): spaces inside a
name do not count, line breaks between fields do not count, and a value runs to the next ``#``.
"""

from chess import results
from chess.dates import read_dmy
from chess.federations import FIDE_ID_DIGITS, fide_id
from chess.names import split_name
from chess.time_controls import ECF_TIME_CONTROL_FIELDS, TimeControl
from chess.titles import normalise_title
from events.formats.base import (
    CODE_PATTERN,
    MOST_BOARDS,
    MOST_PINS,
    MOST_ROUNDS,
    MOST_SUBMISSIONS,
    OTHER,
    ROUND_ROBIN,
    SWISS,
    TEAM_MATCH,
    CodeShape,
    ParsedEvent,
    ParsedGame,
    ParsedPlayer,
    check_dates,
    check_games,
    guess_kind,
    normalise_code,
    whole_number,
)
from events.formats.ecf_fields import MANDATORY, read_fields, read_sections

# SCORE (PIN1's then PIN2's) -> (result with PIN1 as white, result with PIN1 as black).
_SCORES = {
    "10": (results.WHITE_WIN, results.BLACK_WIN),
    "01": (results.BLACK_WIN, results.WHITE_WIN),
    "55": (results.DRAW, results.DRAW),
    "1D": (results.WHITE_WIN_BY_DEFAULT, results.BLACK_WIN_BY_DEFAULT),
    "D1": (results.BLACK_WIN_BY_DEFAULT, results.WHITE_WIN_BY_DEFAULT),
    "DD": (results.DOUBLE_DEFAULT, results.DOUBLE_DEFAULT),
}


def parse_ecf(text: str, code_pattern: str = CODE_PATTERN) -> ParsedEvent:
    event = ParsedEvent(format="ECF")
    if text.split("#", 1)[0].strip():
        event.warn(1, "text before the first #field is ignored")
    sections = read_sections(event, read_fields(text))
    _read_details(event, sections.details)
    for group in sections.players:
        _read_player(event, group, CodeShape(code_pattern))
    for part in sections.parts:
        _read_part(event, part)
    if not event.players:
        event.error(None, "the file has no players (#PLAYER LIST with #PIN=... groups)")
    event.kind = _kind(event, sections.parts)
    check_games(event)
    event.problems.extend(check_dates(event))
    event.sort_problems()
    return event


def _read_details(event, details):
    for name in MANDATORY:
        if not details.get(name, (0, ""))[1]:
            event.error(details[name][0] if name in details else None, f"#{name} is missing")
    event.code = details.get("EVENT CODE", (0, ""))[1].upper()
    event.name = details.get("EVENT NAME", (0, ""))[1]
    index_line, index = details.get("SUBMISSION INDEX", (None, ""))
    event.submission_index = whole_number(index, 1, MOST_SUBMISSIONS)
    if index and event.submission_index is None:
        event.error(index_line, f"#SUBMISSION INDEX must be a whole number from 1 to {MOST_SUBMISSIONS}, not {index!r}")
    event.start_date = _date(event, details, "EVENT DATE")
    event.end_date = _date(event, details, "FINAL RESULT DATE")
    if event.start_date and event.end_date and event.end_date < event.start_date:
        event.error(details["FINAL RESULT DATE"][0], "#FINAL RESULT DATE is before #EVENT DATE")
    given = {name: value for name, (_, value) in details.items() if name in ECF_TIME_CONTROL_FIELDS}
    first_line = min((details[name][0] for name in given), default=None)
    try:
        event.time_control = TimeControl.from_ecf(given)
    except ValueError as error:
        event.error(first_line, str(error))
    else:
        if event.time_control is None:
            event.error(
                None,
                "the time control is missing: give #MINUTES FOR GAME, or "
                "#MOVES FIRST SESSION, #MINUTES FIRST SESSION and "
                "#MINUTES REST OF GAME",
            )
    if event.time_control:
        event.time_control_text = str(event.time_control)


def _date(event, fields, name):
    line, text = fields.get(name, (None, ""))
    if not text:
        return None
    day = read_dmy(text)
    if day is None:
        event.error(line, f"#{name} {text!r} is not a date dd/mm/yyyy")
    return day


def _read_player(event, group, shape):
    line, pin_text = group["PIN"]
    pin = _new_pin(event, line, pin_text)
    if pin is None:
        return
    player = ParsedPlayer(pin, line=line)
    value = {name: text for name, (_, text) in group.items()}
    _read_name(event, player, value)
    if code := normalise_code(value.get("ECF CODE", "")):
        if shape.fits(code):
            player.federation_code = code
        else:
            event.warn(group["ECF CODE"][0], f"PIN {pin}: #ECF CODE {code!r} is not {shape}; it is ignored")
    gender = value.get("GENDER", "").upper()[:1]
    player.sex = {"M": "M", "F": "F", "W": "F"}.get(gender)
    if gender and not player.sex:
        event.warn(group["GENDER"][0], f"PIN {pin}: #GENDER {value['GENDER']!r} is not M or F")
    title = normalise_title(value.get("TITLE", ""))
    if title is None:
        event.warn(group["TITLE"][0], f"PIN {pin}: unknown #TITLE {value['TITLE']!r} ignored")
    player.title = title or ""
    if value.get("DATE OF BIRTH"):
        player.birth_date = read_dmy(value["DATE OF BIRTH"])
        player.birth_year = player.birth_date.year if player.birth_date else None
        if not player.birth_date:
            event.warn(
                group["DATE OF BIRTH"][0],
                f"PIN {pin}: #DATE OF BIRTH {value['DATE OF BIRTH']!r} is not a date dd/mm/yyyy; it is ignored",
            )
    fide = value.get("FIDE NO", "")
    player.fide_id = fide_id(fide)
    if fide and player.fide_id is None:
        event.warn(
            group["FIDE NO"][0], f"PIN {pin}: #FIDE NO {fide!r} is not a FIDE ID ({FIDE_ID_DIGITS}); it is ignored"
        )
    player.club_code = value.get("CLUB CODE", "")
    player.club_name = value.get("CLUB NAME", "")
    event.players.append(player)


def _new_pin(event, line, pin_text):
    """The player's PIN, or None, after an error, when it cannot be one: the defaulted board's 0,
    not a whole number, or another player's."""
    if pin_text.strip() == "0":
        return event.error(line, "#PIN=0 is reserved for a defaulted board")
    pin = whole_number(pin_text, 1, MOST_PINS)
    if pin is None:
        return event.error(line, f"#PIN must be a whole number from 1 to {MOST_PINS}, not {pin_text!r}")
    if other := event.player(pin):
        return event.error(line, f"PIN {pin} is used twice (lines {other.line} and {line})")
    return pin


def _read_name(event, player, value):
    """#NAME ("Surname, Forenames"), else #SURNAME with #FORENAME or #INITIALS."""
    if value.get("NAME"):
        player.surname, player.forenames = split_name(value["NAME"])
    else:
        player.surname = value.get("SURNAME", "")
        player.forenames = value.get("FORENAME") or value.get("INITIALS", "")
    if not player.surname:
        event.error(player.line, f"player PIN {player.pin} has no #NAME (or #SURNAME)")


def _read_part(event, part):
    default_date = None
    if "RESULTS DATE" in part:
        default_date = _date(event, part, "RESULTS DATE")
    elif event.start_date == event.end_date:
        default_date = event.start_date
    white_on = part.get("WHITE ON", (None, ""))
    if white_on[1] and white_on[1].upper() not in ("ODD", "EVEN"):
        event.warn(white_on[0], f"#WHITE ON {white_on[1]!r} is not ODD or EVEN; it is ignored")
    undated = []
    for fields in part["games"]:
        game = _read_game(event, part, fields, white_on[1].upper())
        if game:
            game.date = game.date or default_date
            if game.date is None:
                undated.append(game)
            event.games.append(game)
    if undated:
        event.warn(
            undated[0].lines[0],
            f"{len(undated)} games in {part['name'] or 'this part'!r} "
            "have no #GAME DATE (and the part no #RESULTS DATE)",
        )


def _read_game(event, part, fields, white_on):
    line = fields["PIN1"][0]
    for name in ("SCORE", "PIN2"):
        if not fields.get(name, (0, ""))[1]:
            event.error(line, f"the game starting #PIN1={fields['PIN1'][1]} has no #{name}")
            return None
    numbers = {}
    for name, low, most in (
        ("PIN1", 0, MOST_PINS),
        ("PIN2", 0, MOST_PINS),
        ("ROUND", 1, MOST_ROUNDS),
        ("BOARD", 1, MOST_BOARDS),
    ):
        if name in fields:
            numbers[name] = whole_number(fields[name][1], low, most)
            if numbers[name] is None:
                event.error(
                    fields[name][0], f"#{name} must be a whole number from {low} to {most}, not {fields[name][1]!r}"
                )
                return None
    score = fields["SCORE"][1].upper()
    if score not in _SCORES:
        event.error(
            fields["SCORE"][0],
            f"#SCORE {fields['SCORE'][1]!r} is not one of 10, 01, 55 (played) or 1d, d1, dd (defaults)",
        )
        return None
    pin1_white = _pin1_white(event, fields, white_on, numbers.get("BOARD"))
    if pin1_white is None:
        return None
    as_white, as_black = _SCORES[score]
    pin1, pin2 = numbers["PIN1"], numbers["PIN2"]
    game = ParsedGame(
        pin1, pin2, as_white, numbers.get("ROUND"), numbers.get("BOARD"), lines=(line,), section=part["name"]
    )
    if not pin1_white:
        game.white, game.black, game.result = pin2, pin1, as_black
    if 0 in (pin1, pin2):
        if pin1 == pin2 or score not in ("1D", "D1", "DD"):
            event.error(line, "PIN 0 (a defaulted board) needs a real opponent and a default score (1d, d1 or dd)")
            return None
        # A board defaulted against nobody: the one player is stored as white.
        player_won = score == ("1D" if pin1 else "D1")
        game.white, game.black = pin1 or pin2, None
        game.result = (
            results.WHITE_WIN_BY_DEFAULT
            if player_won
            else results.DOUBLE_DEFAULT
            if score == "DD"
            else results.BLACK_WIN_BY_DEFAULT
        )
    if "GAME DATE" in fields:
        game.date = _date(event, fields, "GAME DATE")
    return game


def _pin1_white(event, fields, white_on, board):
    """Whether PIN1 had white: COLOUR, else the part's WHITE ON by board, else yes."""
    if "COLOUR" in fields:
        colour = fields["COLOUR"][1].upper()
        if colour in ("WHITE", "W", "BLACK", "B"):
            return colour.startswith("W")
        event.error(fields["COLOUR"][0], f"#COLOUR {fields['COLOUR'][1]!r} is not WHITE or BLACK")
        return None
    if white_on in ("ODD", "EVEN") and board:
        return (board % 2 == 1) == (white_on == "ODD")
    return True


def _kind(event, parts):
    kinds = {part["kind"] for part in parts}
    if kinds == {TEAM_MATCH}:
        return TEAM_MATCH
    if kinds == {SWISS}:
        if guess_kind(event):
            return ROUND_ROBIN
        return SWISS if any(g.round for g in event.games) else OTHER
    return OTHER
