"""Our CSV of games (formats.md section 3; the exact columns are in docs/uploads.md).

One game a row. Players are identified by federation code; the event's details (name, dates,
time control, kind) come from the upload form: the event has no dates here, and the Django side
checks the games' dates against the form's with ``base.check_dates`` (a staff import without
dates takes the games' span).
"""

import csv
import io
import re

from chess import results
from chess.dates import read_iso_or_dmy
from chess.names import formula_start, split_name
from events.formats.base import (
    CODE_PATTERN,
    MOST_BOARDS,
    MOST_ROUNDS,
    OTHER,
    CodeShape,
    ParsedEvent,
    ParsedGame,
    ParsedPlayer,
    check_games,
    guess_kind,
    normalise_code,
    whole_number,
)

REQUIRED = ("white", "black", "result", "date")
OPTIONAL = ("round", "board", "white_name", "black_name")
COLUMNS = REQUIRED + OPTIONAL

# Accepted spellings (spaces removed, upper case) of the six results a CSV may carry.
_RESULTS = {
    "1-0": results.WHITE_WIN,
    "0-1": results.BLACK_WIN,
    "1/2-1/2": results.DRAW,
    "½-½": results.DRAW,
    "0.5-0.5": results.DRAW,
    "1-0F": results.WHITE_WIN_BY_DEFAULT,
    "0-1F": results.BLACK_WIN_BY_DEFAULT,
    "0-0F": results.DOUBLE_DEFAULT,
}


def column_name(text):
    """A header cell as a column name: "White Name" and "white-name" are "white_name"."""
    return re.sub(r"[\s\-]+", "_", text.strip().lower())


def header_columns(line):
    """The column names of a header line, with its delimiter (comma, semicolon or tab)."""
    delimiter = max((",", ";", "\t"), key=line.count)
    try:
        return [column_name(cell) for cell in next(csv.reader([line], delimiter=delimiter))], delimiter
    except csv.Error:  # a field past the csv module's limit (128 KB): no header of ours
        return [], delimiter


def parse_csv(text: str, code_pattern: str = CODE_PATTERN) -> ParsedEvent:
    event = ParsedEvent(format="CSV")
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        event.error(None, "the file is empty; expected a header row: " + ",".join(REQUIRED))
        return event
    header, delimiter = header_columns(lines[first])
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        event.error(first + 1, f"the header has no column {', '.join(missing)}; expected at least {','.join(REQUIRED)}")
        return event
    for i, name in enumerate(header):
        if name not in COLUMNS:
            event.warn(first + 1, f"unknown column {name!r} is ignored", i + 1)
        elif header.index(name) != i:
            event.error(first + 1, f"column {name!r} appears twice", i + 1)
    rows = _Rows(event, header, CodeShape(code_pattern))
    reader = csv.reader(io.StringIO("\n".join(lines[first + 1 :])), delimiter=delimiter)
    try:
        for values in reader:
            n = first + 1 + reader.line_num
            if not any(value.strip() for value in values):
                continue
            if any(value.strip() for value in values[len(header) :]):
                event.error(n, f"{len(values)} values where the header has {len(header)}")
                continue
            rows.read({name: value.strip() for name, value in zip(header, values, strict=False)}, n)
    except csv.Error as error:
        event.error(first + 1 + reader.line_num, f"cannot read the row: {error}")
    if not event.games and event.ok:
        event.error(None, "the file has a header but no games")
    event.kind = guess_kind(event) or OTHER
    check_games(event)
    event.sort_problems()
    return event


class _Rows:
    """Reads rows into games, giving each new player the next pin."""

    def __init__(self, event, header, shape):
        self.event, self.header, self.shape = event, header, shape
        self.pins, self.names = {}, {}  # by code, or by name for a player without one

    def column(self, name):
        return self.header.index(name) + 1

    def read(self, row, n):
        event = self.event
        pins = [self.player(row, side, n) for side in ("white", "black")]
        ok = None not in pins
        result = _RESULTS.get("".join(row.get("result", "").split()).upper())
        if result is None:
            ok = False
            event.error(
                n,
                f"result {row.get('result', '')!r} is not one of 1-0, 0-1, 1/2-1/2, 1-0F, 0-1F, 0-0F",
                self.column("result"),
            )
        day = read_iso_or_dmy(row.get("date", ""))
        if day is None:
            ok = False
            event.error(
                n, f"date {row.get('date', '')!r} is not a date yyyy-mm-dd (or dd/mm/yyyy)", self.column("date")
            )
        numbers = {}
        for name, most in (("round", MOST_ROUNDS), ("board", MOST_BOARDS)):
            text = row.get(name, "")
            numbers[name] = whole_number(text, 1, most) if text else None
            if text and numbers[name] is None:
                ok = False
                event.error(n, f"{name} {text!r} is not a whole number from 1 to {most}", self.column(name))
        if ok and pins[0] == pins[1]:
            event.error(n, "white and black are the same player", self.column("black"))
        elif ok:
            event.games.append(
                ParsedGame(pins[0], pins[1], result, numbers["round"], numbers["board"], day, lines=(n,))
            )

    def player(self, row, side, n):
        """The pin of the row's white or black player, or None if the row does not say who."""
        code = normalise_code(row.get(side, ""))
        name = " ".join(row.get(f"{side}_name", "").split())
        column = self.column(side)
        if code and not self.shape.fits(code):
            self.event.error(n, f"{side} {code!r} is not a federation code ({self.shape})", column)
            return None
        if not code and not name:
            self.event.error(
                n, f"no {side} player: give a federation code (or, for a player without one, {side}_name)", column
            )
            return None
        key = code or name.casefold()
        if key not in self.pins:
            player = ParsedPlayer(len(self.pins) + 1, *split_name(name), federation_code=code or None, line=n)
            self.pins[key], self.names[key] = player.pin, (name, n)
            self.event.players.append(player)
            if not code:
                self.event.warn(
                    n, f"{name!r} has no federation code; staff will match or register them by name", column
                )
            self.warn_of_formula(side, name, n)
        elif name and not self.names[key][0]:
            self.names[key] = (name, n)
            player = self.event.player(self.pins[key])
            player.surname, player.forenames = split_name(name)
            self.warn_of_formula(side, name, n)
        elif name and name.casefold() != self.names[key][0].casefold():
            self.event.warn(
                n, f"{code} is named {name!r} here but {self.names[key][0]!r} on line {self.names[key][1]}", column
            )
        return self.pins[key]

    def warn_of_formula(self, side, name, n):
        """A name a spreadsheet would run as a formula: most likely a formula's text pasted in."""
        if start := formula_start(name):
            self.event.warn(
                n,
                f"{side}_name {name!r} starts with {start!r}, which a spreadsheet runs as a formula: is it the "
                "player's name? (Downloads write it with an apostrophe before it.)",
                self.column(f"{side}_name"),
            )
