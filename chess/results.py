"""Game result codes, as stored on every Game whatever file it came from.

The codes are the ones arbiters already know from the CSV format (formats.md section 3):
a played game is ``1-0``, ``0-1`` or ``1/2-1/2``; a default or forfeit carries an ``F``;
a game in which a player made no move carries an ``N``; a bye has no black player.
Only the three played results are ever rated (docs/rules.md section 2).
"""

from decimal import Decimal

WHITE_WIN = "1-0"
BLACK_WIN = "0-1"
DRAW = "1/2-1/2"
PLAYED = (WHITE_WIN, BLACK_WIN, DRAW)

WHITE_WIN_BY_DEFAULT = "1-0F"
BLACK_WIN_BY_DEFAULT = "0-1F"
DOUBLE_DEFAULT = "0-0F"
DEFAULTS = (WHITE_WIN_BY_DEFAULT, BLACK_WIN_BY_DEFAULT, DOUBLE_DEFAULT)

# A game that was paired and scored but in which fewer than one move was made (TRF W, D, L).
WHITE_WIN_NO_MOVE = "1-0N"
BLACK_WIN_NO_MOVE = "0-1N"
DRAW_NO_MOVE = "1/2-1/2N"
NO_MOVE = (WHITE_WIN_NO_MOVE, BLACK_WIN_NO_MOVE, DRAW_NO_MOVE)

# Byes: the player is stored as white and there is no black player.
FULL_POINT_BYE = "BYE-1"
HALF_POINT_BYE = "BYE-1/2"
ZERO_POINT_BYE = "BYE-0"
BYES = (FULL_POINT_BYE, HALF_POINT_BYE, ZERO_POINT_BYE)

CHOICES = [
    (WHITE_WIN, "1-0"),
    (BLACK_WIN, "0-1"),
    (DRAW, "½-½"),
    (WHITE_WIN_BY_DEFAULT, "1-0 by default"),
    (BLACK_WIN_BY_DEFAULT, "0-1 by default"),
    (DOUBLE_DEFAULT, "0-0 double default"),
    (WHITE_WIN_NO_MOVE, "1-0, no move played"),
    (BLACK_WIN_NO_MOVE, "0-1, no move played"),
    (DRAW_NO_MOVE, "½-½, no move played"),
    (FULL_POINT_BYE, "full-point bye"),
    (HALF_POINT_BYE, "half-point bye"),
    (ZERO_POINT_BYE, "zero-point bye"),
]
ALL = tuple(code for code, _ in CHOICES)

_SCORES = {
    WHITE_WIN: (Decimal(1), Decimal(0)),
    BLACK_WIN: (Decimal(0), Decimal(1)),
    DRAW: (Decimal("0.5"), Decimal("0.5")),
    WHITE_WIN_BY_DEFAULT: (Decimal(1), Decimal(0)),
    BLACK_WIN_BY_DEFAULT: (Decimal(0), Decimal(1)),
    DOUBLE_DEFAULT: (Decimal(0), Decimal(0)),
    WHITE_WIN_NO_MOVE: (Decimal(1), Decimal(0)),
    BLACK_WIN_NO_MOVE: (Decimal(0), Decimal(1)),
    DRAW_NO_MOVE: (Decimal("0.5"), Decimal("0.5")),
    FULL_POINT_BYE: (Decimal(1), None),
    HALF_POINT_BYE: (Decimal("0.5"), None),
    ZERO_POINT_BYE: (Decimal(0), None),
}


def scores(result: str) -> tuple[Decimal, Decimal | None]:
    """The points white and black take from a result (black is None for a bye)."""
    return _SCORES[result]


def unrated_reason(result: str) -> str:
    """Why a result can never be rated, or "" for a played game (docs/rules.md section 2)."""
    if result in PLAYED:
        return ""
    if result in DEFAULTS:
        return "default"
    if result in NO_MOVE:
        return "no move played"
    if result in BYES:
        return "bye"
    raise ValueError(f"unknown result code {result!r}")
