"""A TRF player record (001): the player's fields and their round blocks, read at the shift where
every block fits (software that pads names by bytes rather than characters writes them a few
columns off), the fields between the name and the rounds taken from the words nearest their
columns."""

import re
from dataclasses import dataclass

from chess import dates
from chess.federations import FIDE_ID_DIGITS, fide_id
from chess.names import split_name
from chess.titles import normalise_title
from events.formats.base import MOST_PINS, ParsedPlayer, whole_number

BLOCK = re.compile(r"^( {0,3}\d{1,4}| {4}) ([wb\- ]) ([10=+\-wdlhfuz ])  $", re.IGNORECASE)
SHIFTS = (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6)
# 1-based columns of the fields between the name and the rounds.
FIELDS = {
    "rating": (49, 52),
    "federation": (54, 56),
    "fide_id": (58, 68),
    "birth": (70, 79),
    "points": (81, 84),
    "rank": (86, 89),
}
SEX = {"m": "M", "w": "F", "f": "F"}


@dataclass
class Half:
    """One player's view of one round."""

    round: int
    pin: int
    opponent: int | None
    colour: str  # "w", "b" or "" (not known)
    result: str  # upper-cased TRF code, "" for blank
    line: int
    column: int


LARGEST_FIDE_RATING = 4000


def read_player_line(event, line, n, halves, player_lines, points):
    rank = line[4:8].strip()
    pin = whole_number(rank)
    if pin is None:
        event.error(n, f"the starting rank (columns 5-8) is {rank!r}, not a number from 1 to {MOST_PINS}", 5)
        return
    if pin in player_lines:
        event.error(n, f"starting rank {pin} is also used on line {player_lines[pin]}", 5)
        return
    player_lines[pin] = n
    shift, blocks = find_shift(line)
    if blocks is None:
        shift, blocks = 0, []
        round_, column, text = first_unreadable_block(line)
        event.error(
            n,
            f"cannot read round {round_}, {text!r} in columns {column}-{column + 9}: each round "
            "needs opponent (4 columns), colour w/b/- and a result code (1 = 0 + - W D L H F U Z), "
            "10 columns apart",
            column,
        )
    elif shift:
        event.warn(n, f"the round results start at column {92 + shift}, not 92; read with that shift", 92 + shift)
    name_shift = fields_shift(line, shift)
    fields = fixed_fields(line, name_shift)
    surname, forenames = split_name(line[14 : 47 + name_shift])
    player = ParsedPlayer(pin, surname, forenames, line=n)
    player.sex = SEX.get(line[9:10].lower())
    title = normalise_title(line[10:13])
    if title is None:
        event.warn(n, f"unknown title {line[10:13].strip()!r} ignored", 11)
    player.title = title or ""
    player.fide_rating = whole_number(fields.get("rating", ""), 1, LARGEST_FIDE_RATING)
    player.fide_federation = fields.get("federation", "")
    player.fide_id = fide_id(fields.get("fide_id", ""))
    for name, value, what in (
        ("rating", player.fide_rating, f"a FIDE rating (1 to {LARGEST_FIDE_RATING})"),
        ("fide_id", player.fide_id, f"a FIDE ID ({FIDE_ID_DIGITS})"),
    ):
        if fields.get(name, "").strip("0") and value is None:  # 0 is how some programs write "none"
            event.warn(n, f"starting rank {pin}: {fields[name]!r} is not {what}: it is ignored", FIELDS[name][0])
    read_birth(player, fields.get("birth", ""))
    player.rank = whole_number(fields.get("rank", ""))
    points[pin] = fields.get("points", "")
    event.players.append(player)
    for round_, (opponent, colour, result, column) in enumerate(blocks, 1):
        halves.append(Half(round_, pin, opponent, colour, result, n, column))


def find_shift(line):
    """(shift, [(opponent, colour, result, column)]) for the first shift where every round
    block reads; (0, None) if none does."""
    for shift in SHIFTS:
        start = 91 + shift
        if len(line) > start and line[start - 1] != " ":
            continue
        blocks = []
        for i in range(start, max(len(line), start), 10):
            m = BLOCK.match(line[i : i + 10].ljust(10))
            if not m:
                break
            opponent = int(m.group(1)) if m.group(1).strip() else None
            colour = m.group(2).lower().strip(" -")
            blocks.append((opponent or None, colour, m.group(3).upper().strip(), i + 1))
        else:
            return shift, blocks
    return 0, None


def fields_shift(line, shift):
    """The shift of the name's end and the fields after it, given the rounds' ``shift``. A name
    padded by bytes moves everything after it, so they share it; but rounds that start late
    after a name ending where it should (column 48 blank) moved alone: read at their shift, the
    name would take in the first digits of the rating ("Short, Nigel 2")."""
    if shift > 0 and line[47:48] == " ":
        return 0
    return shift


def first_unreadable_block(line):
    """(round, column, text) of the first round block that does not read, unshifted."""
    round_ = 1
    for round_, start in enumerate(range(91, max(len(line), 92), 10), start=1):
        if not BLOCK.match(line[start : start + 10].ljust(10)):
            return round_, start + 1, line[start : start + 10].rstrip()
    return round_, 92, line[91:101].rstrip()


def fixed_fields(line, shift):
    """The fields of columns 49-89, each the word that overlaps its columns most."""
    fields = {}
    for m in re.finditer(r"\S+", line[47 + shift : 90 + shift]):
        first, last = m.start() + 48, m.end() + 47  # 1-based columns as if unshifted
        overlaps = {name: min(last, end) - max(first, start) for name, (start, end) in FIELDS.items()}
        name = max(overlaps, key=overlaps.get)
        if overlaps[name] >= 0:
            fields[name] = m.group()
    return fields


def read_birth(player, text):
    if m := re.fullmatch(r"(\d{4})(?:[/.-]00[/.-]00)?", text):  # the year alone: "1978/00/00"
        player.birth_year = int(m.group(1)) or None
    elif found := dates.candidates(text):
        player.birth_date = found[0][1]
        player.birth_year = player.birth_date.year
