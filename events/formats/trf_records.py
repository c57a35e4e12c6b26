"""The TRF records about the whole event that the player lines need: how many rounds it has
(TRF-2026 record 142, JaVaFo's XXR), the points of each result (162), its teams (310, TRF16's
013) and the team matches forfeited (330). FIDE's TRF-2026 places them; docs/uploads.md says
how each is read here and what is decided where the format is silent."""

import re
from dataclasses import dataclass, field
from decimal import Decimal

from chess import results
from chess.numbers import read_whole_number
from events.formats.base import MOST_ROUNDS, whole_number

# What each side of a result scores, as record 162 names it: W a win (over the board, by
# forfeit, or a full-point bye), D a draw or a half-point bye, L a loss over the board, A an
# absence (a forfeit loss or a zero-point bye). A bye has no black side. A pairing-allocated bye
# is P, which the parser tells apart from a full-point bye by its TRF code (U).
_LETTERS = {
    results.WHITE_WIN: ("W", "L"),
    results.BLACK_WIN: ("L", "W"),
    results.DRAW: ("D", "D"),
    results.WHITE_WIN_BY_DEFAULT: ("W", "A"),
    results.BLACK_WIN_BY_DEFAULT: ("A", "W"),
    results.DOUBLE_DEFAULT: ("A", "A"),
    results.WHITE_WIN_NO_MOVE: ("W", "L"),
    results.BLACK_WIN_NO_MOVE: ("L", "W"),
    results.DRAW_NO_MOVE: ("D", "D"),
    results.FULL_POINT_BYE: ("W", None),
    results.HALF_POINT_BYE: ("D", None),
    results.ZERO_POINT_BYE: ("A", None),
}
# FIDE's points where record 162 does not give them; P is a win's and X (a result not known,
# which no game stored here has) a draw's unless the record says otherwise.
_DEFAULT_POINTS = {"W": Decimal(1), "D": Decimal("0.5"), "L": Decimal(0), "A": Decimal(0)}
_SCORED_LETTERS = "WDLAPX"
_MOST_POINTS = Decimal("99.9")  # the points column (81-84) holds "11.5" at most; more is a broken field
_ELEMENT = re.compile(r"([A-Za-z])\s*=?\s*([0-9]+(?:[.,][0-9]+)?)")
FORFEITED_MATCH = "the team match was forfeited"  # a game's reason for not being rated (record 330)


@dataclass
class Scoring:
    """The points of each kind of result: FIDE's 1, ½, 0 unless record 162 gives others."""

    points: dict = field(default_factory=lambda: {**_DEFAULT_POINTS, "P": Decimal(1), "X": Decimal("0.5")})
    allocated: frozenset = frozenset()  # (pin, round) of each pairing-allocated bye (TRF U)
    line: int | None = None  # the first record 162 that gives points, when the file has one

    @property
    def draw(self):
        return self.points["D"]

    def scores(self, game):
        """The points white and black take from ``game`` (black's None for a bye)."""
        white, black = _LETTERS[game.result]
        if black is None and (game.white, game.round) in self.allocated:
            white = "P"
        return self.points[white], (self.points[black] if black else None)


def read_scoring(event, records, allocated):
    """The Scoring of the file's records 162: "162  W 3.0    D 1.0    L 0.0" (a result letter in
    column 6 and its points in 7-10, the next pair nine columns on; any spacing is read). What
    cannot be read is a warning and is left out: the file's points are then checked with
    FIDE's."""
    given = {}
    for n, line in records:
        text = line[4:]
        for m in _ELEMENT.finditer(text):
            _read_element(event, n, m, given)
        rest = _ELEMENT.sub("", text).strip()
        if rest or not _ELEMENT.search(text):
            event.warn(
                n,
                f"record 162, the points of each result: cannot read {rest or text.strip() or 'an empty record'!r}; "
                "expected a result letter (W, D, L, A, P or X) and its points, as '162  W 3.0    D 1.0    L 0.0': "
                "what cannot be read is ignored",
                5,
            )
    points = {**_DEFAULT_POINTS, **{letter: value for letter, (value, _) in given.items()}}
    points.setdefault("P", points["W"])
    points.setdefault("X", points["D"])
    return Scoring(points, frozenset(allocated), min((n for _, n in given.values()), default=None))


def _read_element(event, n, m, given):
    letter, written = m.group(1).upper(), m.group(2)
    column = 5 + m.start()
    if letter not in _SCORED_LETTERS:
        event.warn(n, f"record 162: {letter!r} is no result letter (W, D, L, A, P or X): it is ignored", column)
        return
    value = Decimal(written.replace(",", "."))  # the pattern lets only digits and one point through
    if value > _MOST_POINTS:
        event.warn(n, f"record 162: {letter}'s points, {written}, are not from 0 to 99.9: they are ignored", column)
    elif letter in given:
        first = given[letter][1]
        event.warn(n, f"record 162 gives {letter} again (line {first} gives it first): the first counts", column)
    else:
        given[letter] = (value, n)


def read_scheduled_rounds(event, records):
    """The number of rounds the event has, played or not: TRF-2026 record 142, or JaVaFo's and
    Swiss-Manager's XXR ("XXR 9"). ``records`` is {code: [(line number, line)]}. A whole number
    from 1 to MOST_ROUNDS, no fewer than the rounds played; else a warning, and the event has no
    number of rounds (its games played count as scheduled). Where both records give a number and
    they differ, FIDE's own (142) counts, with a warning."""
    numbers = {code: _number_of_rounds(event, code, found) for code, found in records.items() if found}
    numbers = {code: number for code, number in numbers.items() if number is not None}
    if not numbers:
        return
    code = "142" if "142" in numbers else "XXR"
    n, rounds = numbers[code]
    if code == "142" and "XXR" in numbers and numbers["XXR"][1] != rounds:
        other_line, other = numbers["XXR"]
        event.warn(
            other_line,
            f"record XXR says the event has {other} rounds, record 142 (line {n}) says {rounds}: record 142 counts",
            5,
        )
    played = max((game.round for game in event.games if game.round), default=0)
    if rounds < played:
        event.warn(
            n,
            f"record {code} says the event has {rounds} round{'s' if rounds != 1 else ''}, but the file has "
            f"round {played}: it is ignored (the rounds played count as scheduled)",
            5,
        )
        return
    event.scheduled_rounds = rounds


def _number_of_rounds(event, code, records):
    """(line number, rounds) of the first record ``code``, or None with a warning."""
    for n, _ in records[1:]:
        event.warn(n, f"a second record {code} (the first is on line {records[0][0]}): it is ignored", 1)
    n, line = records[0]
    text = line[4:].strip()
    try:
        return n, read_whole_number(text, 1, MOST_ROUNDS)
    except ValueError as wrong:
        why = f", the number of rounds: {wrong};" if text else " gives no number of rounds:"
        event.warn(n, f"record {code}{why} it is ignored", 5)
        return None


def read_teams(records_310, records_013):
    """{team pairing number: starting ranks of its players}: TRF-2026 record 310 (the number in
    columns 5-7, the players from column 74); a file with only TRF16's 013 records numbers its
    teams in their order (the players from column 37). Read only for record 330, which says
    what is wrong with a team it names."""
    teams = {}
    if records_310:
        for _, line in records_310:
            number = whole_number(line[4:7], 1, 999)
            if number is not None and number not in teams:
                teams[number] = _pins(line[73:])
    else:
        for number, (_, line) in enumerate(records_013, 1):
            teams[number] = _pins(line[36:])
    return teams


def _pins(text):
    return {pin for pin in map(whole_number, text.split()) if pin is not None}


_FORFEITS = ("+-", "-+", "--")
_FORFEIT_SHAPE = "330 +- 004 023 047"


def read_forfeited_matches(event, records, teams):
    """Record 330, a team match forfeited ("330 +- 004 023 047": the forfeit, +- won by white,
    -+ by black, -- by neither; the round; the white and black teams' pairing numbers). Every
    game the player lines give between the two teams' players in that round is kept as written
    and not rated."""
    for n, line in records:
        words = line[4:].split()
        numbers = [whole_number(word, 1, high) for word, high in zip(words[1:], (MOST_ROUNDS, 999, 999), strict=False)]
        if len(words) != 4 or words[0] not in _FORFEITS or None in numbers:
            event.error(
                n,
                f"record 330 {' '.join(words)!r} cannot be read: a forfeited match is written as {_FORFEIT_SHAPE!r} "
                "(the forfeit +-, -+ or --, the round, the white team's and the black team's pairing numbers)",
                5,
            )
            continue
        round_, white, black = numbers
        missing = [team for team in (white, black) if team not in teams]
        if missing:
            event.error(n, f"record 330 names team {missing[0]}, which has no team record (310)", 5)
        elif white == black:
            event.error(n, f"record 330 pairs team {white} with itself", 5)
        else:
            _not_rated(event, round_, teams[white], teams[black])


def _not_rated(event, round_, white, black):
    for game in event.games:
        pins = {game.white, game.black}
        if game.round == round_ and game.black is not None and pins & white and pins & black:
            game.unrated_reason = FORFEITED_MATCH
