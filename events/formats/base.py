"""What every event-file parser returns, and the checks all three formats share.

Pure Python: the Django side turns a ParsedEvent into Event, Player and Game rows.
"""

import datetime
import re
from collections import defaultdict
from dataclasses import dataclass, field

from chess.dates import written
from chess.names import full_name
from chess.numbers import whole_number_within
from chess.time_controls import TimeControl

ERROR = "error"
WARNING = "warning"

# Kind hints, spelt as events.models.Event.Kind stores them.
SWISS = "swiss"
ROUND_ROBIN = "round-robin"
TEAM_MATCH = "team-match"
OTHER = "other"

# The largest numbers an event file may give: far above any real event, far below what the
# database's columns hold. A larger one is a broken field, reported with its line.
MOST_PINS = 9999  # TRF's starting rank has four columns
MOST_ROUNDS = 999
MOST_BOARDS = 9999
MOST_SUBMISSIONS = 9999


def whole_number(text: str, low: int = 1, high: int = MOST_PINS) -> int | None:
    """The number ``text`` writes when it lies in low..high, else None (the parsers say why)."""
    return whole_number_within(text, low, high)


# The federation's player code: six digits and a check letter (the check is not published).
# The Django side passes its settings.PLAYER_CODE_PATTERN, which defaults to the same.
CODE_PATTERN = r"[0-9]{6}[ABCDEFGHJKL]"


@dataclass(frozen=True)
class CodeShape:
    pattern: str = CODE_PATTERN

    def fits(self, code):
        return re.fullmatch(self.pattern, code) is not None

    def __str__(self):
        if self.pattern == CODE_PATTERN:
            return "six digits and a check letter"
        return f"the pattern {self.pattern}"


@dataclass(frozen=True)
class Problem:
    line: int | None
    column: int | None
    message: str
    severity: str = ERROR
    # What kind of problem it is, for code that acts on one kind (the text is for people).
    code: str = ""

    def __str__(self):
        where = f"line {self.line}" if self.line else "file"
        if self.column:
            where += f", column {self.column}"
        return f"{where}: {self.message}"


@dataclass
class ParsedPlayer:
    pin: int  # TRF starting rank, ECF PIN, or the order of first appearance in a CSV
    surname: str = ""
    forenames: str = ""
    federation_code: str | None = None  # NNNNNNL, shape checked
    sex: str | None = None  # "M", "F" or None
    title: str = ""  # GM, IM, ... as chess.titles knows them, "" for none
    fide_id: int | None = None
    fide_rating: int | None = None
    fide_federation: str = ""  # TRF three-letter federation, as written
    birth_date: datetime.date | None = None
    birth_year: int | None = None  # also set when only the year is known (TRF "1978/00/00")
    club_code: str = ""
    club_name: str = ""
    rank: int | None = None  # the final rank the file gives (TRF columns 86-89)
    line: int | None = None

    @property
    def name(self):
        return full_name(self.surname, self.forenames)


@dataclass
class ParsedGame:
    white: int  # pin; for a bye or a board defaulted against nobody, the one player
    black: int | None  # None for a bye (BYE-*) or a board defaulted against nobody (*F)
    result: str  # a code of chess.results
    round: int | None = None
    board: int | None = None
    date: datetime.date | None = None
    lines: tuple[int, ...] = ()
    section: str = ""  # the ECF results part the game came from
    # Why the file itself says the game is not rated, whatever its result ("" if it does not): a
    # game of a team match TRF-2026 record 330 says was forfeited.
    unrated_reason: str = ""


class HasProblems:
    """``errors`` and ``warnings`` of anything that keeps a ``problems`` list."""

    @property
    def errors(self):
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self):
        return [p for p in self.problems if p.severity == WARNING]


@dataclass
class ParsedEvent(HasProblems):
    format: str  # "TRF16", "TRF-2026", "ECF", "CSV", or "" when the file was not recognised
    name: str = ""
    code: str = ""
    submission_index: int | None = None
    start_date: datetime.date | None = None
    end_date: datetime.date | None = None
    city: str = ""
    federation: str = ""
    time_control: TimeControl | None = None
    time_control_text: str = ""
    kind: str = OTHER
    online: bool | None = None
    # The rounds the file says the event has (TRF 142 or XXR), played or not: they decide when a
    # match is won (docs/rules.md 16.5). None: the file does not say (ECF and CSV files never do).
    scheduled_rounds: int | None = None
    encoding: str = ""
    players: list[ParsedPlayer] = field(default_factory=list)
    games: list[ParsedGame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    _by_pin: dict = field(default_factory=dict, repr=False, compare=False)
    _indexed: int = field(default=0, repr=False, compare=False)

    @property
    def ok(self):
        return not self.errors

    def player(self, pin):
        """The player of ``pin``, or None; by an index, as parsers ask once a game or a record."""
        for player in self.players[self._indexed :]:
            self._by_pin.setdefault(player.pin, player)
        self._indexed = len(self.players)
        return self._by_pin.get(pin)

    def error(self, line, message, column=None, code=""):
        self.problems.append(Problem(line, column, message, ERROR, code))

    def warn(self, line, message, column=None, code=""):
        self.problems.append(Problem(line, column, message, WARNING, code))

    def sort_problems(self):
        self.problems.sort(key=lambda p: (p.line or 0, p.column or 0))


def normalise_code(text):
    """A federation code as written, upper-cased with spaces removed ("123456 a" -> "123456A")."""
    return "".join(text.split()).upper()


def _game_label(game, event):
    def who(pin):
        player = event.player(pin)
        return f"{pin} ({player.name})" if player and player.name else str(pin)

    black = who(game.black) if game.black is not None else "nobody"
    return f"{who(game.white)} v {black}"


def check_games(event):
    """The checks every format shares: known players, no self-pairing, one game a round each,
    rounds and boards in range."""
    pins = {p.pin for p in event.players}
    for game in event.games:
        line = game.lines[0] if game.lines else None
        for name, number, most in (("round", game.round, MOST_ROUNDS), ("board", game.board, MOST_BOARDS)):
            if number is not None and not 1 <= number <= most:
                event.error(line, f"{name} {number} is out of range (1 to {most})")
        for pin in (game.white, game.black):
            if pin is not None and pin not in pins:
                event.error(line, f"the game refers to player {pin}, who is not in the player list")
        if game.white == game.black:
            event.error(line, f"player {game.white} is paired with themself")
    seen = defaultdict(list)
    for game in event.games:
        if game.round is None:
            continue
        # A self-pairing is one error already, not also two games in the round.
        seen[(game.section, game.round, game.white)].append(game)
        if game.black is not None and game.black != game.white:
            seen[(game.section, game.round, game.black)].append(game)
    for (_, round_, pin), games in seen.items():
        if len(games) > 1:
            lines = ", ".join(str(g.lines[0]) for g in games if g.lines)
            event.error(
                games[1].lines[0] if games[1].lines else None,
                f"player {pin} has {len(games)} games in round {round_} (lines {lines})",
            )


def check_dates(event, start=None, end=None):
    """An error for every game dated outside the event (the form's dates for a CSV upload)."""
    start = start or event.start_date
    end = end or event.end_date
    problems = []
    for game in event.games:
        if game.date is None:
            continue
        if (start and game.date < start) or (end and game.date > end):
            problems.append(
                Problem(
                    game.lines[0] if game.lines else None,
                    None,
                    f"game {_game_label(game, event)} is dated {written(game.date)}, outside the event "
                    f"({date_span(start, end)})",
                )
            )
    return problems


def date_span(start, end):
    if start and end:
        return f"{written(start)} to {written(end)}"
    return f"from {written(start)}" if start else f"until {written(end)}"


def guess_kind(event):
    """ROUND_ROBIN when every pair of players met exactly once (three or more players)."""
    pairs = [frozenset((g.white, g.black)) for g in event.games if g.black is not None]
    n = len({pin for pair in pairs for pin in pair})
    if n >= 3 and len(pairs) == len(set(pairs)) == n * (n - 1) // 2:
        return ROUND_ROBIN
    return None
