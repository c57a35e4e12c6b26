"""Merging duplicate player records: their games, entries and rating history move to the record
kept, and the months they were rated in are revised. Here, not in players, because a merge
changes events and ratings too (docs/architecture.md)."""

from django.db import transaction
from django.db.models import Count, F, Min, Q
from django.utils import timezone

from common.locking import lock_rows
from events.models import Entry, Game
from grading.models import PlayerMerge, PlayerRating, RatingPeriod, RatingRun
from grading.run.runs import rate_through_latest
from players.models import Player


class MergeRefused(Exception):
    pass


def do_merge_players(keep: Player, duplicates: list[Player], *, acting_user=None) -> int:
    """Move the duplicates' games, entries and rating history to ``keep``; mark them merged.

    Lists already published keep their lines as published (under the duplicate's record). The
    kept record's ratings are then calculated again with all of its games: every published month
    of a list from the earliest in which a duplicate was rated (after the months taken on from the
    previous system) is marked for revision, and the revision starts when the merge commits. In a
    month both records are rated in, the kept record's row stands until the revision replaces it.
    Returns how many records were merged.
    """
    duplicates = [player for player in duplicates if player.pk != keep.pk]
    if not duplicates:
        raise MergeRefused("choose at least one record other than the one kept")
    ids = [player.pk for player in duplicates]
    with transaction.atomic():
        locked = lock_rows(Player.objects.filter(pk__in=[keep.pk, *ids]))
        # Read under the lock: another officer's merge, made since the page was read, is seen.
        if any(player.pk == keep.pk and player.merged_into_id for player in locked):
            raise MergeRefused(f"{keep} was itself merged into another record: keep that one")
        # One person cannot be two entries of an event (nor have played themself).
        shared = (
            Entry.objects.filter(player_id__in=[keep.pk, *ids])
            .values("event__code")
            .annotate(records=Count("player", distinct=True))
            .filter(records__gt=1)
        )
        if codes := sorted(row["event__code"] for row in shared):
            raise MergeRefused(
                f"both records play in {', '.join(codes[:5])}: one person cannot be two players "
                "of an event; correct the event first"
            )
        revisions = merge_revisions(keep, duplicates)
        now = timezone.now()
        current = PlayerRating.objects.filter(superseded_at=None)
        kept_periods = current.filter(player=keep).values("period")
        current.filter(player_id__in=ids, period__in=kept_periods).update(superseded_at=now)
        # Among the duplicates themselves, the newest record's row of a period stands.
        for rows in clashing_rows(current.filter(player_id__in=ids)).values():
            current.filter(pk__in=rows[1:]).update(superseded_at=now)
        PlayerMerge.objects.bulk_create(
            PlayerMerge(
                kept=keep,
                merged=duplicate,
                merged_by=acting_user,
                merged_at=now,
                games=Game.objects.filter(Q(white=duplicate) | Q(black=duplicate)).count(),
                ratings=PlayerRating.objects.filter(player=duplicate).count(),
            )
            for duplicate in duplicates
        )
        Game.objects.filter(white_id__in=ids).update(white=keep)
        Game.objects.filter(black_id__in=ids).update(black=keep)
        Entry.objects.filter(player_id__in=ids).update(player=keep)
        PlayerRating.objects.filter(player_id__in=ids).update(player=keep)
        # Published lists stay as they were published: their entries keep the old record.
        Player.objects.filter(merged_into_id__in=ids).update(merged_into=keep)
        Player.objects.filter(pk__in=ids).update(merged_into=keep)
        RatingPeriod.objects.filter(pk__in=[period.pk for period in revisions]).update(revision_due=True)
        trigger = f"merge of {', '.join(player.code for player in duplicates)} into {keep.code}"
        for period in revisions:
            transaction.on_commit(
                lambda rating_list=period.rating_list: rate_through_latest(rating_list, trigger, acting_user)
            )
    return len(ids)


def clashing_rows(rows) -> dict:
    """{period id: [row ids, newest record first]} of the periods two of ``rows`` share."""
    periods = {}
    for pk, period_id in rows.order_by("-player_id").values_list("pk", "period_id"):
        periods.setdefault(period_id, []).append(pk)
    return {period: pks for period, pks in periods.items() if len(pks) > 1}


def merge_revisions(keep, duplicates) -> list:
    """The published periods a merge revises, one a list: the first published month, after the
    list's months taken on, at or after the earliest month a duplicate has a rating in."""
    earliest = (
        PlayerRating.objects.filter(player__in=duplicates, superseded_at=None)
        .values("rating_list")
        .annotate(first=Min("month"))
    )
    periods = []
    for row in earliest:
        published = RatingPeriod.objects.published().filter(rating_list_id=row["rating_list"], month__gte=row["first"])
        taken_on = published.filter(runs__trigger=RatingRun.IMPORT, runs__revision=F("revision"))
        if last_taken_on := taken_on.order_by("-month").values_list("month", flat=True).first():
            published = published.filter(month__gt=last_taken_on)
        if period := published.select_related("rating_list").order_by("month").first():
            periods.append(period)
    return sorted(periods, key=lambda period: (period.rating_list.display_order, period.rating_list.code))
