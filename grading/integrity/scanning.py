"""Scans: every detector over a year of a list's games, the findings that touch what was asked
about stored as flags (docs/integrity.md). A month is scanned before its run (beat, nightly) and
when an officer asks; an event when an officer opens its decision page or uploads it.

A finding found again updates its open flag; one an officer cleared stays cleared. A scan
settles only what it read: a scan of one event never replaces nor takes away a flag a month's
scan found (it cannot see, say, the rebound after a thrown event). An open flag that a scan
reading everything it was based on no longer finds (its results were corrected, an event sent
back) is kept as no longer found, with when and by which scan: nothing is deleted.
"""

import logging
import time

import numpy as np
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from chess.months import Month
from common.locking import lock_number
from events.models import Event
from grading.engine.arrays import distinct
from grading.integrity.detectors.watch import watch
from grading.integrity.evidence import SHOWN_GAMES, Charts, GameIndex, Names
from grading.integrity.loading import window_games
from grading.integrity.records import arbiters, records
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
    threshold = rating_list.integrity_threshold
    found = watch(window.games, window.game_month, window.events, scope, juniors=window.juniors, threshold=threshold)
    index = GameIndex(window)
    found_records = records(window, found, scope, index) + arbiters(window, found)
    with transaction.atomic():
        scan = Scan.objects.create(
            rating_list=rating_list,
            month=str(month),
            at=timezone.now(),
            games=int((window.game_month == month.index).sum()),
            events=len(scope),
            by=acting_user,
            threshold=threshold,
            scores=len(found.scores.event),
        )
        # The month's window reads everything a flag of the month was based on.
        scan.flags = store(rating_list, found_records, window, Flag.FoundBy.MONTH, Q(month=str(month)), scan)
        scan.seconds = time.monotonic() - started
        scan.save(update_fields=["flags", "seconds"])
        return scan


def scan_event(event: Event) -> int:
    """Scan ``event`` (whatever its status) against its players' games of the year to its end:
    the flags that touch it. Returns how many are open."""
    month = Month.of(event.end_date)
    players = list(
        {pk for pair in event.games.rated_between_records().values_list("white_id", "black_id") for pk in pair}
    )
    window = window_games(event.rating_list, month, players=players, event=event)
    scope = np.array([event.pk])
    found = watch(
        window.games,
        window.game_month,
        window.events,
        scope,
        juniors=window.juniors,
        threshold=event.rating_list.integrity_threshold,
    )
    index = GameIndex(window)
    found_records = records(window, found, scope, index)
    # What this scan read in full: the flags an event's scan found of this event alone.
    alone = Flag.objects.annotate(linked=Count("events")).filter(linked=1, events=event, found_by=Flag.FoundBy.EVENT)
    with transaction.atomic():
        store(
            event.rating_list,
            found_records,
            window,
            Flag.FoundBy.EVENT,
            Q(pk__in=list(alone.values_list("pk", flat=True))),
        )
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


def store(rating_list, found_records, window, found_by, settled: Q, scan=None) -> int:
    """Store ``found_records`` as flags found by a scan of kind ``found_by``, in a handful of bulk
    queries whatever their number. A flag an officer cleared stays cleared; an open flag a month's
    scan found is left as it is by an event's (a narrower reading never replaces a wider one's).
    The open flags of ``settled`` (what this scan read everything of) that it did not find are
    kept as no longer found, by ``scan``. Returns how many flags it found."""
    lock_number(FLAGS_LOCK + rating_list.pk)
    keys = [record.key for record in found_records]
    existing = {flag.key: flag for flag in Flag.objects.filter(rating_list=rating_list, key__in=keys)}
    found_records = [record for record in found_records if not kept_as_it_is(existing.get(record.key), found_by)]
    names = names_of(window, found_records)
    charts = Charts(window, {player for record in found_records for player in record.charted})
    now, most = timezone.now(), Flag._meta.get_field("summary").max_length
    found, new = [], []
    for record in found_records:
        flag = existing.get(record.key)
        if flag is None:
            flag = Flag(rating_list=rating_list, kind=record.kind, key=record.key)
            new.append(flag)
        flag.month, flag.found_at, flag.summary = record.month, now, record.summary(names)[:most]
        flag.evidence = record.evidence(names, window, charts)
        flag.found_by, flag.state, flag.gone_at, flag.gone_by = found_by, Flag.State.OPEN, None, None
        found.append((flag, record))
    Flag.objects.bulk_create(new)
    Flag.objects.bulk_update(
        [flag for flag, _ in found if flag not in new],
        ["month", "found_at", "summary", "evidence", "found_by", "state", "gone_at", "gone_by"],
    )
    link_flags(found)
    stale = Flag.objects.filter(settled, rating_list=rating_list, state=Flag.State.OPEN).exclude(key__in=keys)
    stale.update(state=Flag.State.GONE, gone_at=now, gone_by=scan)
    return len(keys)


def kept_as_it_is(flag, found_by) -> bool:
    """Whether a scan of kind ``found_by`` leaves ``flag`` (found again) as it is: cleared by an
    officer, or open as a month's scan found it and read again by an event's."""
    if flag is None:
        return False
    if flag.state == Flag.State.CLEARED:
        return True
    return found_by == Flag.FoundBy.EVENT and flag.found_by == Flag.FoundBy.MONTH and flag.state == Flag.State.OPEN


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
