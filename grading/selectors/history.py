"""Reading published lists and the rating history, for the site, the API and downloads
(grading.selectors.downloads writes a list's files).

grading.run.publishing writes what this reads.
"""

from collections import namedtuple
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, OuterRef, Q, Subquery

from common.lookups import columns_of, prepared_cursor, records
from common.memory import process_memory
from common.replica import reading_alias
from grading.models import LIST_ORDER, ListEntry, PlayerRating, RatingList, RatingPeriod
from grading.run.periods import latest_take_ons
from grading.run.publishing import publications_generation
from players.models import Club, Player


@dataclass
class PublishedList:
    period: RatingPeriod
    revision: int

    @property
    def is_original(self):
        return self.revision == 0

    def entries(self):
        return (
            ListEntry.objects.filter(period=self.period, revision=self.revision)
            .select_related("player", "club")
            .order_by(*LIST_ORDER)
        )


def published_list(rating_list, month: str | None = None, original=False) -> PublishedList | None:
    """A published list: the given month's (the latest by default), revised unless ``original``."""
    return publication_in(list_publications(rating_list.code)[1], month, original)


def publication_in(periods, month: str | None = None, original=False) -> PublishedList | None:
    """The PublishedList of ``month`` (the latest by default) among a list's published periods."""
    period = next((p for p in periods if p.month == month), None) if month else (periods[0] if periods else None)
    if period is None:
        return None
    return PublishedList(period, 0 if original else period.revision)


# The generation, the database read (the replica's are apart: a primary's newer publication must not
# send a page to rows the replica has not replayed yet), the list's code.
LIST_PUBLICATIONS_KEY = "list-publications:{}:{}:{}"


def list_publications(code: str) -> tuple[RatingList | None, list[RatingPeriod]]:
    """The rating list of ``code`` (None if there is none) and its published periods, newest
    first. Every list page asks for both: they are kept a minute, in the shared cache and in the
    process's memory (as the latest publications are, _published_heads), and dropped whenever a
    period is published (grading.run.publishing.forget_publications)."""
    if len(code) > RatingList._meta.get_field("code").max_length:
        return None, []  # no list has it, and an address's worth of it makes no cache key
    key = LIST_PUBLICATIONS_KEY.format(publications_generation(), reading_alias(), code)
    found = LISTS_IN_MEMORY.get(key)
    if found is not None:
        return found
    found = cache.get(key)
    if found is None:
        rating_list = RatingList.objects.filter(code=code).first()
        if rating_list is None:
            return None, []
        periods = list(RatingPeriod.objects.published().filter(rating_list=rating_list).order_by("-month"))
        for period in periods:
            period.rating_list = rating_list
        found = (rating_list, periods)
        cache.set(key, found, PUBLICATIONS_SECONDS)
    LISTS_IN_MEMORY.set(key, found)
    return found


# Query helpers for the public site and the API (read only).


# The generation, the database read (as LIST_PUBLICATIONS_KEY): {list id: [latest period, the one before or None]}
PUBLICATIONS_KEY = "latest-publications:4:{}:{}"
PUBLICATIONS_SECONDS = 60
# Each process keeps them too, for the same minute, under the generation that publishing renews.
HEADS_IN_MEMORY = process_memory(size=8, seconds=PUBLICATIONS_SECONDS)
LISTS_IN_MEMORY = process_memory(size=64, seconds=PUBLICATIONS_SECONDS)


def _published_heads() -> dict:
    """Every list's two latest published periods. Every public page asks for these, and they
    change once a month: they are kept for a minute in the shared cache and in the process's
    memory, under the generation token that publishing renews (grading.run.publishing.forget_publications), so that a
    publication is read at once everywhere."""
    generation = (publications_generation(), reading_alias())
    heads = HEADS_IN_MEMORY.get(generation)
    if heads is not None:
        return heads
    heads = cache.get(PUBLICATIONS_KEY.format(*generation))
    if heads is None:
        heads = {}
        rows = RatingPeriod.objects.published().select_related("rating_list")
        for period in rows.order_by("rating_list__display_order", "rating_list__code", "-month"):
            kept = heads.setdefault(period.rating_list_id, [])
            if len(kept) < 2:
                kept.append(period)
        heads = {key: (kept + [None])[:2] for key, kept in heads.items()}
        cache.set(PUBLICATIONS_KEY.format(*generation), heads, PUBLICATIONS_SECONDS)
    HEADS_IN_MEMORY.set(generation, heads)
    return heads


def latest_publications(original=False, heads=None) -> dict:
    """The latest published list of every list, as PublishedLists keyed by rating list id."""
    return {
        key: PublishedList(latest, 0 if original else latest.revision)
        for key, (latest, _) in (_published_heads() if heads is None else heads).items()
    }


def previous_publications(heads=None) -> dict:
    """The list published before the latest of every list that has one (its revised edition),
    keyed by rating list id: what a "previous rating" was on."""
    return {
        key: PublishedList(previous, previous.revision)
        for key, (_, previous) in (_published_heads() if heads is None else heads).items()
        if previous
    }


def latest_and_previous_publications() -> tuple[dict, dict]:
    """latest_publications() and previous_publications(), from one read of the cache."""
    heads = _published_heads()
    return latest_publications(heads=heads), previous_publications(heads)


# The most players whose previous ratings one query reads: a download asks for them a chunk of its
# rows at a time (grading.selectors.downloads.download_rows), a one-club file its thirty players' and the whole
# list 300,000 in 60 queries, each far under the 32,766 parameters SQLite takes.
PREVIOUS_CHUNK = 5000


def publication_before(published, periods) -> PublishedList | None:
    """The list published before ``published`` (the previous month that was published, as
    revised); ``periods`` are the list's published periods, newest first (list_publications)."""
    before = next((period for period in periods if period.month < published.period.month), None)
    return None if before is None else PublishedList(before, before.revision)


# What a list page's line shows, as plain values (the list pages' rows, public.lists.tables.page_rows,
# read these; club_lines reads them with ``total`` and ``previous``).
LINE_FIELDS = (
    "player_id",
    "rating",
    "type",
    "category",
    "games",
    "last_played",
    "club__name",
    "player__code",
    "player__surname",
    "player__forenames",
    "player__name_restricted",
)
Line = namedtuple("Line", (*LINE_FIELDS, "total", "previous"))


def club_lines(published, before, club_code: str, offset: int, limit: int) -> list[Line]:
    """``limit`` lines from ``offset`` of the players of the club of ``club_code`` on ``published``,
    in the list's order (LIST_ORDER), each with how many the club has (``total``) and the player's
    rating on ``before`` (a PublishedList, or None; ``previous``): one prepared query, the same
    lines as the list page's from its filters (public.lists.tables.page_rows), without the ORM's
    building of it, which cost more than the query.

    The club's lines are read from their index alone (list_by_club holds what a line shows), and
    only those rated from the page's lowest rating to its highest are joined to their players,
    whose names order equal ratings: the page's fifty and its ties, not the club's two hundred
    (PostgreSQL's work for a page 600 buffers against 1,500)."""
    previous = "NULL"
    if before is not None:
        previous = (
            f"(SELECT b.rating FROM {ListEntry._meta.db_table} b WHERE b.period_id = %s AND b.revision = %s "
            "AND b.player_id = c.player_id)"
        )
    sql = (
        "WITH c AS (SELECT e.player_id, e.rating, e.type, e.category, e.games, e.last_played, e.club_id "
        f"FROM {ListEntry._meta.db_table} e WHERE e.period_id = %s AND e.revision = %s "
        f"AND e.club_id = (SELECT id FROM {Club._meta.db_table} WHERE code = %s)), "
        "page AS (SELECT rating FROM c ORDER BY rating DESC LIMIT %s OFFSET %s), "
        "bounds AS (SELECT MAX(rating) AS high, MIN(rating) AS low, (SELECT COUNT(*) FROM c) AS total FROM page) "
        "SELECT c.player_id, c.rating, c.type, c.category, c.games, c.last_played, k.name, p.code, p.surname, "
        f"p.forenames, p.name_restricted, bounds.total, {previous} "
        "FROM c JOIN bounds ON c.rating BETWEEN bounds.low AND bounds.high "
        f"JOIN {Player._meta.db_table} p ON p.id = c.player_id JOIN {Club._meta.db_table} k ON k.id = c.club_id "
        "ORDER BY c.rating DESC, p.surname, p.forenames, p.code "
        # The page's place among the lines rated from its highest down: past those rated above it.
        "LIMIT %s OFFSET (SELECT %s - COUNT(*) FROM c, bounds WHERE c.rating > bounds.high)"
    )
    params = [published.period.pk, published.revision, club_code, limit, offset]
    params += [] if before is None else [before.period.pk, before.revision]
    params += [limit, offset]
    with prepared_cursor(ListEntry) as cursor:
        cursor.execute(sql, params)
        return [Line(*row[:10], bool(row[10]), *row[11:]) for row in cursor.fetchall()]


def previous_ratings(published, player_ids, periods) -> dict:
    """{player id: rating} of ``player_ids`` (at most PREVIOUS_CHUNK) on the list published before
    ``published`` (the previous month that was published, as revised), where they were on it;
    ``periods`` are the list's published periods, newest first (list_publications). A plain,
    prepared query: every list page asks it, and every download for each chunk of its rows."""
    before = publication_before(published, periods)
    if before is None or not player_ids:
        return {}
    with prepared_cursor(ListEntry) as cursor:  # a list page's fifty: one statement, prepared
        cursor.execute(
            f"SELECT player_id, rating FROM {ListEntry._meta.db_table} WHERE period_id = %s AND revision = %s "
            f"AND player_id IN ({', '.join(['%s'] * len(player_ids))})",
            [before.period.pk, before.revision, *player_ids],
        )
        return dict(cursor.fetchall())


def player_history(player_id):
    """The player's current rating rows on every list, oldest first within each list.

    A plain, prepared query (common.lookups): it runs on every player page, and the ORM's
    compiling of it cost twice the query itself."""
    columns = ", ".join(columns_of(PlayerRating, "r"))
    with prepared_cursor(PlayerRating) as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {PlayerRating._meta.db_table} r WHERE r.player_id = %s "
            "AND r.superseded_at IS NULL ORDER BY r.rating_list_id, r.month",
            [player_id],
        )
        return records(PlayerRating, cursor.fetchall(), cursor.db.alias)


def state_before(rating: PlayerRating):
    """The player's current row on the same list from the latest period before ``rating``'s."""
    return latest_state_before(rating.player_id, rating.rating_list_id, rating.month)


def latest_state_before(player_id, list_id, month: str) -> PlayerRating | None:
    """The player's current row on the list from the latest period before ``month``: a plain,
    prepared query, as every calculation page and the calculator ask."""
    columns = ", ".join(columns_of(PlayerRating, "r"))
    with prepared_cursor(PlayerRating) as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {PlayerRating._meta.db_table} r WHERE r.player_id = %s AND r.rating_list_id = %s "
            "AND r.month < %s AND r.superseded_at IS NULL ORDER BY r.month DESC LIMIT 1",
            [player_id, list_id, month],
        )
        found = records(PlayerRating, cursor.fetchall(), cursor.db.alias)
    return found[0] if found else None


def entries_of(publications, player_ids):
    """The ListEntry rows of ``player_ids`` on the given PublishedLists, in one query."""
    if not publications:
        return ListEntry.objects.none()
    on_lists = Q()
    for published in publications:
        on_lists |= Q(period_id=published.period.pk, revision=published.revision)
    return ListEntry.objects.filter(on_lists, player_id__in=list(player_ids)).order_by()


def lines_on_lists(publications: dict, player_ids) -> dict:
    """{(player id, list id): ListEntry} of ``player_ids`` on ``publications`` ({list id:
    PublishedList}, as latest_publications gives them), in one query."""
    list_of = {published.period.pk: list_id for list_id, published in publications.items()}
    return {
        (entry.player_id, list_of[entry.period_id]): entry for entry in entries_of(publications.values(), player_ids)
    }


def publication_key(kind, period_id, revision, published_at):
    """A cache key for something computed from one publication, which never changes: the
    time of publication makes it unique even where a test database reuses ids."""
    stamp = published_at.timestamp() if published_at else 0
    return f"{kind}:{period_id}:{revision}:{stamp}"


def list_sizes(publications) -> dict:
    """How many players each of ``publications`` ((period id, revision, period published_at)
    triples) lists, as {(period id, revision): size}, in at most one query; cached."""
    keys = {publication_key("list-size", *triple): triple[:2] for triple in publications}
    sizes = {keys[key]: size for key, size in cache.get_many(list(keys)).items()}
    missing = [pair for pair in keys.values() if pair not in sizes]
    if missing:
        on_lists = Q()
        for period, revision in missing:
            on_lists |= Q(period_id=period, revision=revision)
        counted = dict.fromkeys(missing, 0)
        for row in ListEntry.objects.filter(on_lists).values("period_id", "revision").annotate(size=Count("pk")):
            counted[(row["period_id"], row["revision"])] = row["size"]
        cache.set_many({key: counted[pair] for key, pair in keys.items() if pair in counted}, 24 * 3600)
        sizes.update(counted)
    return sizes


def list_size(published):
    triple = (published.period.pk, published.revision, published.period.published_at)
    return list_sizes([triple])[triple[:2]]


def lists_with_latest():
    """Every rating list, annotated with its latest published period (month, pk, revision)."""
    latest = RatingPeriod.objects.published().filter(rating_list=OuterRef("pk")).order_by("-month")
    return list(
        RatingList.objects.annotate(
            latest=Subquery(latest.values("month")[:1]),
            latest_pk=Subquery(latest.values("pk")[:1]),
            latest_revision=Subquery(latest.values("revision")[:1]),
            latest_published_at=Subquery(latest.values("published_at")[:1]),
        ).order_by("display_order", "code")
    )


def lists_for_uploads() -> list[RatingList]:
    """Every list in the order the site shows them, each with ``taken_on``: the latest month
    whose current list is ratings taken on from the previous system (None if none). An
    upload's check classifies the event into one of them and leaves earlier games unrated."""
    taken_on = latest_take_ons()
    lists = list(RatingList.objects.order_by("display_order", "code"))
    for rating_list in lists:
        rating_list.taken_on = taken_on.get(rating_list.pk)
    return lists
