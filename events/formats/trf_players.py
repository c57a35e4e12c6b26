"""What the columns of TRF player lines mean when software writes them its own way: a federation
column holding clubs, a points column counting rounds left blank. Read once the whole file is
read, as only the whole file tells the convention."""

from collections import defaultdict
from decimal import Decimal, InvalidOperation

from chess import results
from chess.federations import is_fide_federation
from events.formats.base import ParsedGame

_HALF = Decimal("0.5")


def _lines(players):
    lines = [str(player.line) for player in players]
    return ", ".join(lines[:10]) + (", ..." if len(lines) > 10 else "")


def read_clubs_in_federation_column(event):
    """A federation column (54-56) that is no FIDE federation's code is not a federation: the
    Irish Chess Union's files write club abbreviations there (SAR, ST., C.I). Read as the club
    (TRF has no club column of its own), with one warning for the file."""
    clubs = [p for p in event.players if p.fide_federation.strip() and not is_fide_federation(p.fide_federation)]
    for player in clubs:
        player.club_name = player.club_name or player.fide_federation.strip()
        player.fide_federation = ""
    if clubs:
        written = sorted({player.club_name for player in clubs})
        event.warn(
            clubs[0].line,
            f"the federation column (54-56) of {len(clubs)} player{'s' if len(clubs) != 1 else ''} gives "
            f"{', '.join(written[:10])}{', ...' if len(written) > 10 else ''}, which "
            f"{'are not FIDE federations' if len(written) != 1 else 'is not a FIDE federation'}: "
            f"each is read as the player's club, not a federation (lines {_lines(clubs)})",
            54,
        )


def _declared(text):
    try:
        return Decimal(text.replace(",", "."))
    except InvalidOperation:
        return None


def _scored(event, scoring):
    scored = defaultdict(Decimal)
    for game in event.games:
        white, black = scoring.scores(game)
        scored[game.white] += white
        if game.black is not None:
            scored[game.black] += black
    return scored


def _points(value):
    """Points as messages write them: one decimal, or as many as the file's scoring needs."""
    return f"{value:.1f}" if value == round(value, 1) else f"{value.normalize()}"


def read_blank_rounds_as_byes(event, declared, occupied, scoring):
    """Half-point byes written as a round left blank, as some programs do: a player whose points
    column is a half-point bye's points (a draw's in the file's ``scoring``) above their results
    for each round they have nothing in had those byes. One warning for the file, not one a
    player; the rounds become half-point byes, so the points shown agree with the file's points
    and ranks. ``occupied`` holds (pin, round) for each round a player's line fills."""
    taken = set(occupied)
    for game in event.games:
        taken.update((pin, game.round) for pin in (game.white, game.black) if pin is not None)
    rounds = max((round_ for _, round_ in taken), default=0)
    scored = _scored(event, scoring)
    byes = []
    for player in event.players:
        points = _declared(declared.get(player.pin, ""))
        blank = [round_ for round_ in range(1, rounds + 1) if (player.pin, round_) not in taken]
        if blank and points is not None and scoring.draw and points - scored[player.pin] == scoring.draw * len(blank):
            byes.append(player)
            event.games += [
                ParsedGame(player.pin, None, results.HALF_POINT_BYE, round_, lines=(player.line,)) for round_ in blank
            ]
    if byes:
        event.warn(
            byes[0].line,
            f"the points column (81-84) counts {_bye_points(scoring)} for each round left blank, for {len(byes)} "
            f"player{'s' if len(byes) != 1 else ''}: those rounds are read as half-point byes (lines {_lines(byes)})",
            81,
        )


def _bye_points(scoring):
    if scoring.draw == _HALF:
        return "half a point"
    return f"a draw's {_points(scoring.draw)} point{'s' if scoring.draw != 1 else ''} (record 162)"


def check_points(event, declared, scoring):
    """A warning where a player's points column differs from what their results add up to, with
    the points the file's ``scoring`` gives each result: usually a bye written without its code,
    sometimes a misread line."""
    scored = _scored(event, scoring)
    by = f" with the points of record 162 (line {scoring.line})" if scoring.line else ""
    for player in event.players:
        points = _declared(declared.get(player.pin, ""))
        if points is not None and points != scored[player.pin]:
            event.warn(
                player.line,
                f"player {player.pin} has {_points(points)} points in columns 81-84 "
                f"but their results add up to {_points(scored[player.pin])}{by}",
                81,
            )
