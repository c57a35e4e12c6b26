"""Reads of players that the public pages and the API share: services write, selectors read,
and a page and the API that show the same thing ask the same function."""

from django.db.models import Count, Q

from players.models import Club, Player

# The club's columns as player_by_code reads them beside the player's.
CLUB_COLUMNS = [(field.column, field.attname, f"club__{field.attname}") for field in Club._meta.concrete_fields]


def player_by_code(code: str) -> Player | None:
    """The player whose federation code is ``code`` (in any case), with their club; None if no
    player has it. A merged duplicate's record kept (``merged_into``) is read if asked for.

    A plain query: every player page, calculation, head to head and calculator asks it, and the
    ORM's building of the same query, with its join, cost three times the query."""
    clubs = ", ".join(f"c.{column} AS {alias}" for column, _, alias in CLUB_COLUMNS)
    found = Player.objects.raw(
        f"SELECT p.*, {clubs} FROM {Player._meta.db_table} p LEFT JOIN {Club._meta.db_table} c ON c.id = p.club_id "
        "WHERE p.code = %s",
        [code.upper()],
    )
    player = next(iter(found), None)
    if player is not None:
        values = [getattr(player, alias) for *_, alias in CLUB_COLUMNS]
        names = [name for _, name, _ in CLUB_COLUMNS]
        player.club = Club.from_db(found.db, names, values) if player.club_id else None
    return player


def clubs_with_members():
    """Every club, by name, each with ``members``: how many players it has (a merged duplicate
    is not one)."""
    members = Count("players", filter=Q(players__merged_into=None))
    return Club.objects.annotate(members=members).order_by("name", "code")


def club_players(club):
    """The club's players (not merged duplicates), by name."""
    players = Player.objects.filter(club=club, merged_into=None).select_related("club")
    return players.order_by("surname", "forenames", "code")
