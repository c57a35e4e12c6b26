"""Players' states on a list, and publishing a period: its ratings and its list.

A player's state on a list after period P is their latest current PlayerRating row with
``month <= P``. Publishing a period supersedes the period's current rows (a revision), writes
the new ones, and writes the period's ListEntry snapshot: every player whose state is active
in P by the period's rule set. States travel as numpy columns (``States``): a national list is
hundreds of thousands of them.
"""

import json
import secrets
from dataclasses import dataclass, fields, replace
from decimal import Decimal

import numpy as np
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from chess.months import Month
from common.bulk import fetch_columns, insert_columns, is_postgresql, table, where_in
from common.locking import Busy, lock_row
from common.replica import caught_up
from grading.engine import RULE_SETS, PendingColumns, StateColumns
from grading.engine.arrays import find_sorted
from grading.engine.codes import CATEGORY_NAMES, PENDING, STATE_TYPE_CODES, TYPE_NAMES
from grading.engine.results.ecf import floors_shown
from grading.engine.rules.adjustment import adjusted_rating_columns
from grading.models import ListEntry, PlayerRating, RatingList, RatingPeriod
from players.models import Player

CATEGORIES = tuple(PlayerRating.Category.values)  # a States category is an index into this
# The engine's category codes as indexes into CATEGORIES.
CATEGORY_INDEX = np.array([CATEGORIES.index(name) if name else 0 for name in CATEGORY_NAMES], dtype=np.int8)
RATING_FIELDS = [
    "player_id",
    "rating",
    "type",
    "games",
    "opponents_total",
    "points",
    "last_played",
    "category",
    "method",
    "prior_rating",
    "dummy_rating",
    "pass1",
    "pass2",
    "k_factor",
    "peak",
    "k_rule",
    "pending",
    "age",
    "breakdown",
    "wins",
    "draws",
    "events3",
    "floor",
    "unfloored_rating",
    "adjusted_from",
]
# What a rating floor reads and shows (docs/rules.md section 14): kept and written with every
# state, but not part of what makes a publication differ from another (grading.run.rating.result_digest).
LIFETIME_FIELDS = (*StateColumns.COUNTERS, "floor", "unfloored_rating")


def lifetime_columns(players, positions: np.ndarray) -> dict:
    """LIFETIME_FIELDS columns of the rows at ``positions``, from either method's player columns."""
    floor, unfloored = floors_shown(players, positions)
    return {
        "wins": players.state_wins[positions].tolist(),
        "draws": players.state_draws[positions].tolist(),
        "events3": players.state_events3[positions].tolist(),
        "floor": floor,
        "unfloored_rating": unfloored,
    }


@dataclass
class States:
    """Players' states on one list, one entry per player, sorted by player id, with their peak
    and lifetime counters; under the Elo method a pending state has its months (``pending``,
    keyed by player id)."""

    player_id: np.ndarray
    rating: np.ndarray  # 0 for a pending state
    type: np.ndarray  # engine codes: PARTIAL, FULL, PENDING
    games: np.ndarray
    opponents_total: np.ndarray
    points_halves: np.ndarray
    last_played: np.ndarray  # Month.index, -1 never played
    category: np.ndarray  # index into CATEGORIES
    peak: np.ndarray  # 0: none (a pending state, or an ECF one never Full)
    wins: np.ndarray
    draws: np.ndarray
    events3: np.ndarray
    pending: PendingColumns  # ``player`` holds player ids, not positions

    DTYPES = [np.int64, np.int64, np.int8, np.int64, np.int64, np.int64, np.int64, np.int8, np.int64] + [np.int64] * 3

    def __len__(self):
        return len(self.player_id)

    def _per_player(self):
        return [getattr(self, f.name) for f in fields(self) if f.name != "pending"]

    def take(self, positions) -> "States":
        columns = [values[positions] for values in self._per_player()]
        return States(*columns, self.pending.select(np.isin(self.pending.player, columns[0])))

    def merged(self, newer: "States") -> "States":
        """These states with ``newer`` ones replacing those of the same players."""
        kept = self.take(~np.isin(self.player_id, newer.player_id))
        both = [np.concatenate([old, new]) for old, new in zip(kept._per_player(), newer._per_player())]
        return States(*both, kept.pending.plus(newer.pending)).take(np.argsort(both[0], kind="stable"))

    def columns_for(self, player_ids: np.ndarray) -> StateColumns:
        """The engine's StateColumns for ``player_ids`` (sorted): NO_STATE where there is none."""
        columns = StateColumns.empty(len(player_ids))
        found, positions = find_sorted(self.player_id, player_ids)
        at, source = np.flatnonzero(found), positions[found]
        for name in ("type", *StateColumns.NUMBERS, "peak", *StateColumns.COUNTERS):
            getattr(columns, name)[at] = getattr(self, name)[source]
        rows = self.pending.select(np.isin(self.pending.player, player_ids))
        return replace(columns, pending=replace(rows, player=np.searchsorted(player_ids, rows.player)))

    def digest_into(self, hasher, elo: bool):
        """The states, as a publication's digest counts them: the lifetime counters follow
        from the games and earlier states, and are left out (LIFETIME_FIELDS)."""
        for name in ("player_id", "rating", "type", "games", "opponents_total", "points_halves", "last_played"):
            hasher.update(np.ascontiguousarray(getattr(self, name)).tobytes())
        hasher.update(np.ascontiguousarray(self.category).tobytes())
        # The peak and pending months count for the Elo method only: ECF states hash as they always have.
        if elo and (self.peak.any() or len(self.pending)):
            hasher.update(np.ascontiguousarray(self.peak).tobytes())
            for name in PendingColumns.FIELDS:
                hasher.update(np.ascontiguousarray(getattr(self.pending, name)).tobytes())


def latest_states(rating_list, before: Month, among: np.ndarray | None = None) -> States:
    """Every player's current state on ``rating_list`` from the periods before ``before``
    (only those of the players ``among``, if given)."""
    types = " ".join(f"WHEN '{name}' THEN {code}" for name, code in STATE_TYPE_CODES.items())
    categories = " ".join(f"WHEN '{name}' THEN {code}" for code, name in enumerate(CATEGORIES))
    columns = (
        f"player_id, COALESCE(rating, 0), CASE type {types} END AS type, games, opponents_total, "
        "CAST(points * 2 AS INTEGER) AS points_halves, "
        "CASE WHEN last_played = '' THEN -1 ELSE CAST(substr(last_played, 1, 4) AS INTEGER) * 12 "
        "+ CAST(substr(last_played, 6, 2) AS INTEGER) - 1 END AS last_played, "
        f"CASE category {categories} END AS category, COALESCE(peak, 0), wins, draws, events3"
    )
    rows = f"FROM {table(PlayerRating)} WHERE rating_list_id = %s AND month < %s AND superseded_at IS NULL"
    params = [rating_list.pk, str(before)]
    if among is not None:  # a few players (those of events begun earlier): named in the query
        condition, values = where_in("player_id", among)
        rows += f" AND {condition}"
        params += values
    states = States(*fetch_columns(_latest(columns, rows), params, States.DTYPES, order=(0,)), PendingColumns.empty())
    waiting = states.player_id[states.type == PENDING]
    if not len(waiting):
        return states
    condition, values = where_in("player_id", waiting)
    ids, months = fetch_columns(
        _latest("player_id, pending", f"{rows} AND {condition}"), [*params, *values], [np.int64, None]
    )
    return replace(states, pending=pending_columns(ids, months))


@dataclass
class Adjusted:
    """FIDE's adjustment of March 2024 at the start of a month: the states it raised, after it,
    and each one's rating before it (docs/rules.md section 18)."""

    states: States
    before: np.ndarray

    def __len__(self):
        return len(self.before)


def with_fide_adjustment(states: States) -> tuple[States, Adjusted]:
    """``states`` with FIDE's adjustment (the engine's rule), and what it changed."""
    rating, peak = adjusted_rating_columns(states.type, states.rating, states.peak)
    raised = np.flatnonzero(rating != states.rating)
    adjusted = replace(states, rating=rating, peak=peak)
    return adjusted, Adjusted(adjusted.take(raised), states.rating[raised])


def states_at_start(rating_list, month: Month, among: np.ndarray | None = None) -> States:
    """Every player's state on ``rating_list`` at the start of ``month``: their latest before it
    (latest_states), raised by FIDE's adjustment where the month begins with it."""
    states = latest_states(rating_list, month, among)
    return with_fide_adjustment(states)[0] if rating_list.adjusted_in(str(month)) else states


def _latest(columns: str, rows: str) -> str:
    """SQL of ``columns`` of each player's newest row among ``rows``, by player id."""
    if is_postgresql():
        return f"SELECT DISTINCT ON (player_id) {columns} {rows} ORDER BY player_id, month DESC"
    return (
        f"SELECT {columns} FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY month DESC) "
        f"AS newest {rows}) latest WHERE newest = 1 ORDER BY player_id"
    )


def pending_columns(player_ids, months_by_player) -> PendingColumns:
    """PendingColumns (keyed by player id) of the ``pending`` JSON of each player."""
    rows = []
    for player, months in zip(list(player_ids), months_by_player):
        for entry in json.loads(months) if isinstance(months, str) else months:
            halves = int(Decimal(str(entry["points"])) * 2)
            rows.append((player, Month.parse(entry["month"]).index, entry["games"], entry["opponents_total"], halves))
    table_ = np.array(rows, dtype=np.int64).reshape(len(rows), 5)
    return PendingColumns(*table_.T.copy())


def states_of_rows(rows: dict) -> States:
    """The States of rating rows given as columns of RATING_FIELDS (see publish)."""
    months = {}

    def month_index(text):
        if text not in months:
            months[text] = Month.parse(text).index if text else -1
        return months[text]

    order = np.argsort(np.asarray(rows["player_id"], dtype=np.int64), kind="stable")
    waiting = [i for i, kind in enumerate(rows["type"]) if kind == "pending"]
    states = States(
        np.asarray(rows["player_id"], dtype=np.int64),
        np.array([rating or 0 for rating in rows["rating"]], dtype=np.int64),
        np.array([STATE_TYPE_CODES[name] for name in rows["type"]], dtype=np.int8),
        np.asarray(rows["games"], dtype=np.int64),
        np.asarray(rows["opponents_total"], dtype=np.int64),
        np.array([int(Decimal(str(points)) * 2) for points in rows["points"]], dtype=np.int64),
        np.array([month_index(text) for text in rows["last_played"]], dtype=np.int64),
        np.array([CATEGORIES.index(name) for name in rows["category"]], dtype=np.int8),
        np.array([peak or 0 for peak in rows["peak"]], dtype=np.int64),
        *(np.array([count or 0 for count in rows[name]], dtype=np.int64) for name in StateColumns.COUNTERS),
        pending_columns([rows["player_id"][i] for i in waiting], [rows["pending"][i] for i in waiting]),
    )
    return states.take(order)


FIELD_DEFAULTS = {
    "breakdown": "[]",
    "pending": "[]",
    "k_rule": "",
    "wins": 0,
    "draws": 0,
    "events3": 0,
}  # the rest: None


def as_columns(rows: list[dict]) -> dict:
    """Rating rows given as dicts (any of RATING_FIELDS; the rest empty) as columns."""
    return {name: [row.get(name, FIELD_DEFAULTS.get(name)) for row in rows] for name in RATING_FIELDS}


def filled(rows: dict) -> dict:
    """Columns of rating rows with every one of RATING_FIELDS: those not given, empty."""
    count = len(rows["player_id"])
    return {name: rows[name] if name in rows else [FIELD_DEFAULTS.get(name)] * count for name in RATING_FIELDS}


class RunRefused(Exception):
    """A run (or a take-on) that cannot start now; the message says why."""


def lock_list(rating_list):
    """Lock the list's row for this transaction, or refuse at once if another holds it. Every
    writer of a publication (a run, the take-on, a change of rule set) goes through here, inside
    its transaction."""
    try:
        return lock_row(RatingList.objects.filter(pk=rating_list.pk), nowait=True)
    except Busy:
        raise RunRefused(f"a rating run of {rating_list.code} is in progress: try again when it has finished") from None


def publish(period: RatingPeriod, run, rows: dict, prior: States | None = None, new: States | None = None) -> int:
    """Store ``rows`` (columns of RATING_FIELDS, equal lengths; those left out are empty) as the
    period's next publication, and its list. Returns the revision published (0 for the original list).

    ``prior`` is latest_states(period's list, period's month), read here if not given; ``new``
    is states_of_rows(rows), worked out here if not given.
    """
    lock_list(period.rating_list)  # held already by a run: taken again at no cost
    rows = filled(rows)
    now = timezone.now()
    month = Month.parse(period.month)
    revision = 0 if period.revision is None else period.revision + 1
    if prior is None:
        prior = latest_states(period.rating_list, month)
    if new is None:
        new = states_of_rows(rows)
    PlayerRating.objects.filter(period=period, superseded_at=None).update(superseded_at=now)
    fixed = {
        "rating_list_id": period.rating_list_id,
        "period_id": period.pk,
        "month": period.month,
        "run_id": run.pk,
        "published_at": now,
    }
    insert_columns(PlayerRating, {**fixed, **{name: rows[name] for name in RATING_FIELDS}})
    write_list(period, revision, prior.merged(new))
    period.revision = revision
    period.status = RatingPeriod.Status.PUBLISHED
    period.published_at = now
    period.save(update_fields=["revision", "status", "published_at"])
    transaction.on_commit(forget_publications)
    run.revision = revision
    run.save(update_fields=["revision"])
    return revision


def write_list(period: RatingPeriod, revision: int, states: States):
    """The period's list: the players of ``states`` active in the period."""
    _, columns = list_columns(period.rule_set, Month.parse(period.month), states)
    insert_columns(ListEntry, {"period_id": period.pk, "revision": revision, **columns})


def list_columns(rule_set: str, month: Month, states: States) -> tuple[States, dict]:
    """The players of ``states`` on the list of ``month`` by ``rule_set`` (their States), and
    their lines as columns of a ListLine."""
    # Elo ratings never lapse; a pending player has none to list, nor has a state the ECF method
    # left that the Elo method does not count as a rating (grading.engine.method_change.states_for_method).
    listed = RULE_SETS[rule_set].listed(month, states.type, states.rating, states.last_played)
    active = states.take(np.flatnonzero(listed))
    # Only an Elo list shows a state never played (-1): its ratings do not lapse, and one taken on
    # may have no last-played month.
    played, at = np.unique(active.last_played, return_inverse=True)
    months = np.array([str(Month.from_index(index)) if index >= 0 else "" for index in played.tolist()], dtype=object)
    return active, {
        "player_id": active.player_id,
        "rating": active.rating,
        "type": np.array(TYPE_NAMES, dtype=object)[active.type],
        "category": np.array(CATEGORIES, dtype=object)[active.category],
        "games": active.games,
        "last_played": months[at],
        "club_id": clubs_of(active.player_id),
    }


def clubs_of(player_ids: np.ndarray) -> list:
    """The club id (or None) of each of ``player_ids``."""
    ids, clubs = fetch_columns(
        f"SELECT id, club_id FROM {table(Player)} WHERE club_id IS NOT NULL", [], [np.int64, np.int64]
    )
    club = dict(zip(ids.tolist(), clubs.tolist()))
    return [club.get(player) for player in player_ids.tolist()]


# What the pages read of the publications is kept in the cache under a generation token
# (grading.selectors.history): publishing a period renews it.
GENERATION_KEY = "publications-generation"


def publications_generation() -> str:
    """A token that forget_publications replaces: every list's publications are keyed by it,
    so that forgetting them all is one write, whatever lists there are."""
    generation = cache.get(GENERATION_KEY)
    if generation is None:
        cache.add(GENERATION_KEY, secrets.token_hex(4), None)  # add: another process may be first
        generation = cache.get(GENERATION_KEY) or "none"
    return generation


# How long a publication waits for a streaming replica (docs/database-replica.md) to replay it
# before the pages are told of it.
REPLICA_WAIT_SECONDS = 30


def forget_publications():
    """Every list's publications are kept under the generation: a new one forgets them all (a
    reader still at work writes what it read under the old generation, never read again).

    With a replica the public pages read, the generation is renewed once the replica has the
    publication: renewed before, a page reading the replica in its lag would keep the old
    publications under the new generation for a minute."""
    caught_up(within=REPLICA_WAIT_SECONDS)
    cache.set(GENERATION_KEY, secrets.token_hex(4), None)
