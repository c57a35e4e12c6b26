"""Live ratings: every list rated again, by the same engine, over the games approved since its
latest published list, each unpublished month in order, and stored apart (grading.models.live).

A computation is asked for after every approval, send-back and run (grading.live.requests); its task
runs a few seconds later, so that a burst of approvals is computed once. The computation takes
its list's live lock (``lock_live``): one at a time per list, never the list lock a run holds,
so neither waits for the other. One that finds the lock taken asks again a little later, and one
whose request an earlier computation already saw does nothing.
"""

import datetime
import hashlib
import logging
import time
from dataclasses import dataclass

import numpy as np
from django.db import transaction
from django.utils import timezone

from chess.months import Month
from common.bulk import replace_rows
from common.locking import Busy, lock_row, refuse_outside_transaction
from events.models import IN_RATING, Event, Game
from grading.engine import RULE_SETS
from grading.engine.arrays import distinct, find_sorted
from grading.engine.rule_sets import lists_read
from grading.live.requests import request_live_of_readers
from grading.models import LiveEntry, LiveGameNotRated, LiveList, LiveRating, RatingList, RatingPeriod
from grading.run.loading import load_period
from grading.run.periods import latest_published
from grading.run.publishing import RATING_FIELDS, States, filled, latest_states, list_columns, states_of_rows
from grading.run.rating import rate_loaded

logger = logging.getLogger(__name__)


def live_months(rating_list, today: datetime.date) -> list[Month]:
    """The months a live computation rates: those after the latest published list, up to this
    one, that have games approved (a month without games changes no state)."""
    latest = latest_published(rating_list)
    events = Event.objects.filter(rating_list=rating_list, status__in=IN_RATING)
    games = Game.objects.rated().filter(white__isnull=False, date__lte=today)
    if latest:
        # Only events that ended after the list's month can have games after it: few of them.
        events = events.filter(end_date__gt=latest.last_day())
        games = games.filter(date__gt=latest.last_day())
    games = games.filter(event__in=list(events.values_list("pk", flat=True)))
    return sorted({Month.of(day) for day in games.dates("date", "month")})


class LiveBusy(Exception):
    pass


def lock_live(rating_list) -> LiveList:
    """The list's live record, locked for this transaction; LiveBusy if another computation
    holds it. Every writer of live ratings goes through here."""
    refuse_outside_transaction("a list's live record")
    LiveList.objects.get_or_create(rating_list=rating_list)
    try:
        return lock_row(LiveList.objects.select_related("rating_list").filter(rating_list=rating_list), nowait=True)
    except Busy:
        raise LiveBusy(rating_list.code) from None


def compute_live(rating_list, requested_at=None, today=None) -> LiveList | None:
    """Rate the list's unpublished months and store them as its live ratings. Nothing is done
    (None) where a computation that began after ``requested_at`` is stored already."""
    with transaction.atomic():
        live = lock_live(rating_list)
        if requested_at and live.started_at and live.started_at >= requested_at:
            return None
        started_at, clock = timezone.now(), time.perf_counter()
        try:
            with transaction.atomic():  # a failed query must not take the record of it down too
                computed = rate_live(rating_list, today or timezone.localdate())
        except Exception as error:
            logger.exception("live ratings of %s", rating_list.code)
            LiveList.objects.filter(pk=live.pk).update(
                failed=True, message=f"{type(error).__name__}: {error}", computed_at=timezone.now()
            )
            return live
        before = live.digest
        store_live(live, computed)
        live.started_at, live.computed_at, live.seconds = started_at, timezone.now(), time.perf_counter() - clock
        live.save()
        if live.digest != before:
            request_live_of_readers(rating_list, itself=False)
    return live


@dataclass
class LiveComputation:
    """What rate_live found: each month's rows, the states before and after, the games."""

    based_on: RatingPeriod | None  # the latest published period
    months: list[Month]
    prior: States | None  # the published states it started from
    states: States | None  # after the last month
    rows_by_month: list  # [(period, RATING_FIELDS columns)]
    sides: np.ndarray  # a player id for each side of each game rated
    games: int
    events: int
    notes: list
    not_rated: list  # (Game id, why): the games FIDE's conditions leave out, every month's


def rate_live(rating_list, today: datetime.date) -> LiveComputation:
    months = live_months(rating_list, today)
    latest = latest_published(rating_list)
    based_on = RatingPeriod.objects.filter(rating_list=rating_list, month=str(latest)).first() if latest else None
    prior = states = latest_states(rating_list, months[0]) if months else None
    rows_by_month, sides, games, events, notes, not_rated = [], [], 0, set(), [], []
    for month in months:
        period = RatingPeriod.objects.filter(rating_list=rating_list, month=str(month)).first()
        if period is None:  # not queued yet: rated by the rule set in force for the month
            period = RatingPeriod(rating_list=rating_list, month=str(month), rule_set=rating_list.rule_set_for(month))
        data = load_period(period, prior=states, others=other_lists(rating_list, month, RULE_SETS[period.rule_set]))
        rows, new, _ = rate_loaded(data)
        rows_by_month.append((period, rows))
        states = states.merged(new)
        ids = data.inputs.player_ids
        sides += [ids[data.inputs.white], ids[data.inputs.black]]
        games += len(data.game_ids)
        events.update(data.event_ids)
        notes += [f"{month}: {note}" for note in data.notes]
        not_rated += data.not_rated
    played = np.concatenate(sides) if sides else np.zeros(0, dtype=np.int64)
    return LiveComputation(based_on, months, prior, states, rows_by_month, played, games, len(events), notes, not_rated)


def other_lists(rating_list, month: Month, rules) -> dict:
    """{code: States} of the lists a month of ``rating_list`` rated by ``rules`` reads: each as
    published before the month, with its own live ratings of the months between (as its run will
    have by then)."""
    read = {}
    for other in RatingList.objects.filter(code__in=lists_read(rating_list.code, rules)):
        states = latest_states(other, month)
        live = LiveRating.objects.filter(rating_list=other, month__lt=str(month)).order_by("month")
        if live.exists():
            # Month by month, each month's rows replacing the states before them.
            for earlier in live.values_list("month", flat=True).distinct():
                rows = live.filter(month=earlier).values_list(*STATE_READ)
                states = states.merged(states_of_rows(dict(zip(STATE_READ, zip(*rows)))))
        read[other.code] = states
    return read


STATE_READ = (
    "player_id",
    "rating",
    "type",
    "games",
    "opponents_total",
    "points",
    "last_played",
    "category",
    "peak",
    "pending",
    "wins",
    "draws",
    "events3",
)


def store_live(live: LiveList, computed: LiveComputation):
    """Make the list's live ratings and live list those of ``computed``, writing only the rows
    that changed: after one approval, a few hundred of a national list's hundreds of thousands."""
    rating_list = live.rating_list
    scope = ("rating_list_id = %s", [rating_list.pk])
    ratings = {name: [] for name in ("month", "rule_set", "adjustment_a", "adjustment_b", *RATING_FIELDS)}
    keys = []
    for period, rows in computed.rows_by_month:
        rows = filled(rows)
        count = len(rows["player_id"])
        for name, value in [
            ("month", period.month),
            ("rule_set", period.rule_set),
            ("adjustment_a", period.adjustment_a),
            ("adjustment_b", period.adjustment_b),
        ]:
            ratings[name] += [value] * count
        for name in RATING_FIELDS:
            ratings[name] += list(rows[name])
        keys.append(np.asarray(rows["player_id"], dtype=np.int64) * MONTHS + Month.parse(period.month).index)
    keys = np.concatenate(keys) if keys else np.zeros(0, dtype=np.int64)
    _, digests = replace_rows(LiveRating, *scope, LIVE_RATING_KEY, keys, {"rating_list_id": rating_list.pk, **ratings})
    lines, line_keys = {"player_id": []}, np.zeros(0, dtype=np.int64)
    if computed.months:
        last = computed.rows_by_month[-1][0]
        listed, columns = list_columns(last.rule_set, computed.months[-1], computed.states)
        lines = {
            **columns,
            "published_rating": published_ratings(computed.prior, listed.player_id),
            "live_games": games_of(listed.player_id, computed.sides),
        }
        line_keys = listed.player_id
    replace_rows(LiveEntry, *scope, "player_id", line_keys, {"rating_list_id": rating_list.pk, **lines})
    LiveGameNotRated.objects.filter(rating_list=rating_list).delete()
    LiveGameNotRated.objects.bulk_create(
        [LiveGameNotRated(rating_list=rating_list, game_id=game, reason=reason) for game, reason in computed.not_rated],
        batch_size=5000,
    )
    latest = computed.based_on
    live.based_on = latest
    live.based_on_revision = latest.revision if latest else None
    live.first_month = str(computed.months[0]) if computed.months else ""
    live.last_month = str(computed.months[-1]) if computed.months else ""
    live.games, live.events = computed.games, computed.events
    live.players_rated = len(distinct(keys // MONTHS))
    live.message = "; ".join(computed.notes)
    live.failed = False
    # The lists that read this one are computed again only when its ratings change.
    order = np.argsort(keys)
    live.digest = hashlib.sha256(keys[order].tobytes() + digests[order].tobytes()).hexdigest()


MONTHS = 100_000  # a live rating's key: player id x MONTHS + the month's index
LIVE_RATING_KEY = (
    f"player_id * {MONTHS} + CAST(substr(month, 1, 4) AS INTEGER) * 12 + CAST(substr(month, 6, 2) AS INTEGER) - 1"
)


def published_ratings(prior: States, player_ids: np.ndarray) -> list:
    """Each player's published rating (None: none, or still pending)."""
    found, at = find_sorted(prior.player_id, player_ids)
    ratings = prior.rating[at] if len(prior) else np.zeros(len(player_ids), dtype=np.int64)
    return [int(rating) if has and rating else None for rating, has in zip(ratings.tolist(), found.tolist())]


def games_of(player_ids: np.ndarray, played: np.ndarray) -> np.ndarray:
    """How many times each of ``player_ids`` is in ``played`` (a player id per side of a game)."""
    ids, counts = np.unique(played, return_counts=True)
    found, at = find_sorted(ids, player_ids)
    return np.where(found, counts[at] if len(ids) else 0, 0)
