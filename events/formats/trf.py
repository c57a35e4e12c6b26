"""FIDE Tournament Report File, TRF16 and TRF-2026 (formats.md section 1).

Columns are read as the specification places them, with two tolerances real files need:
a player line whose round results sit a few columns off (software that pads names by bytes
rather than characters) is read at the shift where every round block fits, with a warning; and
the fields between the name and the rounds are taken from the words nearest their columns.
"""

import re
from collections import defaultdict
from dataclasses import replace

from chess import dates, results
from chess.time_controls import TimeControl
from events.formats.base import (
    CODE_PATTERN,
    MOST_PINS,
    MOST_ROUNDS,
    OTHER,
    ROUND_ROBIN,
    SWISS,
    TEAM_MATCH,
    CodeShape,
    ParsedEvent,
    ParsedGame,
    check_games,
    date_span,
    guess_kind,
    normalise_code,
    whole_number,
)
from events.formats.trf_player_lines import read_player_line
from events.formats.trf_players import check_points, read_blank_rounds_as_byes, read_clubs_in_federation_column
from events.formats.trf_records import (
    read_forfeited_matches,
    read_scheduled_rounds,
    read_scoring,
    read_teams,
)

# Records only TRF-2026 has; any of them (or a national-rating record) marks the file as such.
_TRF2026 = {
    "142",
    "152",
    "162",
    "172",
    "182",
    "192",
    "202",
    "212",
    "222",
    "240",
    "250",
    "260",
    "299",
    "300",
    "310",
    "320",
    "330",
    "352",
    "362",
    "801",
    "802",
}
_ONLINE = re.compile(r"https?://|lichess|chess\.com|\bonline\b", re.IGNORECASE)
# How the warnings about a time control the file does not give begin (the check drops them when
# the upload form gives one).
UNREAD_TIME_CONTROL = "time-control-unread"  # the code of the warnings that the file's time control is not read

# The white player's TRF code, given black's, as a result code.
_PLAYED = {
    ("1", "0"): results.WHITE_WIN,
    ("0", "1"): results.BLACK_WIN,
    ("=", "="): results.DRAW,
    ("+", "-"): results.WHITE_WIN_BY_DEFAULT,
    ("-", "+"): results.BLACK_WIN_BY_DEFAULT,
    ("-", "-"): results.DOUBLE_DEFAULT,
    ("W", "L"): results.WHITE_WIN_NO_MOVE,
    ("L", "W"): results.BLACK_WIN_NO_MOVE,
    ("D", "D"): results.DRAW_NO_MOVE,
}
# A round with no opponent: what the player scored decides the kind of bye.
_BYES = {
    "F": results.FULL_POINT_BYE,
    "U": results.FULL_POINT_BYE,
    "+": results.FULL_POINT_BYE,
    "1": results.FULL_POINT_BYE,
    "W": results.FULL_POINT_BYE,
    "H": results.HALF_POINT_BYE,
    "=": results.HALF_POINT_BYE,
    "D": results.HALF_POINT_BYE,
    "Z": results.ZERO_POINT_BYE,
    "-": results.ZERO_POINT_BYE,
    "0": results.ZERO_POINT_BYE,
    "L": results.ZERO_POINT_BYE,
}


# Records kept, each a list of (line number, line), for what is read once the players are.
_LISTED = ("240", "XXR", "142", "162", "013", "310", "330")
_HEADER = ("012", "022", "032", "042", "052", "062", "092", "122", "132", "222")


def parse_trf(text: str, code_pattern: str = CODE_PATTERN) -> ParsedEvent:
    event = ParsedEvent(format="TRF16")
    header, halves, national = {}, [], []
    listed = {code: [] for code in _LISTED}
    player_lines, points = {}, {}
    for n, line in enumerate(text.split("\n"), 1):
        line = line.rstrip()
        # A record number is followed by a space: "0123456789..." is a column ruler, not 012.
        code = line[:3] if line[3:4] in ("", " ") else ""
        if code in _TRF2026 or _is_national(line):
            event.format = "TRF-2026"
        if code == "001":
            read_player_line(event, line, n, halves, player_lines, points)
        elif code in _HEADER:
            header[code] = (n, line)
        elif code in listed:
            listed[code].append((n, line))
        elif _is_national(line):
            national.append((n, line))
        # Everything else (other XX? records, DAT, ###, column rulers, later TRF-2026 records) is not needed.
    if not event.players:
        event.error(None, "the file has no player records (lines starting '001')")
    _read_header(event, header)
    round_dates = _read_round_dates(event, header.get("132"))
    read_clubs_in_federation_column(event)
    _merge(event, halves, player_lines)
    _read_byes(event, listed["240"], halves)
    allocated = {(h.pin, h.round) for h in halves if h.opponent is None and h.result == "U"}
    scoring = read_scoring(event, listed["162"], allocated)
    occupied = {(h.pin, h.round) for h in halves if h.opponent or h.result}
    read_blank_rounds_as_byes(event, points, occupied, scoring)
    _read_national(event, national, CodeShape(code_pattern))
    _date_games(event, round_dates)
    event.games.sort(key=lambda g: (g.round, g.lines))
    check_points(event, points, scoring)
    read_scheduled_rounds(event, {"142": listed["142"], "XXR": listed["XXR"]})
    read_forfeited_matches(event, listed["330"], read_teams(listed["310"], listed["013"]))
    event.kind = _kind(header, listed["013"] or listed["310"]) or guess_kind(event) or OTHER
    check_games(event)
    _warn_names_without_comma(event)
    event.sort_problems()
    return event


def _is_national(line):
    """A national-rating record: a federation's three letters where 001 would be ("ENG    1")."""
    code = line[:3]
    return (
        code.isalpha()
        and code.isupper()
        and not code.startswith("XX")
        and code != "DAT"
        and line[3:4] == " "
        and whole_number(line[4:8]) is not None
    )


def _value(header, code):
    return header[code][1][4:].strip() if code in header else ""


def _read_header(event, header):
    event.name = _value(header, "012")
    event.city = _value(header, "022")
    event.federation = _value(header, "032")
    if not event.name:
        event.warn(None, "no event name (record 012)")
    start_text, end_text = _value(header, "042"), _value(header, "052")
    event.start_date, event.end_date = dates.read_pair(start_text, end_text)
    for code, text, value in (("042", start_text, event.start_date), ("052", end_text, event.end_date)):
        if text and value is None:
            event.error(header[code][0], f"cannot read the date {text!r}; expected YYYY/MM/DD", 5)
    if event.start_date and event.end_date and event.end_date < event.start_date:
        event.error(header["052"][0], "the end date (052) is before the start date (042)", 5)
    stated = _value(header, "062")
    if whole_number(stated, 0, MOST_PINS) not in (None, len(event.players)):
        event.warn(header["062"][0], f"record 062 says {stated} players but the file has {len(event.players)}")
    texts = " ".join(_value(header, c) for c in ("012", "022", "032", "122"))
    event.online = True if _ONLINE.search(texts) else None
    _read_time_control(event, header)


def _read_time_control(event, header):
    text = _value(header, "122")
    coded = _value(header, "222")
    event.time_control_text = text or coded
    tc = (TimeControl.from_trf222(coded) if coded else None) or TimeControl.from_text(text)
    if tc:
        event.time_control = replace(tc, online=event.online or tc.online)
    elif text or coded:
        line = header["222" if coded else "122"][0]
        event.warn(
            line,
            f"cannot read the time control {event.time_control_text!r}; give it with the upload",
            5,
            code=UNREAD_TIME_CONTROL,
        )
    else:
        event.warn(None, "no time control (record 122); give it with the upload", code=UNREAD_TIME_CONTROL)


def _read_round_dates(event, record):
    """{round: date} from record 132; each date is read the way that puts it in the event."""
    if record is None:
        return {}
    n, line = record
    found = {}
    written = _round_date_words(line)
    for (column, text), round_ in zip(written, _rounds_of(written), strict=True):
        readings = [d for _, d in dates.candidates(text)]
        if not readings:
            event.error(n, f"cannot read the date of round {round_}: {text!r}", column)
            continue
        inside = [d for d in readings if _within(event, d)]
        found[round_] = (inside or readings)[0]
        if not inside:
            event.error(
                n,
                f"round {round_} is dated {dates.written(found[round_])}, outside the event "
                f"({date_span(event.start_date, event.end_date)})",
                column,
            )
    if found and not (event.start_date and event.end_date):
        event.start_date = event.start_date or min(found.values())
        event.end_date = event.end_date or max(found.values())
    return found


_LONG_DATE = re.compile(r"\d{4}/\d{2}/\d{2}")


def _round_date_words(line):
    """(column, text) of each date record 132 writes from column 81. TRF-2026's YYYY/MM/DD fill
    the ten columns of a round: written one against the next ("2026/10/032026/10/04"), each is
    taken apart."""
    words = []
    for m in re.finditer(r"\S+", line[80:]):
        text, column = m.group(), 81 + m.start()
        if len(text) > 10 and len(text) % 10 == 0 and all(_LONG_DATE.fullmatch(part) for part in _tens(text)):
            words += [(column + i, part) for i, part in zip(range(0, len(text), 10), _tens(text), strict=True)]
        else:
            words.append((column, text))
    return words


def _tens(text):
    return [text[i : i + 10] for i in range(0, len(text), 10)]


def _rounds_of(words):
    """The round of each date: the ten columns it starts in (92-101 round 1, 102-111 round 2,
    give or take five); but dates written further apart at a steady pace, as YYYY/MM/DD with two
    spaces between (twelve columns apart), are rounds one after another from the first one's."""
    columns = [column for column, _ in words]
    by_tens = [max(1, (column - 87) // 10 + 1) for column in columns]
    steps = {b - a for a, b in zip(columns, columns[1:], strict=False)}
    if len(columns) > 2 and len(steps) == 1 and steps <= {11, 12}:
        return [by_tens[0] + i for i in range(len(columns))]
    return by_tens


def _within(event, day):
    return (event.start_date is None or event.start_date <= day) and (event.end_date is None or day <= event.end_date)


def _merge(event, halves, player_lines):
    """One game from the two halves of each played round; a half alone becomes a bye."""
    pairs = defaultdict(list)
    for half in halves:
        if half.opponent is None:
            bye = _BYES.get(half.result)
            if bye:
                event.games.append(ParsedGame(half.pin, None, bye, half.round, lines=(half.line,)))
        elif half.result and half.result in "HFUZ":
            event.error(
                half.line,
                f"round {half.round}: {half.result!r} is a bye, but an opponent ({half.opponent}) is given",
                half.column,
            )
        elif half.opponent == half.pin:
            event.error(half.line, f"round {half.round}: player {half.pin} is paired with themself", half.column)
        elif half.opponent not in player_lines:
            event.error(
                half.line,
                f"round {half.round}: the opponent's starting rank {half.opponent} is not in the file",
                half.column,
            )
        else:
            low, high = (half.pin, half.opponent) if half.pin < half.opponent else (half.opponent, half.pin)
            pairs[(half.round, low, high)].append(half)
    for (round_, _, _), pair in sorted(pairs.items(), key=lambda item: item[0][0]):
        if len(pair) == 2:
            _merge_pair(event, round_, *(pair if pair[0].pin < pair[1].pin else pair[::-1]))
        elif len(pair) == 1:
            half = pair[0]
            event.error(
                half.line,
                f"round {round_}: player {half.pin} is paired with "
                f"{half.opponent}, but line {player_lines[half.opponent]} "
                f"(player {half.opponent}) shows no game against "
                f"{half.pin} in that round",
                half.column,
            )
        else:
            _merge_pair(event, round_, *sorted(pair, key=lambda h: h.pin))


def _merge_pair(event, round_, a, b):
    where = f"round {round_}: lines {a.line} (player {a.pin}) and {b.line} (player {b.pin}) disagree"
    if not (a.result or b.result):
        event.warn(
            a.line, f"round {round_}: {a.pin} and {b.pin} are paired but have no result; the game is left out", a.column
        )
    elif a.colour and a.colour == b.colour:
        colour = "white" if a.colour == "w" else "black"
        event.error(b.line, f"{where}: both give {a.pin} and {b.pin} {colour}", b.column)
    else:
        a_white = a.colour == "w" or b.colour == "b" or not (a.colour or b.colour)
        white, black = (a, b) if a_white else (b, a)
        result = _PLAYED.get((white.result, black.result))
        if result is None:
            event.error(
                b.line,
                f"{where} about the result: {a.pin} has {a.result or 'blank'!r}, {b.pin} has {b.result or 'blank'!r}",
                b.column,
            )
        else:
            event.games.append(ParsedGame(white.pin, black.pin, result, round_, lines=(a.line, b.line)))


def _read_byes(event, records, halves):
    """TRF-2026 record 240: byes listed apart from the player lines."""
    kinds = {"F": results.FULL_POINT_BYE, "H": results.HALF_POINT_BYE, "Z": results.ZERO_POINT_BYE}
    taken = {(h.pin, h.round) for h in halves if h.opponent or h.result}
    for n, line in records:
        kind, round_ = line[4:5].upper(), whole_number(line[6:9], 1, MOST_ROUNDS)
        if kind not in kinds or round_ is None:
            event.error(n, "record 240 needs a bye type F, H or Z (column 5) and a round (columns 7-9)", 5)
            continue
        for pin in filter(None, map(whole_number, line[10:].split())):
            if (pin, round_) not in taken:
                event.games.append(ParsedGame(pin, None, kinds[kind], round_, lines=(n,)))


def _read_national(event, records, shape):
    """National-rating records: a national number shaped like a federation code is the code."""
    for n, line in records:
        pin, code = whole_number(line[4:8]), normalise_code(line[57:68])
        player = event.player(pin)
        if player is None:
            event.warn(n, f"national-rating record for starting rank {pin}, who has no 001 record; it is ignored", 5)
        elif shape.fits(code):
            player.federation_code = code


def _date_games(event, round_dates):
    event.start_date = event.start_date or event.end_date
    event.end_date = event.end_date or event.start_date
    one_day = event.start_date if event.start_date == event.end_date else None
    undated = 0
    for game in event.games:
        game.date = round_dates.get(game.round, one_day)
        undated += game.date is None
    if undated:
        event.warn(None, f"{undated} game(s) have no date: the file has no round dates (record 132) for their rounds")


def _kind(header, teams):
    text = _value(header, "092").lower()
    if "swiss" in text or "schweizer" in text:
        return SWISS
    if "robin" in text or "rundenturnier" in text or "berger" in text:
        return ROUND_ROBIN
    if "team" in text or teams:
        return TEAM_MATCH
    return None


def _warn_names_without_comma(event):
    lines = [str(p.line) for p in event.players if p.surname and not p.forenames]
    if lines:
        shown = ", ".join(lines[:10]) + (", ..." if len(lines) > 10 else "")
        event.warn(
            int(lines[0]),
            f"{len(lines)} player names have no comma between surname "
            "and forenames; each whole name is kept as the surname "
            f"(lines {shown})",
        )
