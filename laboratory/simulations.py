"""Simulations: a span of one list's months rated again under other rules (docs/laboratory.md).

A simulation starts from the states published before its first month and rates each month of
the span, in order, from the games as stored now, by the engine with the rules it was given,
each month's states chained to the next as a run's are. It writes only its own tables; the
lists its rules read for the dummy (OTB standard and rapid) are read as published.
"""

import json
import logging
import time

import numpy as np
from django.db import transaction
from django.utils import timezone

from grading.broker import Unreachable, send
from grading.bulk import insert_columns
from grading.engine import EngineInputError, RuleSet
from grading.engine.categories import ages, is_junior
from grading.engine.codes import TYPE_NAMES
from grading.engine.periods import Month
from grading.engine.variants import variant
from grading.history import csv_text
from grading.loading import birth_dates_of, load_period
from grading.models import PlayerRating, RatingList, RatingPeriod
from grading.publishing import latest_states
from grading.rating import rate_loaded
from players.names import full_name

from .models import RuleVariant, SimulatedPlayer, SimulatedRating, Simulation
from .summary import summarize

logger = logging.getLogger(__name__)

LONGEST_SPAN = 120  # months
CSV_COLUMNS = [
    "code",
    "name",
    "published_rating",
    "published_type",
    "simulated_rating",
    "simulated_type",
    "difference",
]


class SimulationRefused(Exception):
    """A simulation that cannot be made; the message says why, naming the option."""


def rules_named(text: str):
    """(rules as stored, a name for them, the RuleVariant if one) from what an officer names: a
    stored variant, a rule set, or a variant written as JSON."""
    stored = RuleVariant.objects.filter(name=text).first()
    if stored is not None:
        return stored.spec, f"{stored.name} ({stored.rules.name})", stored
    spec = text
    if text.lstrip().startswith("{"):
        try:
            spec = json.loads(text)
        except ValueError as error:
            raise SimulationRefused(f"--rules: not valid JSON ({error})") from None
    try:
        rules = variant(spec)
    except EngineInputError as error:
        known = ", ".join(RuleVariant.objects.values_list("name", flat=True)) or "none yet"
        raise SimulationRefused(f"--{error.field}: {error.message}; stored variants: {known}") from None
    return spec, rules.name, None


def check_span(first: Month, last: Month):
    """A span the laboratory works on: the first month first, at most LONGEST_SPAN months."""
    if first > last:
        raise SimulationRefused(f"--from {first} is after --to {last}")
    months = last.index - first.index + 1
    if months > LONGEST_SPAN:
        raise SimulationRefused(f"{months} months: a span is at most {LONGEST_SPAN}")


def do_start_simulation(rating_list, first: Month, last: Month, rules: str, user, queue: bool = True) -> Simulation:
    """A simulation of ``rating_list`` from ``first`` to ``last`` under ``rules`` (rules_named),
    queued for a worker when the transaction commits (``queue``), or left for the caller to run."""
    spec, name, stored = rules_named(rules)
    check_span(first, last)
    latest = (
        RatingPeriod.objects.published()
        .filter(rating_list=rating_list)
        .order_by("-month")
        .values_list("month", flat=True)
    ).first()
    if latest is None or str(last) > latest:
        raise SimulationRefused(
            f"--to {last}: the {rating_list.code} list is published up to {latest or 'no month yet'}; "
            "a simulation compares published months"
        )
    with transaction.atomic():
        simulation = Simulation.objects.create(
            rating_list=rating_list,
            variant=stored,
            rules=spec,
            rules_name=name,
            first_month=str(first),
            last_month=str(last),
            created_by=user,
        )
        if queue:
            transaction.on_commit(lambda: send_simulation(simulation))
    return simulation


def send_simulation(simulation):
    from .tasks import simulate

    try:
        send(simulate, (simulation.pk,))
    except Unreachable as error:
        # Nothing takes a queued simulation up again: it is closed, and started again by hand.
        Simulation.objects.filter(pk=simulation.pk, status=Simulation.Status.QUEUED).update(
            status=Simulation.Status.FAILED,
            message=f"not started: {error}; start it again once it is back",
            finished_at=timezone.now(),
        )


def run_simulation(simulation_pk: int, progress=lambda text: None) -> Simulation | None:
    """Rate a queued simulation's span; None where another worker has it already."""
    claimed = Simulation.objects.filter(pk=simulation_pk, status=Simulation.Status.QUEUED).update(
        status=Simulation.Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return None
    simulation = Simulation.objects.select_related("rating_list").get(pk=simulation_pk)
    clock = time.perf_counter()
    try:
        rate_span(simulation, variant(simulation.rules), progress)
    except Exception as error:
        logger.exception("simulation %s", simulation_pk)
        finish(simulation, Simulation.Status.FAILED, clock, message=f"{type(error).__name__}: {error}")
        return simulation
    finish(simulation, Simulation.Status.DONE, clock)
    return simulation


def finish(simulation, status, clock, message=""):
    simulation.status, simulation.message = status, message
    simulation.finished_at, simulation.seconds = timezone.now(), time.perf_counter() - clock
    simulation.progress = "" if status == Simulation.Status.DONE else simulation.progress
    simulation.save(update_fields=["status", "message", "finished_at", "seconds", "progress", "summary"])


def rate_span(simulation: Simulation, rules: RuleSet, progress):
    rating_list = simulation.rating_list
    first, last = Month.parse(simulation.first_month), Month.parse(simulation.last_month)
    states = latest_states(rating_list, first)
    spanned = RatingPeriod.objects.filter(rating_list=rating_list, month__gte=str(first), month__lte=str(last))
    periods = {period.month: period for period in spanned}
    last_category = {}
    month = first
    while month <= last:
        note(simulation, f"{month}: rating", progress)
        # A month with no list yet is rated as its run would be; the rules are the simulation's.
        period = periods.get(str(month)) or RatingPeriod(rating_list=rating_list, month=str(month))
        data = load_period(period, prior=states, rules=rules)
        rows, new, _ = rate_loaded(data)
        with transaction.atomic():
            insert_columns(
                SimulatedRating,
                {
                    "simulation_id": simulation.pk,
                    "month": str(month),
                    **{name: rows[name] for name in ("player_id", "rating", "type", "category", "method")},
                },
            )
        last_category.update(zip(rows["player_id"], rows["category"]))
        states = states.merged(new)
        note(simulation, f"{month}: {len(rows['player_id']):,} players rated", progress)
        month += 1
    note(simulation, "comparing with the published ratings", progress)
    compare(simulation, rating_list, first, last, states, last_category)


def note(simulation, text, progress):
    Simulation.objects.filter(pk=simulation.pk).update(progress=text[:200])
    simulation.progress = text[:200]
    progress(text)


def compare(simulation, rating_list, first: Month, last: Month, simulated, last_category: dict):
    """Each player with a rating in the span, published or simulated: both ratings at its end."""
    published_ids = PlayerRating.objects.filter(
        rating_list=rating_list, month__gte=str(first), month__lte=str(last), superseded_at=None
    ).values_list("player_id", flat=True)
    players = np.union1d(np.fromiter(published_ids, dtype=np.int64), np.asarray(list(last_category), dtype=np.int64))
    published = latest_states(rating_list, last + 1, among=players) if len(players) else None
    # Junior as the engine has it, on the first day after the span.
    junior = is_junior(ages(birth_dates_of(players, last + 1), last + 1), variant(simulation.rules)).tolist()
    published_rating, published_type = ratings_and_types(published, players)
    simulated_rating, simulated_type = ratings_and_types(simulated, players)
    columns = {
        "player_id": players.tolist(),
        "published_rating": published_rating,
        "published_type": published_type,
        "simulated_rating": simulated_rating,
        "simulated_type": simulated_type,
        "difference": [
            sim - pub if sim is not None and pub is not None else None
            for pub, sim in zip(published_rating, simulated_rating)
        ],
        "category": [last_category.get(player, "") for player in players.tolist()],
        "junior": junior,
    }
    with transaction.atomic():
        insert_columns(SimulatedPlayer, {"simulation_id": simulation.pk, **columns})
    simulation.summary = summarize(simulation, columns)


def ratings_and_types(states, players: np.ndarray) -> tuple[list, list]:
    """The rating and type name of each of ``players`` (sorted) in ``states``, the run's States:
    None and "" where there is none; a pending state has no rating."""
    if states is None:
        return [None] * len(players), [""] * len(players)
    columns = states.columns_for(players)
    kinds = [TYPE_NAMES[code] or "" for code in columns.type.tolist()]
    ratings = [None if kind in ("", "pending") else rating for kind, rating in zip(kinds, columns.rating.tolist())]
    return ratings, kinds


def simulation_csv(simulation: Simulation) -> str:
    """Every player compared, by code: docs/laboratory.md's CSV."""
    rows = (
        SimulatedPlayer.objects.filter(simulation=simulation)
        .select_related("player")
        .order_by("player__code")
        .values_list(
            "player__code",
            "player__surname",
            "player__forenames",
            "published_rating",
            "published_type",
            "simulated_rating",
            "simulated_type",
            "difference",
        )
    )
    lines = (
        [code, full_name(surname, forenames), *("" if v is None else v for v in rest)]
        for code, surname, forenames, *rest in rows
    )
    return csv_text(CSV_COLUMNS, lines)


def rating_list_named(code: str) -> RatingList:
    rating_list = RatingList.objects.filter(code=code).first()
    if rating_list is None:
        known = ", ".join(RatingList.objects.values_list("code", flat=True))
        raise SimulationRefused(f"--list: no rating list {code!r} (lists: {known})")
    return rating_list
