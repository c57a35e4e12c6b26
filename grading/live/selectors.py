"""Reading live ratings, for the site and the API (grading.live.computing writes them)."""

from common.bulk import table
from common.lookups import prepared_cursor
from grading.models import LIST_ORDER, LiveEntry, LiveList, LiveRating
from grading.selectors.explanations import rating_explained
from grading.selectors.history import state_before
from grading.selectors.rule_sets import rules_named


def live_list_of(rating_list) -> LiveList | None:
    computed = LiveList.objects.filter(rating_list=rating_list, computed_at__isnull=False)
    return computed.select_related("based_on").first()


def live_rule_set(live: LiveList) -> str | None:
    """The rule set the live list's latest month was rated by, as stored (None: no month)."""
    rows = LiveRating.objects.filter(rating_list_id=live.rating_list_id, month=live.last_month)
    return rows.values_list("rule_set", flat=True).first() if live.last_month else None


def live_entries(rating_list):
    return LiveEntry.objects.filter(rating_list=rating_list).select_related("player", "club").order_by(*LIST_ORDER)


def live_of_player(player_id, list_ids=None) -> dict:
    """{rating list id: LiveEntry, its ``rating_list.live`` read with it} of the lists
    ``list_ids`` (None: every list) where the player has games approved since the latest
    published list."""
    with prepared_cursor(LiveEntry) as cursor:  # most players have none: a plain query says so
        cursor.execute(f"SELECT 1 FROM {table(LiveEntry)} WHERE player_id = %s AND live_games > 0 LIMIT 1", [player_id])
        if cursor.fetchone() is None:
            return {}
    entries = LiveEntry.objects.filter(player_id=player_id, live_games__gt=0)
    if list_ids is not None:
        entries = entries.filter(rating_list_id__in=list(list_ids))
    return {entry.rating_list_id: entry for entry in entries.select_related("rating_list__live")}


def live_state_before(rating: LiveRating):
    """The player's state before a live month: an earlier live month's, else the published one."""
    earlier = LiveRating.objects.filter(
        player_id=rating.player_id, rating_list_id=rating.rating_list_id, month__lt=rating.month
    )
    return earlier.order_by("-month").first() or state_before(rating)


def explained_live_rating(player, list_code: str, month: str) -> dict | None:
    """What the calculation page of a live rating shows: the rating, its live list, the state
    before it and its explanation; None if ``player`` has no live rating on that list for ``month``."""
    rating = (
        LiveRating.objects.filter(player=player, rating_list__code=list_code, month=month)
        .select_related("rating_list")
        .first()
    )
    if rating is None:
        return None
    shown = rating_explained(player, rating, live_state_before(rating), rules_named(rating.rule_set))
    return {**shown, "live": live_list_of(rating.rating_list)}
