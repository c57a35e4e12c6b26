"""Scans: every signal over a year of a list's games, the findings that touch what was asked
about stored as flags (docs/integrity.md). A month is scanned before its run (beat, nightly) and
when an officer asks; an event when an officer opens its decision page or uploads it.

A finding found again updates its open flag; one an officer cleared stays cleared. An open flag
the scan of what it touches no longer finds (its results were corrected, an event sent back) is
taken away.
"""

import logging
import time

import numpy as np
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from chess.months import Month
from common.locking import lock_number
from events.models import Event
from grading.engine.arrays import distinct
from grading.integrity.evidence import SHOWN_GAMES, Charts, GameIndex, Names
from grading.integrity.loading import window_games
from grading.integrity.records import arbiters, records
from grading.integrity.signals.watch import watch
from grading.models import Flag, RatingList, Scan
from grading.run.broker import Unreachable, send
from grading.run.periods import latest_published

logger = logging.getLogger(__name__)

# The advisory lock of a list's flags is this plus the list's id: two scans of one list store
# their flags one after the other.
FLAGS_LOCK = 7_400_000


def scan_month(rating_list, month: Month, *, acting_user=None) -> Scan:
    """Scan ``month`` of ``rating_list``: its games, read with the eleven months before."""
    started = time.monotonic()
    window = window_games(rating_list, month)
    scope = distinct(window.games.event[window.game_month == month.index])
    found = watch(window.games, window.game_month, window.events, scope, juniors=window.juniors)
    index = GameIndex(window)
    found_records = records(window, found, scope, index) + arbiters(window, found)
    with transaction.atomic():
        stored = store(rating_list, found_records, window, Q(month=str(month)))
        return Scan.objects.create(
            rating_list=rating_list,
            month=str(month),
            at=timezone.now(),
            seconds=time.monotonic() - started,
            games=int((window.game_month == month.index).sum()),
            events=len(scope),
            flags=stored,
            by=acting_user,
        )


def scan_event(event: Event) -> int:
    """Scan ``event`` (whatever its status) against its players' games of the year to its end:
    the flags that touch it. Returns how many are open."""
    month = Month.of(event.end_date)
    players = list(
        {pk for pair in event.games.rated_between_records().values_list("white_id", "black_id") for pk in pair}
    )
    window = window_games(event.rating_list, month, players=players, event=event)
    scope = np.array([event.pk])
    found = watch(window.games, window.game_month, window.events, scope, juniors=window.juniors)
    index = GameIndex(window)
    found_records = records(window, found, scope, index)
    with transaction.atomic():
        store(event.rating_list, found_records, window, Q(events=event))
    return event.flags.filter(state=Flag.State.OPEN).count()


UNDER_REVIEW = 2  # the months a nightly scan looks at, at most: the one just ended and this one


def scan_months_under_review(today) -> dict:
    """Every list's months after its latest published one, up to the current month (at most
    UNDER_REVIEW of them), scanned: {list code: [month, ...]}."""
    scanned = {}
    current = Month.of(today)
    for rating_list in RatingList.objects.all():
        latest = latest_published(rating_list)
        months = [current - back for back in range(UNDER_REVIEW - 1, -1, -1)]
        months = [month for month in months if latest is None or month > latest]
        for month in months:
            scan_month(rating_list, month)
        scanned[rating_list.code] = [str(month) for month in months]
    return scanned


def request_scan(event: Event):
    """Scan ``event`` once the current transaction commits, on a worker. A scan that cannot be
    sent is not lost: the officer's decision page scans the event again when it opens."""

    def queue():
        try:
            send("grading.tasks.scan_event", (event.pk,))
        except Unreachable as error:
            logger.warning("integrity scan of event %s: %s", event.pk, error)

    transaction.on_commit(queue)


def store(rating_list, found_records, window, covered: Q) -> int:
    """Store ``found_records`` as flags, in a handful of bulk queries whatever their number, and
    take away the open flags ``covered`` (what the scan looked at) that it did not find. Returns
    how many flags it found."""
    lock_number(FLAGS_LOCK + rating_list.pk)
    names = names_of(window, found_records)
    charts = Charts(window, {player for record in found_records for player in record.charted})
    keys = [record.key for record in found_records]
    existing = {flag.key: flag for flag in Flag.objects.filter(rating_list=rating_list, key__in=keys)}
    now, most = timezone.now(), Flag._meta.get_field("summary").max_length
    found, new = [], []
    for record in found_records:
        flag = existing.get(record.key)
        if flag is not None and flag.state == Flag.State.CLEARED:
            continue  # an officer has read it and said why it stands
        if flag is None:
            flag = Flag(rating_list=rating_list, kind=record.kind, key=record.key)
            new.append(flag)
        flag.month, flag.found_at, flag.summary = record.month, now, record.summary(names)[:most]
        flag.evidence = record.evidence(names, window, charts)
        found.append((flag, record))
    Flag.objects.bulk_create(new)
    Flag.objects.bulk_update(
        [flag for flag, _ in found if flag not in new], ["month", "found_at", "summary", "evidence"]
    )
    link_flags(found)
    stale = Flag.objects.filter(covered, rating_list=rating_list, state=Flag.State.OPEN).exclude(key__in=keys)
    Flag.objects.filter(pk__in=list(stale.values_list("pk", flat=True))).delete()
    return len(found_records)


def link_flags(found: list):
    """Each flag's events and players as its record names them, the links of all written at once."""
    flags = [flag.pk for flag, _ in found]
    for through, column, of in (
        (Flag.events.through, "event_id", lambda record: record.events),
        (Flag.players.through, "player_id", lambda record: record.players),
    ):
        through.objects.filter(flag_id__in=flags).delete()
        through.objects.bulk_create(
            through(flag_id=flag.pk, **{column: int(pk)}) for flag, record in found for pk in dict.fromkeys(of(record))
        )


def names_of(window, found_records) -> Names:
    games = window.games
    shown = np.concatenate([record.games[:SHOWN_GAMES] for record in found_records] or [np.zeros(0, np.int64)])
    players = {p for record in found_records for p in record.charted}
    players |= set(games.white[shown].tolist()) | set(games.black[shown].tolist())
    events = {e for record in found_records for e in record.events} | set(games.event[shown].tolist())
    return Names(players, events, {record.arbiter for record in found_records if record.arbiter})
