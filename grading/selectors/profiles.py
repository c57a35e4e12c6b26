"""A player's profile: their ratings on every published list (their line on it, ranks, the
previous list's rating, the history with each month's change and recent games, a pending
player's progress, their live rating) and the events they played, as the player page shows
them; and their ratings now (the lines as published, the live ratings) as the API gives them.

The page reads each list's line from the history it shows anyway, by the test that wrote the
list (on_the_list), and so asks for no list; the API gives the lines as published.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from chess.months import Month
from events.selectors import events_on_their_way
from grading.engine.codes import STATE_TYPE_CODES
from grading.engine.rule_sets import RuleSet
from grading.live.selectors import live_of_player
from grading.models import LiveEntry, LiveRating, PlayerRating, RatingList
from grading.run.breakdown import rated_games
from grading.selectors.calculations import first_rating_progress_of
from grading.selectors.event_ratings import PlayedEvent, events_played
from grading.selectors.explanations import progress_text
from grading.selectors.history import (
    PublishedList,
    entries_of,
    latest_and_previous_publications,
    latest_publications,
    player_history,
)
from grading.selectors.ranks import GROUPS, Ranks, groups_of, ranks_of_many
from grading.selectors.rule_sets import rules_named

RECENT_PERIODS = 12  # periods whose games the player page lists, per list


@dataclass
class ListProfile:
    """A player on one list's latest publication."""

    rating_list: RatingList
    published: PublishedList
    rules: RuleSet
    entry: PlayerRating | None  # their state on the list; None: not on it
    ranks: list  # [(group, rank)]: the whole list first, then their groups; none if not ranked
    previous: int | None  # their rating on the list published before, if they were on it
    latest: PlayerRating | None  # their latest state up to the list, on it or not
    progress: str  # a pending player's way to a first rating
    rows: list  # their history up to the list, newest first: PlayerRatings with change and lines
    live: LiveEntry | None = None  # their live rating, with games approved since the list
    live_months: list = field(default_factory=list)  # the months of their live ratings


@dataclass
class Profile:
    """What the player page shows of a player's ratings: a ListProfile for each list published."""

    lists: list[ListProfile]
    events: list[PlayedEvent]  # the latest first, each with its list's name
    on_their_way: list  # events not yet rated: submitted, approved, held (events.selectors)


def player_profile(player) -> Profile:
    history = player_history(player.pk)
    publications, before = latest_and_previous_publications()
    rank_tables = ranks_of_many(publications.values())
    games = recent_games(history)
    lists = [
        list_profile(
            player, history, games, published, before.get(list_id), rank_tables[published.period.pk, published.revision]
        )
        for list_id, published in publications.items()
    ]
    live_ratings = add_live(player, lists)
    names = {item.rating_list.pk: item.rating_list.name for item in lists}
    shown = {line.game.pk: line.game for lines in games.values() for line in lines if line.game}
    played = [event for event in events_played(history + live_ratings, shown) if event.rating_list_id in names]
    for event in played:
        event.list_name = names[event.rating_list_id]
    return Profile(lists, played, events_on_their_way(player))


def list_profile(player, history, games: dict, published, previous, table: Ranks) -> ListProfile:
    """The player on ``published``, from their ``history`` (player_history) and ``games``
    (recent_games); ``previous`` is the list published before it, ``table`` its ranks."""
    rating_list = published.period.rating_list
    rows = [row for row in history if row.rating_list_id == rating_list.pk and row.month <= published.period.month]
    for earlier, row in zip([None] + rows, rows):
        row.change = row.rating - earlier.rating if earlier and earlier.rating and row.rating else None
        row.lines = games.get(row.pk)  # None: older than the periods whose games are shown
    latest = rows[-1] if rows else None
    # On the list iff active then: the same test that wrote the list's snapshot.
    entry = latest if latest and on_the_list(latest, published) else None
    rules = rules_named(published.period.rule_set)
    pending = latest and latest.type == PlayerRating.Type.PENDING
    next_period = Month.parse(published.period.month) + 1
    return ListProfile(
        rating_list=rating_list,
        published=published,
        rules=rules,
        entry=entry,
        ranks=ranks(player, entry, published, table),
        previous=previous_rating(rows, previous),
        latest=latest,
        progress=progress_text(first_rating_progress_of(latest, next_period), rules) if pending else "",
        rows=rows[::-1],
    )


def add_live(player, lists: list[ListProfile]) -> list[LiveRating]:
    """Each list's live rating of the player, and the months it was reached in; returns their
    live ratings (none if they have no games approved since the lists)."""
    live = live_of_player(player.pk, [item.rating_list.pk for item in lists])
    live_ratings = list(LiveRating.objects.filter(player=player).order_by("month")) if live else []
    for item in lists:
        if entry := live.get(item.rating_list.pk):
            item.live = entry
            item.live_months = [row.month for row in live_ratings if row.rating_list_id == item.rating_list.pk]
    return live_ratings


def ranks(player, entry, published, table: Ranks) -> list:
    """[(group, rank)] of a player on a published list: the whole list, then their groups; none
    for a rating that is not ranked (a Partial one)."""
    if entry is None or table.rank(entry.rating, entry.type) is None:
        return []
    groups = groups_of(player, published.period.month)
    return [("national", table.rank(entry.rating, entry.type))] + [
        (GROUPS[group], table.rank(entry.rating, entry.type, group)) for group in groups
    ]


def previous_rating(rows, previous) -> int | None:
    """The player's rating on the list published before the latest, if they were on it."""
    if previous is None:
        return None
    then = [row for row in rows if row.month <= previous.period.month]
    return then[-1].rating if then and on_the_list(then[-1], previous) else None


def on_the_list(state, published) -> bool:
    last = Month.parse(state.last_played).index if state.last_played else -1
    rules = rules_named(published.period.rule_set)
    return bool(
        rules.listed(Month.parse(published.period.month), STATE_TYPE_CODES[state.type], state.rating or 0, last)
    )


def recent_games(history) -> dict:
    """{PlayerRating id: [RatedGame]} for each list's latest RECENT_PERIODS rows."""
    by_list = defaultdict(list)
    for row in history:
        by_list[row.rating_list_id].append(row)
    return rated_games([row for rows in by_list.values() for row in rows[-RECENT_PERIODS:]])


@dataclass(frozen=True)
class RatingsNow:
    lines: list  # ListEntry: their line on each list's latest publication, in the lists' order
    live: list  # LiveEntry: their live rating on each list with games approved since, in the lists' order


def ratings_now(player) -> RatingsNow:
    """The player's ratings now, as the API's player gives them."""
    entries = entries_of(latest_publications().values(), [player.pk]).select_related("period__rating_list")
    live = live_of_player(player.pk).values()
    return RatingsNow(
        list(entries.order_by("period__rating_list__display_order")),
        sorted(live, key=lambda entry: (entry.rating_list.display_order, entry.rating_list.code)),
    )
