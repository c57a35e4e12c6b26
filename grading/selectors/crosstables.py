"""An event as the public sees it: its entries and games with each entry's points (what the API
gives), and its crosstable, round-robin grid or match card with what the ratings say of each
player and its games read for grading.selectors.game_counts to count (what its page shows).

An event's entries and games are read as plain values: as model instances (forty-odd entries,
their players and a few hundred games) they were a third of the page's time.
"""

from collections import namedtuple
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import NamedTuple

from common.bulk import table
from common.lookups import prepared_cursor
from events.models import Entry, Event, Game
from events.standings import match_card, round_robin_grid, standings, swiss_crosstable
from grading.models import GameNotRated, LiveGameNotRated, RatingPeriod, RatingRun
from grading.run.breakdown import parse_date
from grading.selectors.event_ratings import event_parts, ratings_used
from players.models import Player, shown_name


class PlayerCode(NamedTuple):
    code: str


@dataclass
class EntryShown:
    """An entry as the event page and the API show it, with what the ratings say of it
    (``rated``, an EventPart, and ``rating_used``)."""

    pk: int
    pin: int
    name: str
    club_name: str
    rank: int | None
    player_id: int | None
    player: PlayerCode | None
    code: str  # the federation code the file gave, for an entry matched to no record
    rated: object = None
    rating_used: int | None = None


GAME_FIELDS = (
    "pk",
    "round",
    "board",
    "date",
    "result",
    "rated",
    "unrated_reason",
    "white_id",
    "black_id",
    "white_entry_id",
    "black_entry_id",
    "why_not_rated",  # why the publication in force left it out (FIDE's conditions), or None
    "live_why_not_rated",  # why the live ratings leave it out, or None (grading.selectors.game_counts reads both)
)


@dataclass
class EventResults:
    entries: list[EntryShown]  # in pin order
    games: list  # plain rows of GAME_FIELDS, by round and board; a bye has no black entry

    @cached_property
    def points(self) -> dict[int, Decimal]:
        """{entry id: points}: the API's; the page's tables count them with their standings."""
        return {row["entry"].pk: row["points"] for row in standings(self.entries, self.games)}


def event_results(event) -> EventResults:
    """The entries and games of ``event``, and each entry's points: two plain queries, as every
    event page reads them and the ORM's building of the games' (with why the publication in
    force and the live ratings left each out) cost four times the query."""
    with prepared_cursor(Game) as cursor:
        cursor.execute(ENTRIES, [event.pk])
        rows = cursor.fetchall()
        cursor.execute(GAMES, [event.pk])
        games = [game_row(row) for row in cursor.fetchall()]
    # An entry of a player whose name is restricted shows the file's name as initials too.
    entries = [
        EntryShown(
            pk,
            pin,
            shown_name(surname, forenames, bool(restricted)),
            club,
            rank,
            player,
            PlayerCode(code) if player else None,
            own,
        )
        for pk, pin, surname, forenames, restricted, club, rank, player, code, own in rows
    ]
    return EventResults(entries, games)


ENTRIES = (
    "SELECT en.id, en.pin, en.surname, en.forenames, p.name_restricted, en.club_name, en.rank, en.player_id, p.code, "
    f"en.code FROM {table(Entry)} en LEFT JOIN {table(Player)} p ON p.id = en.player_id WHERE en.event_id = %s "
    "ORDER BY en.pin"
)
# A game's fields (GAME_FIELDS), why the publication in force left it out (the reason kept by the
# run that published its period's current revision: event_ratings.PUBLISHED) and why the live
# ratings leave it out.
GAMES = (
    "SELECT g.id, g.round, g.board, g.date, g.result, g.rated, g.unrated_reason, g.white_id, g.black_id, "
    "g.white_entry_id, g.black_entry_id, "
    f"(SELECT n.reason FROM {table(GameNotRated)} n JOIN {table(RatingRun)} r ON r.id = n.run_id "
    f"JOIN {table(RatingPeriod)} p ON p.id = r.period_id WHERE n.game_id = g.id AND r.revision = p.revision "
    "ORDER BY r.started_at DESC LIMIT 1), "
    f"(SELECT l.reason FROM {table(LiveGameNotRated)} l WHERE l.game_id = g.id) "
    f"FROM {table(Game)} g WHERE g.event_id = %s ORDER BY g.round, g.board, g.date, g.id"
)
GameRow = namedtuple("GameRow", GAME_FIELDS)


def game_row(row) -> GameRow:
    """A row of GAMES as the ORM would give it (SQLite gives dates as text, booleans as 0 and 1)."""
    pk, round_, board, date, result, rated, *rest = row
    return GameRow(pk, round_, board, parse_date(date), result, bool(rated), *rest)


@dataclass
class Crosstable:
    """What an event's page shows: its table (``layout`` "crosstable", "grid" or "card", the
    table events.standings builds), each entry's part of the ratings, and the entries and games
    read (``results``: its games are counted from them, grading.selectors.game_counts)."""

    entries: list[EntryShown]  # each with ``rated`` and ``rating_used``
    layout: str
    table: dict
    results: EventResults
    rated: bool  # whether any player's ratings hold its games
    provisional: bool  # rated by the live ratings only (an approved event not yet rated)


def event_crosstable(event) -> Crosstable:
    results = event_results(event)
    entries, games = results.entries, results.games
    parts = event_parts(event, games)
    used = ratings_used(parts, games)
    for entry in entries:  # what the crosstable and the match card show beside each name
        entry.rated = parts.get(entry.player_id)
        entry.rating_used = used.get(entry.player_id)
    layout, table = event_table(event, entries, games)
    return Crosstable(
        entries=entries,
        layout=layout,
        table=table,
        results=results,
        rated=bool(parts),
        provisional=bool(parts) and event.status != Event.Status.RATED,
    )


def event_table(event, entries, games) -> tuple[str, dict]:
    """(layout, table): a team match's card, a round robin's grid, a Swiss's crosstable if every
    game has its round; else a card."""
    if event.kind == Event.Kind.TEAM_MATCH:
        return "card", match_card(entries, games)
    if event.kind == Event.Kind.ROUND_ROBIN:
        return "grid", round_robin_grid(entries, games)
    if all(game.round for game in games) and event.kind == Event.Kind.SWISS:
        return "crosstable", swiss_crosstable(entries, games)
    return "card", match_card(entries, games)
