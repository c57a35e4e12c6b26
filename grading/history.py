"""Reading the rating history and publishing lists: the one place that knows how.

A player's state on a list after period P is their latest current PlayerRating row with
``month <= P``. Publishing a period writes its new rows, supersedes the rows they replace
(a revision), and writes the period's ListEntry snapshot of the players active on the list.
"""

import csv
import io
import json
from dataclasses import dataclass

from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from .bulk import insert_rows, reserve_ids
from .engine import RULE_SETS
from .engine.periods import Month
from .models import ListEntry, PlayerRating, RatingPeriod

STATE_FIELDS = ["player_id", "rating", "type", "games", "opponents_total", "points", "last_played", "category"]
LIST_COLUMNS = ["code", "name", "rating", "type", "category", "games", "last_played", "club"]


def latest_states(rating_list, before: Month, player_ids=None):
    """Each player's current state on ``rating_list`` from periods before ``before``, as dicts
    of STATE_FIELDS keyed by player id (only ``player_ids`` if given)."""
    rows = PlayerRating.objects.filter(rating_list=rating_list, month__lt=str(before), superseded_at=None)
    if player_ids is not None:
        rows = rows.filter(player_id__in=list(player_ids))
    rows = rows.annotate(
        newest=Window(RowNumber(), partition_by=F("player_id"), order_by=F("month").desc())
    ).filter(newest=1)
    return {row["player_id"]: row for row in rows.values(*STATE_FIELDS)}


def is_active(state, month: Month, rule_set: str) -> bool:
    """Whether a state counts as active for ``month`` under the rule set (RULES.md section 3)."""
    window = RULE_SETS[rule_set].activity_window_months
    return bool(state["last_played"]) and Month.parse(state["last_played"]) >= month - window


RATING_FIELDS = [
    "player_id", "rating", "type", "games", "opponents_total", "points", "last_played", "category", "method",
    "prior_rating", "dummy_rating", "pass1", "pass2", "k_factor", "age",
]


def publish(period: RatingPeriod, run, rows: list[dict], prior: dict):
    """Store ``rows`` (dicts of RATING_FIELDS, optional ones may be left out) as the period's
    next publication, and its list snapshot.

    ``prior`` is latest_states(period's list, period): the states the new rows build on.
    Returns the revision published (0 for the original list) and ``{player_id: rating id}``.
    """
    now = timezone.now()
    revision = 0 if period.revision is None else period.revision + 1
    PlayerRating.objects.filter(period=period, superseded_at=None).update(superseded_at=now)
    ids = reserve_ids(PlayerRating, len(rows))
    fixed = (period.rating_list_id, period.pk, period.month, run.pk, now)
    insert_rows(
        PlayerRating,
        ["id", "rating_list_id", "period_id", "month", "run_id", "published_at", *RATING_FIELDS],
        ((pk, *fixed, *(row.get(name) for name in RATING_FIELDS)) for pk, row in zip(ids, rows)),
    )
    states = dict(prior)
    states.update((row["player_id"], row) for row in rows)
    write_list(period, revision, states)
    period.revision = revision
    period.status = RatingPeriod.Status.PUBLISHED
    period.published_at = now
    period.save(update_fields=["revision", "status", "published_at"])
    run.revision = revision
    run.save(update_fields=["revision"])
    return revision, {row["player_id"]: pk for pk, row in zip(ids, rows)}


def write_list(period, revision, states):
    from players.models import Player

    month = Month.parse(period.month)
    active = [state for state in states.values() if is_active(state, month, period.rule_set)]
    clubs = dict(Player.objects.values_list("pk", "club_id"))
    insert_rows(
        ListEntry,
        ["period_id", "revision", "player_id", "rating", "type", "category", "games", "last_played", "club_id"],
        (
            (period.pk, revision, state["player_id"], state["rating"], state["type"], state["category"],
             state["games"], state["last_played"], clubs.get(state["player_id"]))
            for state in active
        ),
    )


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
            .order_by("-rating", "player__surname", "player__forenames", "player__code")
        )


def published_list(rating_list, month: str | None = None, original=False) -> PublishedList | None:
    """A published list: the given month's (the latest by default), revised unless ``original``."""
    periods = RatingPeriod.objects.filter(rating_list=rating_list, revision__isnull=False)
    period = periods.filter(month=month).first() if month else periods.order_by("-month").first()
    if period is None:
        return None
    return PublishedList(period, 0 if original else period.revision)


def list_rows(entries):
    """The rows of a list download, in LIST_COLUMNS order."""
    for entry in entries:
        yield [
            entry.player.code, entry.player.name, entry.rating, entry.type, entry.category,
            entry.games, entry.last_played, entry.club.name if entry.club_id else "",
        ]


def list_csv(entries) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LIST_COLUMNS)
    writer.writerows(list_rows(entries))
    return out.getvalue()


def list_json(published: PublishedList, entries) -> str:
    return json.dumps(
        {
            "list": published.period.rating_list.code,
            "period": published.period.month,
            "revision": published.revision,
            "players": [dict(zip(LIST_COLUMNS, row)) for row in list_rows(entries)],
        },
        ensure_ascii=False,
        indent=1,
    ) + "\n"


# Query helpers for the public site and the API (read only).


def latest_publications(original=False) -> dict:
    """The latest published list of every list, as PublishedLists keyed by rating list id.

    One query; the periods are few (lists x months), so the latest per list is picked here.
    """
    latest = {}
    periods = RatingPeriod.objects.filter(revision__isnull=False).select_related("rating_list")
    for period in periods.order_by("rating_list__display_order", "rating_list__code", "-month"):
        if period.rating_list_id not in latest:
            latest[period.rating_list_id] = PublishedList(period, 0 if original else period.revision)
    return latest


def published_periods(rating_list):
    """The list's published periods, newest first."""
    return list(RatingPeriod.objects.filter(rating_list=rating_list, revision__isnull=False).order_by("-month"))


def player_history(player):
    """The player's current rating rows on every list, oldest first within each list."""
    return list(
        PlayerRating.objects.filter(player=player, superseded_at=None)
        .select_related("rating_list", "period")
        .order_by("rating_list__display_order", "rating_list__code", "month")
    )


def state_before(rating: PlayerRating):
    """The player's current row on the same list from the latest period before ``rating``'s."""
    return (
        PlayerRating.objects.filter(
            player_id=rating.player_id, rating_list_id=rating.rating_list_id, month__lt=rating.month, superseded_at=None
        )
        .order_by("-month")
        .first()
    )


def entries_of(publications, player_ids):
    """The ListEntry rows of ``player_ids`` on the given PublishedLists, in one query."""
    from django.db.models import Q

    if not publications:
        return ListEntry.objects.none()
    on_lists = Q()
    for published in publications:
        on_lists |= Q(period_id=published.period.pk, revision=published.revision)
    return ListEntry.objects.filter(on_lists, player_id__in=list(player_ids))
