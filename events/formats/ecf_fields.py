"""The fields of an ECF results file, placed where the file puts them: the event details, a group
per player, the parts of results with a group per game; a field out of place is an error that
says where it belongs."""

import re
from dataclasses import dataclass, field

from chess.time_controls import ECF_TIME_CONTROL_FIELDS
from events.formats.base import OTHER, SWISS, TEAM_MATCH

PARTS = {"MATCH RESULTS": TEAM_MATCH, "SECTION RESULTS": SWISS, "OTHER RESULTS": OTHER}
MANDATORY = (
    "EVENT CODE",
    "SUBMISSION INDEX",
    "EVENT NAME",
    "EVENT DATE",
    "FINAL RESULT DATE",
    "RESULTS OFFICER",
    "RESULTS OFFICER ADDRESS",
    "TREASURER",
    "TREASURER ADDRESS",
)
IGNORED = ("ADJUDICATED", "INFORM FIDE", "INFORM CHESSMOVES", "INFORM UNION", "INFORM GRAND PRIX")
EVENT_FIELDS = set(MANDATORY + ECF_TIME_CONTROL_FIELDS + IGNORED)
PLAYER_FIELDS = {
    "PIN",
    "ECF CODE",
    "NAME",
    "SURNAME",
    "FORENAME",
    "INITIALS",
    "GENDER",
    "TITLE",
    "DATE OF BIRTH",
    "CLUB CODE",
    "CLUB NAME",
    "CLUB COUNTY",
    "ECF NO",
    "FIDE NO",
    "COMMENT",
}
PART_FIELDS = {"RESULTS DATE", "WHITE ON"}
GAME_FIELDS = {"PIN1", "SCORE", "PIN2", "COLOUR", "GAME DATE", "ROUND", "BOARD", "COMMENT"}
MARKERS = {"EVENT DETAILS", "PLAYER LIST", "FINISH", *PARTS}
ALIASES = {"BCF CODE": "ECF CODE", "BCF NO": "ECF NO", "CLUB": "CLUB NAME"}
# Every known name, keyed with its spaces removed, since "EVENTCODE" is "EVENT CODE".
KNOWN = {
    name.replace(" ", ""): name
    for name in EVENT_FIELDS | PLAYER_FIELDS | PART_FIELDS | GAME_FIELDS | MARKERS | set(ALIASES)
}
FIELD = re.compile(r"#([^#=]*)(?:=([^#]*))?")


def read_fields(text):
    """[(line, NAME, value or None)] with names canonical and values' whitespace collapsed."""
    found, line, last = [], 1, 0
    for m in FIELD.finditer(text):
        line += text.count("\n", last, m.start())
        last = m.start()
        key = "".join(m.group(1).split()).upper()
        name = KNOWN.get(key, " ".join(m.group(1).split()).upper())
        value = " ".join(m.group(2).split()) if m.group(2) is not None else None
        found.append((line, ALIASES.get(name, name), value))
    return found


@dataclass
class Sections:
    """The file's fields, each as (line, value), where the file puts them: the event details by
    name, a group per player (from its #PIN) and the parts of results, each with a group per game
    (from its #PIN1)."""

    details: dict = field(default_factory=dict)
    players: list = field(default_factory=list)
    parts: list = field(default_factory=list)
    reading: str | None = None  # the section the fields are in: "event", "players" or "results"


def read_sections(event, fields):
    sections, finished = Sections(), None
    for line, name, value in fields:
        if finished:
            event.warn(line, f"#{name} after #FINISH is ignored")
        elif name == "FINISH":
            finished = line
        elif name in MARKERS:
            _start_section(sections, line, name, value)
        elif not _placed(event, sections, line, name, value or ""):
            _misplaced(event, line, name, sections.reading)
    if not finished:
        event.error(None, "the file has no #FINISH: it may have been cut short")
    return sections


def _start_section(sections, line, name, value):
    if name == "EVENT DETAILS":
        sections.reading = "event"
    elif name == "PLAYER LIST":
        sections.reading = "players"
    else:
        sections.reading = "results"
        sections.parts.append({"kind": PARTS[name], "name": value or "", "line": line, "games": []})


def _placed(event, sections, line, name, value):
    """Puts the field in the section being read; False if it has no place there."""
    if sections.reading is None and name in EVENT_FIELDS:
        event.warn(line, "the file should start with #EVENT DETAILS")
        sections.reading = "event"  # and the details are read as if it did
    if sections.reading == "event" and name in EVENT_FIELDS:
        sections.details[name] = (line, value)
        return True
    if sections.reading == "players":
        return _placed_in_players(sections.players, line, name, value)
    if sections.reading == "results":
        return _placed_in_part(sections.parts[-1], line, name, value)
    return False


def _placed_in_players(groups, line, name, value):
    if name == "PIN":
        groups.append({"PIN": (line, value)})
    elif name in PLAYER_FIELDS and groups:
        groups[-1][name] = (line, value)
    else:
        return False
    return True


def _placed_in_part(part, line, name, value):
    if name in PART_FIELDS:
        part[name] = (line, value)
    elif name == "PIN1":
        part["games"].append({"PIN1": (line, value)})
    elif name in GAME_FIELDS and part["games"]:
        part["games"][-1][name] = (line, value)
    else:
        return False
    return True


def _misplaced(event, line, name, reading):
    if name.replace(" ", "") not in KNOWN:
        event.warn(line, f"unknown field #{name} is ignored")
    else:
        event.error(line, f"#{name} is out of place: {_expected(reading)}")


def _expected(state):
    return {
        None: "the file must start with #EVENT DETAILS",
        "event": "the event details take #EVENT CODE, #EVENT NAME, ... up to #PLAYER LIST",
        "players": "each player starts with #PIN=",
        "results": "each game starts with #PIN1=",
    }[state]
