"""The per-game breakdown kept with each rating: what the engine used and gave for every game.

``PlayerRating.breakdown`` is a JSON list with one line per game, in the order the games were
played, each line a list in LINE order:

- ``game``: the Game's id (the opponent is the game's other player);
- ``colour``: "w" or "b";
- ``halves``: the player's score in half points (2 win, 1 draw, 0 loss);
- ``opponent_rating``, ``opponent_type``: the opponent's rating as used in the deciding pass
  (pass 2 for a P rating, pass 3 for a K rating) and its type, "full" or "partial";
- ``pass1_opponent_rating``: the rating the opponent counted for in pass 1 (P ratings; else null);
- ``increment``: (D offset + S offset) x K / Q in millionths, rounded half up (K ratings; else null).

Lines, not rows: a national month has a million games, and a row for each side of each game
was most of a run's time.
"""

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from common.bulk import table, where_in
from common.lookups import prepared_cursor
from events.models import Event, Game
from grading.engine.codes import NEW, TYPE_NAMES
from grading.models import PlayerRating
from players.models import Player, shown_name

# The ratings whose lines are in grading.run.elo_results.ELO_LINE order.
ELO_METHODS = (PlayerRating.Method.ELO, PlayerRating.Method.FIRST)


class SidesByPlayer:
    """Both sides of every game of a result (either method), grouped by player, each player's
    in the order the games were played: what a breakdown is written from. Each method writes
    its lines in one f-string per side: a national month has two million."""

    def __init__(self, games, game_ids: np.ndarray):
        self.player = games.player.ravel()  # game 0 white, game 0 black, game 1 white, ...
        self.order = np.argsort(self.player, kind="stable")
        self.game = np.repeat(game_ids, 2)[self.order].tolist()
        self.side = np.tile([0, 1], len(game_ids))[self.order].tolist()
        self.halves = self.column(games.halves)

    def column(self, values: np.ndarray) -> list:
        """A (games, 2) column of the result, side by side in this order."""
        return values.ravel()[self.order].tolist()

    def per_player(self, lines: list[str], positions: np.ndarray) -> list[str]:
        """The JSON list of each player at ``positions``, from every side's line in this order."""
        counts = np.bincount(self.player, minlength=int(positions.max(initial=-1)) + 1)
        ends = np.cumsum(counts)
        starts = ends - counts
        return ["[" + ",".join(lines[a:b]) + "]" for a, b in zip(starts[positions].tolist(), ends[positions].tolist())]


def encode(result, game_ids: np.ndarray, positions: np.ndarray) -> list[str]:
    """The breakdown, as JSON text, of each player at ``positions`` in an engine result whose
    games are ``game_ids`` (by input position)."""
    g, p = result.games, result.players
    sides = SidesByPlayer(g, game_ids)
    opponent = g.opponent.ravel()[sides.order]
    # What a P-rated player's opponent counted for in pass 1 (docs/rules.md section 5).
    pass1 = np.where(p.category[opponent] == NEW, p.dummy[opponent], p.prior_rating[opponent])
    lines = [
        f'[{game},"{"wb"[side]}",{halves},{rating},"{TYPE_NAMES[kind]}",'
        f"{'null' if k else first},{increment if k else 'null'}]"
        for game, side, halves, rating, kind, first, k, increment in zip(
            sides.game,
            sides.side,
            sides.halves,
            sides.column(g.opponent_rating),
            sides.column(g.opponent_type),
            pass1.tolist(),
            sides.column(g.has_increment),
            sides.column(g.increment_micro),
        )
    ]
    return sides.per_player(lines, positions)


@dataclass
class RatedGame:
    """One line of a rating's breakdown, with the game and opponent it refers to."""

    rating: object  # the PlayerRating
    game: "GameShown | None"  # None: withdrawn since
    opponent: "PlayerShown | None"
    colour: str
    score: Decimal
    opponent_rating: int | None  # None: unrated for the game (Elo)
    opponent_type: str | None  # ECF: "full" or "partial"
    pass1_opponent_rating: int | None
    increment: Decimal | None
    counted: str | None = None  # Elo: "counted", "disregarded" or "not counted"
    expected: Decimal | None = None  # Elo: PD

    @property
    def elo(self) -> bool:
        return self.counted is not None


def lines(rating) -> list[list]:
    """The raw lines of a rating's breakdown (a JSON list; text on databases without JSON)."""
    value = rating.breakdown
    return json.loads(value) if isinstance(value, str) else (value or [])


def rated_games(ratings) -> dict:
    """{PlayerRating id: [RatedGame]} for ``ratings``, with their games, events and opponents
    read in one query; each rating's games in the order they were played."""
    explained = {rating.pk: [] for rating in ratings}
    for line in resolve([(rating, line) for rating in ratings for line in lines(rating)]):
        explained[line.rating.pk].append(line)
    return explained


@dataclass(frozen=True)
class EventShown:
    code: str
    name: str


@dataclass(frozen=True)
class PlayerShown:
    code: str
    name: str


@dataclass(frozen=True)
class GameShown:
    """What a breakdown line shows of its game: read as plain values, not model instances
    (a player's page shows dozens)."""

    pk: int
    date: object
    round: int | None
    board: int | None
    event: EventShown
    white: PlayerShown
    black: PlayerShown


def games_shown(ids) -> dict:
    """{game id: GameShown} for ``ids``, in one query: plain SQL, as every player page runs it
    and the ORM's compiling of its three joins cost more than the query."""
    condition, params = where_in("g.id", sorted(ids))
    with prepared_cursor(Game) as cursor:
        cursor.execute(
            "SELECT g.id, g.date, g.round, g.board, e.code, e.name, w.code, w.surname, w.forenames, "
            "w.name_restricted, b.code, b.surname, b.forenames, b.name_restricted "
            f"FROM {table(Game)} g JOIN {table(Event)} e ON e.id = g.event_id "
            f"JOIN {table(Player)} w ON w.id = g.white_id JOIN {table(Player)} b ON b.id = g.black_id "
            f"WHERE {condition}",
            params,
        )
        rows = cursor.fetchall()
    return {
        pk: GameShown(
            pk,
            parse_date(date),
            round_,
            board,
            EventShown(event_code, event_name),
            PlayerShown(white_code, shown_name(white_surname, white_forenames, white_restricted)),
            PlayerShown(black_code, shown_name(black_surname, black_forenames, black_restricted)),
        )
        for (
            pk,
            date,
            round_,
            board,
            event_code,
            event_name,
            white_code,
            white_surname,
            white_forenames,
            white_restricted,
            black_code,
            black_surname,
            black_forenames,
            black_restricted,
        ) in rows
    }


def parse_date(value):
    """A date from the database: a date on PostgreSQL, ISO text on SQLite."""
    return datetime.date.fromisoformat(value) if isinstance(value, str) else value


def resolve(pairs, games: dict | None = None) -> list[RatedGame]:
    """RatedGames for (rating, raw line) pairs, reading the games in one query (unless given,
    {game id: GameShown}). A game withdrawn since it was rated has ``game`` and ``opponent``
    None: the line still shows what was used."""
    if games is None:
        games = games_shown({line[0] for _, line in pairs})
    resolved = []
    for rating, line in pairs:
        game = games.get(line[0])
        common = {
            "rating": rating,
            "game": game,
            "opponent": (game.black if line[1] == "w" else game.white) if game else None,
            "colour": line[1],
            "score": Decimal(line[2]) / 2,
            "opponent_rating": line[3],
            "increment": None if line[6] is None else Decimal(line[6]).scaleb(-6),
        }
        if rating.method in ELO_METHODS:  # grading.run.elo_results.ELO_LINE
            extra = {"opponent_type": None, "pass1_opponent_rating": None, "counted": line[4]}
            extra["expected"] = None if line[5] is None else Decimal(line[5]).scaleb(-2)
        else:
            extra = {"opponent_type": line[4], "pass1_opponent_rating": line[5]}
        resolved.append(RatedGame(**common, **extra))
    return resolved


class LinesOf(Sequence):
    """Every breakdown line of ``ratings`` in order, as a sequence a Paginator can slice: only
    the lines of the page asked for are resolved (one query)."""

    def __init__(self, ratings):
        self.pairs = [(rating, line) for rating in ratings for line in lines(rating)]

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return resolve(self.pairs[index])
        return resolve([self.pairs[index]])[0]
