"""Reads of players that the public pages and the API share: services write, selectors read,
and a page and the API that show the same thing ask the same function."""

from django.db.models import Count, Q

from common.bulk import where_in
from common.lookups import rows_with
from players.models import Club, Player


def player_by_code(code: str) -> Player | None:
    """The player whose federation code is ``code`` (in any case), with their club; None if no
    player has it. A merged duplicate's record kept (``merged_into``) is read if asked for.

    A plain query (common.lookups.rows_with): every player page, calculation, head to head and
    calculator asks it, and the ORM's building of the same query cost three times the query."""
    found = rows_with(Player, ["club"], "t.code = %s", [code.upper()])
    return found[0] if found else None


def players_by_codes(codes) -> dict:
    """{code: Player}, with their clubs, of the players whose federation codes (upper case) are
    among ``codes``: one prepared query, whatever their number."""
    if not codes:
        return {}
    condition, params = where_in("t.code", sorted(codes))
    return {player.code: player for player in rows_with(Player, ["club"], condition, params)}


def clubs_with_members():
    """Every club, by name, each with ``members``: how many players it has (a merged duplicate
    is not one)."""
    members = Count("players", filter=Q(players__merged_into=None))
    return Club.objects.annotate(members=members).order_by("name", "code")


def club_players(club):
    """The club's players (not merged duplicates), by name."""
    players = Player.objects.filter(club=club, merged_into=None).select_related("club")
    return players.order_by("surname", "forenames", "code")
