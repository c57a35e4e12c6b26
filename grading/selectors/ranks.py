"""Where a player stands on a published list: their national rank, and their rank among the
juniors, women and seniors where they are one. Players with the same rating share a rank (1, 2,
2, 4): a rank is one more than the number of players rated higher.

Only a Full rating is ranked, and only Full ratings count as higher (RANKED): a Partial rating
from a handful of games is not yet established, as FIDE and the ECF rank only established
ratings (docs/decisions.md). The top lists take the same players (grading.selectors.toplists).

A publication never changes, so how many of its players hold each rating is counted once, in one
query, and kept in the cache; a rank is then a lookup.
"""

import datetime
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Q

from chess.months import Month
from common.memory import process_memory
from grading.models import RANKED, RANKED_TYPE, ListEntry, LiveEntry
from grading.selectors.history import publication_key
from grading.selectors.toplists import SENIOR_AGE, age_condition
from players.models import years_before

# A publication's rank table never changes: each process keeps the latest few it read.
# Named after what it holds, the counts of Full ratings: the tables kept under "ranks" counted
# Partial ratings too, and must not be read by a process that ranks Full ratings only.
RANKS_KEY = "full-ranks"
RANKS_IN_MEMORY = process_memory(size=32, seconds=24 * 3600)
GROUPS = {"junior": "juniors (under 18)", "women": "women", "senior": f"seniors ({SENIOR_AGE} and over)"}


@dataclass(frozen=True)
class Ranks:
    higher: dict  # {group: [players of the group rated above r, for r = 0, 1, ...]}; "all" too

    def rank(self, rating: int, rating_type: str, group: str = "all") -> int | None:
        """The rank of a rating of ``rating_type`` (a list line's type); None if it is not ranked."""
        if rating_type != RANKED_TYPE:
            return None
        above = self.higher[group]
        return 1 + (above[rating] if rating < len(above) else 0)


def ranks_of(published) -> Ranks:
    return ranks_of_many([published])[published.period.pk, published.revision]


def ranks_of_many(publications) -> dict:
    """{(period id, revision): Ranks} of ``publications`` (PublishedLists): those not in the
    cache counted in one query."""
    keys = {
        publication_key(RANKS_KEY, item.period.pk, item.revision, item.period.published_at): item
        for item in publications
    }
    found = {key: higher for key in keys if (higher := RANKS_IN_MEMORY.get(key)) is not None}
    remembered = set(found)
    if len(found) < len(keys):
        found.update(cache.get_many([key for key in keys if key not in found]))
    missing = [item for key, item in keys.items() if key not in found]
    if missing:
        on_lists = Q()
        for item in missing:
            on_lists |= Q(period_id=item.period.pk, revision=item.revision)
        # Ages are on each list's own first day: one query per month among the missing.
        for month in {item.period.month for item in missing}:
            counted = count_higher(ListEntry.objects.filter(on_lists, period__month=month), month, by_publication=True)
            for item in (item for item in missing if item.period.month == month):
                key = publication_key(RANKS_KEY, item.period.pk, item.revision, item.period.published_at)
                found[key] = counted.get((item.period.pk, item.revision)) or higher_than([])
        cache.set_many({key: found[key] for key in keys if key in found}, 24 * 3600)
    for key in keys.keys() - remembered:
        RANKS_IN_MEMORY.set(key, found[key])
    return {(item.period.pk, item.revision): Ranks(found[key]) for key, item in keys.items()}


def live_ranks_of(live) -> Ranks:
    """Ranks on a list's live list (grading.models.LiveList) as last computed."""
    key = f"live-ranks:{live.rating_list_id}:{live.computed_at.timestamp() if live.computed_at else 0}:{live.digest}"
    higher = cache.get(key)
    if higher is None:
        month = live.last_month or str(Month.of(live.computed_at.date()))
        higher = count_higher(LiveEntry.objects.filter(rating_list_id=live.rating_list_id), month)
        cache.set(key, higher, 24 * 3600)
    return Ranks(higher)


def count_higher(entries, month: str, by_publication=False) -> dict:
    """{group: [how many of ``entries`` (list lines) are rated above r, for r = 0, 1, ...]};
    with ``by_publication``, such a table for each (period id, revision) among them."""
    day = Month.parse(month).first_day()
    keys = ("period_id", "revision") if by_publication else ()
    counts = (
        entries.filter(RANKED)
        .values(*keys, "rating")
        .annotate(
            all=Count("pk"),
            junior=Count("pk", filter=age_condition("junior", day)),
            women=Count("pk", filter=Q(player__sex="F")),
            senior=Count("pk", filter=age_condition("senior", day)),
        )
        .order_by()
    )
    rows_by = {}
    for row in counts:
        rows_by.setdefault(tuple(row[key] for key in keys), []).append(row)
    tables = {key: higher_than(rows) for key, rows in rows_by.items()}
    return tables if by_publication else tables.get((), higher_than([]))


def higher_than(rows) -> dict:
    top = max((row["rating"] for row in rows), default=0)
    higher = {}
    for group in ("all", *GROUPS):
        by_rating = [0] * (top + 2)
        for row in rows:
            by_rating[row["rating"]] += row[group]
        above, total = [0] * (top + 2), 0
        for rating in range(top + 1, -1, -1):
            above[rating] = total
            total += by_rating[rating]
        higher[group] = above
    return higher


def groups_of(player, month: str) -> list[str]:
    """The groups ``player`` is ranked in on a list of ``month`` besides the whole list."""
    day = Month.parse(month).first_day()
    born: datetime.date | None = player.birth_date
    groups = []
    if born and born > years_before(day, 18):
        groups.append("junior")
    if player.sex == "F":
        groups.append("women")
    if born and born <= years_before(day, SENIOR_AGE):
        groups.append("senior")
    return groups
