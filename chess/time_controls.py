"""Time controls read from event files, and the minutes per player that decide an event's list.

Pure Python (no Django). ``TimeControl.from_text`` reads the free text arbiters write in TRF
record 122, ``from_trf222`` the coded TRF-2026 record 222, ``from_ecf`` the ECF results-file
fields. Each returns None when there is no time control to read; ``from_text`` and
``from_trf222`` also return None for text they cannot understand, so the caller can warn.
"""

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

MOVES_COUNTED = 60  # the usual convention: time for 60 moves, increments included
# Beyond these a time control is a typing slip or a broken file, not one a game was played at.
MOST_MINUTES = 24 * 60  # in one session
MOST_MOVES = 200  # in one session
MOST_INCREMENT = 600  # seconds a move


@dataclass(frozen=True)
class TimeControl:
    # Minutes for the whole game, or for the first session when moves_first_session is set.
    base_minutes: Decimal
    increment_seconds: int = 0
    moves_first_session: int | None = None
    moves_second_session: int | None = None
    minutes_second_session: Decimal | None = None
    minutes_rest_of_game: Decimal | None = None
    increment_from_move: int = 1
    online: bool | None = None

    def minutes_per_player(self, moves: int = MOVES_COUNTED) -> Decimal:
        """Minutes one player has for ``moves`` moves: every session that starts by then, plus
        the increments of those moves (15+10 -> 25; 90+30 -> 120; 40/90, 30 + 30s -> 150)."""
        total, start = Decimal(0), 1
        for session_moves, minutes in self._sessions():
            if start > moves:
                break
            total += minutes
            if session_moves is None:
                break
            start += session_moves
        moves_with_increment = max(0, moves - self.increment_from_move + 1)
        return total + Decimal(self.increment_seconds * moves_with_increment) / 60

    def _sessions(self):
        sessions = [(self.moves_first_session, self.base_minutes)]
        if self.minutes_second_session is not None:
            sessions.append((self.moves_second_session, self.minutes_second_session))
        if self.minutes_rest_of_game is not None:
            sessions.append((None, self.minutes_rest_of_game))
        return sessions

    def __str__(self):
        parts = [
            f"{moves} moves in {_num(minutes)} min" if moves else f"{_num(minutes)} min"
            for moves, minutes in self._sessions()
        ]
        text = ", then ".join(parts)
        if self.increment_seconds:
            text += f" + {self.increment_seconds} s/move"
            if self.increment_from_move > 1:
                text += f" from move {self.increment_from_move}"
        return text + (" (online)" if self.online else "")

    @classmethod
    def from_text(cls, text: str) -> "TimeControl | None":
        return _parse_free_text(text or "")

    @classmethod
    def from_trf222(cls, text: str) -> "TimeControl | None":
        return _parse_222(text or "")

    @classmethod
    def from_ecf(cls, fields) -> "TimeControl | None":
        """From the ECF fields, keyed as written ("MINUTES FOR GAME", ...). None when there is no
        time-control field; ValueError naming the field when they are incomplete or malformed."""
        return _parse_ecf(fields)


def _num(value):
    return f"{value.normalize():f}"


def _assemble(sessions, increment=0, from_move=1, online=None):
    """A TimeControl from [(moves or None, minutes)], or None if they make no sense together."""
    if (
        not sessions
        or len(sessions) > 3
        or any(
            not 0 < minutes <= MOST_MINUTES or (moves is not None and not 0 < moves <= MOST_MOVES)
            for moves, minutes in sessions
        )
    ):
        return None
    (first_moves, base), rest = sessions[0], sessions[1:]
    fields = {"moves_first_session": first_moves}
    if rest and first_moves is None:
        return None  # something after a period that was already the whole game
    if len(rest) == 2:
        (second_moves, second), (last_moves, last) = rest
        if second_moves is None or last_moves is not None:
            return None
        fields.update(moves_second_session=second_moves, minutes_second_session=second, minutes_rest_of_game=last)
    elif rest:
        moves, minutes = rest[0]
        if moves is None:
            fields["minutes_rest_of_game"] = minutes
        else:
            fields.update(moves_second_session=moves, minutes_second_session=minutes)
    if not 0 <= increment <= MOST_INCREMENT or not 1 <= from_move <= MOST_MOVES:
        return None
    return TimeControl(base, increment, increment_from_move=from_move, online=online, **fields)


# ---- TRF 122: free text ----------------------------------------------------------------------

_QUOTES = {"’": "'", "′": "'", "`": "'", "″": '"', "“": '"', "”": '"', "''": '"'}
_ONLINE = re.compile(r"\bonline\b|lichess(?:\.org)?|chess\.com")
_FROM_MOVE = re.compile(r"(?:from|starting(?:\s+(?:at|from))?|after)\s+move\s*(\d+)")
_INCREMENT = re.compile(
    r"\+?\s*(\d+)\s*(?:seconds?|secs?|s|\")(?![a-z])\s*(?:(?:/|per|a)\s*(?:move|mv)s?)?"
    r"|\b(?:increment|inc|bonus)\s*(?:of\s*)?(\d+)\s*(?:seconds?|secs?|s|\")?"
)
_MIN = r"(?:minutes?|mins?|m(?![a-z])|')"
_HOURS = re.compile(r"(\d+)\s*(?:hours?|hrs?|h)(?![a-z])\s*(?:(\d+)\s*" + _MIN + r"?)?")
_CLOCK = re.compile(r"\b(\d{1,2}):(\d\d)\b")
# Explicit moves, written as "moves@minutes" so the period parser cannot mistake them.
_MOVES_IN = re.compile(r"(\d+)\s*moves?\s*(?:in|/)\s*(\d+(?:\.\d+)?)\s*" + _MIN + "?")
_MINUTES_FOR = re.compile(r"(\d+(?:\.\d+)?)\s*" + _MIN + r"?\s*(?:for|/)\s*(\d+)\s*moves?")
_GAME_IN = re.compile(
    r"\b(?:g|sd|game\s+in|all|rest(?:\s+of\s+(?:the\s+)?game)?|qpf)\s*/?\s*(\d+(?:\.\d+)?)\s*"
    + _MIN
    + r"?|(\d+(?:\.\d+)?)\s*/\s*(?:g|sd|all)\b"
)
_FILLER = re.compile(
    r"\b(?:rapid(?:play)?|blitz|bullet|standard|classical|quickplay|each|per\s+(?:player|side)"
    r"|for\s+(?:each|both)\s+players?|increment|fischer|sudden\s+death|for\s+the\s+game"
    r"|for\s+all\s+moves|time\s+control)\b"
)
_MINUTES = re.compile(r"(\d+(?:\.\d+)?)\s*" + _MIN)
_SEPARATOR = re.compile(r"\s*(,|;|\+|&|\bthen\b|\band\b|\bfollowed\s+by\b)\s*")
_PERIOD = re.compile(r"^(?:(\d+)@(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)(m?)\s*/\s*(\d+(?:\.\d+)?)(m?)|(\d+(?:\.\d+)?)(m?))$")
_CODED = re.compile(r"^\d+(?:/\d+)?(?:\+\d+)?(?::\d+(?:/\d+)?(?:\+\d+)?)*$")


def _parse_free_text(text):
    s = text.strip().lower()
    if len(s) > 200:
        return None  # no time control takes this much writing; int() would refuse its numbers
    for fancy, plain in _QUOTES.items():
        s = s.replace(fancy, plain)
    if not s:
        return None
    if _CODED.match(s.replace(" ", "")) and int(re.match(r"\d+", s).group()) >= 300:
        return _parse_222(s)  # the TRF-2026 coding in seconds ("5400+30"), written into 122
    online = True if _ONLINE.search(s) else None
    increment, from_move, s = _increment_taken_out(_ONLINE.sub(" ", s))
    pieces = _SEPARATOR.split(_periods_marked(s).strip(" ,;+"))
    separators = [""] + pieces[1::2]
    tokens = [(sep, tok) for sep, tok in zip(separators, pieces[::2], strict=True) if tok.strip()]
    # "15+10", "90/40+30+30": a trailing bare number after "+" is the increment in seconds.
    if increment is None and len(tokens) > 1 and tokens[-1][0] == "+" and tokens[-1][1].isdigit():
        increment = int(tokens.pop()[1])
    sessions = _read_periods(token for _, token in tokens)
    if sessions is None:
        return None
    return _assemble(sessions, increment or 0, from_move, online)


def _increment_taken_out(s):
    """The increment in seconds when written with a unit or a word ("+30s", "inc 30"), else None;
    the move it counts from ("from move 41"), else 1; and the text without them."""
    from_move = 1
    if m := _FROM_MOVE.search(s):
        from_move = int(m.group(1))
        s = s[: m.start()] + s[m.end() :]
    increment = None
    if m := _INCREMENT.search(s):
        increment = int(m.group(1) or m.group(2))
        s = s[: m.start()] + " " + s[m.end() :]
    return increment, from_move, s


def _periods_marked(s):
    """The text without the words that say nothing of the periods, and each period written one
    way: minutes as "90m" (hours and 1:30 too), moves in minutes as "40@90"."""
    s = _FILLER.sub(" ", s)
    s = _CLOCK.sub(lambda m: f"{int(m.group(1)) * 60 + int(m.group(2))}m", s)
    s = _HOURS.sub(lambda m: f"{int(m.group(1)) * 60 + int(m.group(2) or 0)}m", s)
    s = _MOVES_IN.sub(r"\1@\2", s)
    s = _MINUTES_FOR.sub(r"\2@\1", s)
    s = _GAME_IN.sub(lambda m: f"{m.group(1) or m.group(2)}m", s)
    return _MINUTES.sub(r"\1m", s)


def _read_periods(tokens):
    """[(moves or None, minutes)], one for each token, or None if one is not a period of play."""
    sessions = []
    for token in tokens:
        m = _PERIOD.match(token.strip())
        if not m:
            return None
        if m.group(1):
            sessions.append((int(m.group(1)), Decimal(m.group(2))))
        elif m.group(3):
            a, b = Decimal(m.group(3)), Decimal(m.group(5))
            # "100'/40" or "40/100'": the minutes are marked; unmarked, the smaller is the moves.
            if m.group(4) or (not m.group(6) and a > b):
                a, b = b, a
            sessions.append((int(a), b))
        else:
            sessions.append((None, Decimal(m.group(7))))
    return sessions


# ---- TRF-2026 record 222 ---------------------------------------------------------------------

_DESCRIPTOR = re.compile(r"^(?:(\d+)/)?(\d+)(?:\+(\d+))?$")


def _parse_222(text):
    s = text.strip().replace(" ", "").upper()
    if len(s) > 200:
        return None
    if m := re.match(r"^W(.+)-B(.+)$", s):
        # Armageddon-style: each side has its own clock; the list follows the shorter one.
        sides = [_parse_222_side(m.group(1)), _parse_222_side(m.group(2))]
        if None in sides:
            return None
        return min(sides, key=lambda tc: tc.minutes_per_player())
    return _parse_222_side(s)


def _parse_222_side(s):
    sessions, increment, from_move, move = [], 0, 1, 1
    for descriptor in s.split(":"):
        m = _DESCRIPTOR.match(descriptor)
        if not m:
            return None
        moves = int(m.group(1)) if m.group(1) else None
        sessions.append((moves, Decimal(int(m.group(2))) / 60))
        if m.group(3) and int(m.group(3)) and not increment:
            increment, from_move = int(m.group(3)), move
        move += moves or 0
    return _assemble(sessions, increment, from_move)


# ---- ECF results file ------------------------------------------------------------------------

# The ECF results file's time-control fields; the increment alone is not a time control.
ECF_TIME_CONTROL_FIELDS = (
    "MINUTES FOR GAME",
    "MOVES FIRST SESSION",
    "MINUTES FIRST SESSION",
    "MINUTES REST OF GAME",
    "MOVES SECOND SESSION",
    "MINUTES SECOND SESSION",
    "SECONDS PER MOVE",
)
_ECF_FIELDS = ECF_TIME_CONTROL_FIELDS[:-1]
_ECF_SESSION = ("MOVES FIRST SESSION", "MINUTES FIRST SESSION", "MINUTES REST OF GAME")


def _ecf_number(fields, name, integer=True):
    value = (fields.get(name) or "").strip()
    most = MOST_INCREMENT if name == "SECONDS PER MOVE" else MOST_MOVES if name.startswith("MOVES") else MOST_MINUTES
    try:
        number = Decimal(value)
    except InvalidOperation:
        number = Decimal("NaN")
    if not number.is_finite() or (integer and number != number.to_integral_value()):
        raise ValueError(f"#{name} must be a {'whole ' if integer else ''}number, not {value!r}")
    if number < 0 or (number == 0 and name != "SECONDS PER MOVE"):
        raise ValueError(f"#{name} must be more than 0, not {value!r}")
    if number > most:
        raise ValueError(f"#{name} must be at most {most}, not {value!r}")
    return int(number) if integer else number


def _parse_ecf(fields):
    given = {name for name in _ECF_FIELDS if (fields.get(name) or "").strip()}
    if not given:
        return None
    increment = _ecf_number(fields, "SECONDS PER MOVE") if fields.get("SECONDS PER MOVE") else 0
    if "MINUTES FOR GAME" in given:
        if given - {"MINUTES FOR GAME"}:
            raise ValueError("give either #MINUTES FOR GAME or the session fields, not both")
        return TimeControl(_ecf_number(fields, "MINUTES FOR GAME", False), increment)
    for name in _ECF_SESSION:
        if name not in given:
            raise ValueError(f"the time control has no #{name}")
    second = {"MOVES SECOND SESSION", "MINUTES SECOND SESSION"}
    if len(given & second) == 1:
        raise ValueError(f"the time control has no #{(second - given).pop()}")
    has_second = second <= given
    return TimeControl(
        _ecf_number(fields, "MINUTES FIRST SESSION", False),
        increment,
        moves_first_session=_ecf_number(fields, "MOVES FIRST SESSION"),
        moves_second_session=_ecf_number(fields, "MOVES SECOND SESSION") if has_second else None,
        minutes_second_session=(_ecf_number(fields, "MINUTES SECOND SESSION", False) if has_second else None),
        minutes_rest_of_game=_ecf_number(fields, "MINUTES REST OF GAME", False),
    )
