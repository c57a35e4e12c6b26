"""Rating one period of one list from the database: load, rate, publish, explain.

No rule lives here: the engine (grading.engine) computes every number; this module only moves
data between the database and the engine's columns.
"""

import hashlib
from dataclasses import dataclass

import numpy as np
from django.utils import timezone

from chess.months import Month
from events.models import Event, EventChange
from events.signals import steps_recorded
from grading.engine import EloPeriodResult, PendingColumns, StateColumns
from grading.engine import rate_period as engine_rate_period
from grading.engine.codes import CATEGORY_NAMES, METHOD_K, METHOD_NAMES, TYPE_NAMES
from grading.engine.numbers import points
from grading.models import GameNotRated, PlayerRating, RatingPeriod, RatingRun
from grading.run import breakdown
from grading.run.elo_results import elo_rating_columns, encode_elo, stored_positions
from grading.run.loading import load_period, rated_games
from grading.run.periods import read_publications
from grading.run.publishing import (
    CATEGORIES,
    CATEGORY_INDEX,
    FIELD_DEFAULTS,
    LIFETIME_FIELDS,
    Adjusted,
    States,
    filled,
    lifetime_columns,
    publish,
)


@dataclass
class PeriodOutcome:
    period: RatingPeriod
    games: int
    players: int
    revision: int | None  # None: the result was the one already published
    notes: tuple = ()  # what was held out of the calculation, and why


def rate_one_period(period: RatingPeriod, run, progress=lambda stage: None) -> PeriodOutcome:
    """Rate ``period`` and publish it, unless the result is what is already published."""
    progress(f"{period}: reading games and prior ratings")
    # Read before the states are: a list publishing in between makes the month look changed
    # (rated once more), never current with states older than it keeps.
    RatingPeriod.objects.filter(pk=period.pk).update(revision_due=False, states_read=read_publications(period))
    data = load_period(period)
    games, players = len(data.game_ids), len(data.inputs.player_ids)
    progress(f"{period}: rating {games} games")
    rows, new, rated = rate_loaded(data)
    # What is published, not what was read, decides: another list's states change the inputs
    # of this one (the dummy rules) far more often than its results.
    digest = result_digest(rows, data.prior, data.inputs.rules.is_elo, data.not_rated)
    if period.revision is not None and digest == published_digest(period):
        return PeriodOutcome(period, games, players, None, tuple(data.notes))
    progress(f"{period}: writing {players} ratings and the list")
    revision = publish(period, run, rows, data.prior, new)
    run.result_digest = digest
    run.save(update_fields=["result_digest"])
    run.events.add(*data.event_ids)
    GameNotRated.objects.bulk_create(
        [GameNotRated(run=run, game_id=game, reason=reason) for game, reason in data.not_rated], batch_size=5000
    )
    mark_events_rated(period)
    return PeriodOutcome(period, games, len(rated), revision, tuple(data.notes))


def rate_loaded(data) -> tuple[dict, States, np.ndarray]:
    """The engine's ratings of a loaded period: the new rows (publishing.RATING_FIELDS columns,
    with their breakdowns), the new States, and the positions of the players rated."""
    result = engine_rate_period(data.inputs)
    if isinstance(result, EloPeriodResult):
        rated = stored_positions(result)
        rows, new = elo_rating_columns(result, rated)
        rows["breakdown"] = encode_elo(result, data.game_ids, rated)
    else:
        rated = np.flatnonzero(result.players.rated)
        rows, new = rating_columns(result, rated)
        rows["breakdown"] = breakdown.encode(result, data.game_ids, rated)
    if data.adjusted is not None and len(data.adjusted):
        rows, new = with_adjusted_rows(rows, new, data.adjusted)
    return rows, new, rated


def with_adjusted_rows(rows: dict, new: States, adjusted: Adjusted) -> tuple[dict, States]:
    """The month's rows and new States with FIDE's adjustment at its start: each rated player's
    row names the rating before it (``adjusted_from``; their prior rating is the adjusted one),
    and every other player it raised has a row of their own, without games, method "adjust"."""
    before = dict(zip(adjusted.states.player_id.tolist(), adjusted.before.tolist()))
    rows = {**rows, "adjusted_from": [before.get(player) for player in rows["player_id"]]}
    only = adjusted.states.take(np.flatnonzero(~np.isin(adjusted.states.player_id, new.player_id)))
    if not len(only):
        return rows, new
    months = [str(Month.from_index(index)) if index >= 0 else "" for index in only.last_played.tolist()]
    added = {
        "player_id": only.player_id.tolist(),
        "rating": only.rating.tolist(),
        "type": [TYPE_NAMES[code] for code in only.type.tolist()],
        "games": only.games.tolist(),
        "opponents_total": only.opponents_total.tolist(),
        "points": [points(value) for value in only.points_halves.tolist()],
        "last_played": months,
        "category": [CATEGORIES[index] for index in only.category.tolist()],
        "method": [PlayerRating.Method.ADJUSTED] * len(only),
        "prior_rating": [before[player] for player in only.player_id.tolist()],
        "adjusted_from": [before[player] for player in only.player_id.tolist()],
        "peak": [peak or None for peak in only.peak.tolist()],
        **{name: getattr(only, name).tolist() for name in StateColumns.COUNTERS},
    }
    rows = filled(rows)
    return {name: list(rows[name]) + added.get(name, [FIELD_DEFAULTS.get(name)] * len(only)) for name in rows}, (
        only.merged(new)
    )


def result_digest(rows: dict, prior: States, elo: bool, not_rated) -> str:
    """SHA-256 of everything a publication shows: every new rating with how it was reached
    (its breakdown names the games), every prior state on the list (the list shows the
    players who did not play too), and the games left unrated with why (none: nothing, so a
    digest from before such games were kept stays the same). The lifetime counters and floors
    follow from those, and the peak is the Elo method's only (ECF digests stay those of before
    they were kept)."""
    hasher = hashlib.sha256()
    left_out = {*LIFETIME_FIELDS, *(() if elo else ("peak",))}
    for name in sorted(set(rows) - left_out):
        hasher.update(name.encode() + b"\x1e" + "\x1f".join(map(str, rows[name])).encode())
    prior.digest_into(hasher, elo)
    for game, reason in sorted(not_rated):
        hasher.update(f"\x1d{game}\x1f{reason}".encode())
    return hasher.hexdigest()


def published_digest(period) -> str | None:
    """The result digest of the run that published the period's current revision."""
    return (
        RatingRun.objects.filter(period=period, revision=period.revision)
        .exclude(result_digest="")
        .values_list("result_digest", flat=True)
        .first()
    )


def rating_columns(result, rated: np.ndarray) -> tuple[dict, States]:
    """The new states of the players at ``rated``: publishing.RATING_FIELDS columns, and States."""
    p = result.players
    count = len(rated)
    k_rated = p.method[rated] == METHOD_K
    p_rated = ~k_rated
    halves = p.state_points_halves[rated]
    age = p.age[rated]
    k_num, k_den = p.k_num[rated], np.where(k_rated, p.k_den[rated], 1)
    # K as a decimal of six places, rounded half up (the exact fraction is k_num / k_den).
    k_micro = (k_num * 2_000_000 + k_den) // (2 * k_den)
    month = str(result.period)
    rows = {
        "player_id": np.asarray(result.player_ids)[rated].tolist(),
        "rating": p.rating[rated].tolist(),
        "type": [TYPE_NAMES[code] for code in p.type[rated].tolist()],
        "games": p.state_games[rated].tolist(),
        "opponents_total": p.state_opponents_total[rated].tolist(),
        "points": [points(value) for value in halves.tolist()],
        "last_played": [month] * count,
        "category": [CATEGORY_NAMES[code] for code in p.category[rated].tolist()],
        "method": [METHOD_NAMES[code] for code in p.method[rated].tolist()],
        "prior_rating": [value or None for value in p.prior_rating[rated].tolist()],
        "dummy_rating": nullable(p.dummy[rated], p_rated),
        "pass1": nullable(p.pass1[rated], p_rated),
        "pass2": nullable(p.pass2[rated], p_rated),
        "k_factor": [
            f"{value // 1_000_000}.{value % 1_000_000:06d}" if k else None
            for value, k in zip(k_micro.tolist(), k_rated.tolist())
        ],
        "age": nullable(age, age >= 0),
        **lifetime_columns(p, rated),
        "peak": [peak or None for peak in p.state_peak[rated].tolist()],
    }
    new = States(
        np.asarray(result.player_ids, dtype=np.int64)[rated],
        p.rating[rated].astype(np.int64),
        p.type[rated].astype(np.int8),
        p.state_games[rated].astype(np.int64),
        p.state_opponents_total[rated].astype(np.int64),
        halves.astype(np.int64),
        np.full(count, result.period.index, dtype=np.int64),
        CATEGORY_INDEX[p.category[rated]],
        p.state_peak[rated].astype(np.int64),
        *(getattr(p, f"state_{name}")[rated].astype(np.int64) for name in StateColumns.COUNTERS),
        PendingColumns.empty(),
    )
    return rows, new


def nullable(values: np.ndarray, present: np.ndarray) -> list:
    return [value if has else None for value, has in zip(values.tolist(), present.tolist())]


def mark_events_rated(period):
    """Approved events with games in the period are now rated."""
    events = Event.objects.filter(
        pk__in=rated_games(period.rating_list, Month.parse(period.month)).values("event_id"),
        status=Event.Status.APPROVED,
    )
    now = timezone.now()
    changed = list(events)
    events.update(status=Event.Status.RATED, status_changed_at=now, status_changed_by=None)
    changes = EventChange.objects.bulk_create(
        [EventChange(event=event, status=Event.Status.RATED, at=now, note=f"rated in {period}") for event in changed]
    )
    steps_recorded.send(sender=Event, changes=changes)  # their arbiters are mailed once the run commits
