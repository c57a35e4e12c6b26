"""Reads of players that the public pages and the API share: services write, selectors read,
and a page and the API that show the same thing ask the same function."""

from players.models import Player


def player_by_code(code: str) -> Player | None:
    """The player whose federation code is ``code`` (in any case), with their club and, for a
    merged duplicate, the record kept; None if no player has it."""
    try:  # get(), not first(): a code is unique, and first() would sort by the model's ordering
        return Player.objects.select_related("club", "merged_into").get(code=code.upper())
    except Player.DoesNotExist:
        return None
