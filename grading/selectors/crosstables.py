"""An event as the public sees it: its entries and games with each entry's points (what the API
gives), and its crosstable, round-robin grid or match card with what the ratings say of each
player and its games read for grading.selectors.game_counts to count (what its page shows).

An event's entries and games are read as plain values: as model instances (forty-odd entries,
their players and a few hundred games) they were a third of the page's time.
"""

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import NamedTuple

from events.models import Event
from events.standings import match_card, round_robin_grid, standings, swiss_crosstable
from grading.selectors.event_ratings import event_parts, live_reason, published_reason, ratings_used
from players.models import shown_name


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
    """The entries and games of ``event``, and each entry's points."""
    rows = event.entries.order_by("pin").values_list(
        "pk",
        "pin",
        "surname",
        "forenames",
        "player__name_restricted",
        "club_name",
        "rank",
        "player_id",
        "player__code",
        "code",
    )
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
    games = event.games.order_by("round", "board", "date", "pk").annotate(
        why_not_rated=published_reason(), live_why_not_rated=live_reason()
    )
    games = list(games.values_list(*GAME_FIELDS, named=True))
    return EventResults(entries, games)


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
