"""What a worker does with a queued simulation (docs/laboratory.md): its span rated again, month
by month, under its rules from the states published before it, and compared with what was
published. Apart from the actions on simulations (laboratory/simulations.py), which queue this
work through laboratory/tasks.py.
"""

import logging
import time

import numpy as np
from django.db import transaction
from django.utils import timezone

from chess.months import Month
from common.bulk import insert_columns
from grading.engine import RuleSet
from grading.engine.codes import TYPE_NAMES
from grading.engine.rules.categories import ages, is_junior
from grading.engine.variants import variant
from grading.models import PlayerRating, RatingPeriod
from grading.run.loading import birth_dates_of, load_period
from grading.run.publishing import latest_states
from grading.run.rating import rate_loaded
from laboratory.models import SimulatedPlayer, SimulatedRating, Simulation
from laboratory.summary import summarize

logger = logging.getLogger(__name__)


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
        # FIDE's adjustment only where the simulation asks for it: at the start of its span.
        adjust = simulation.fide_adjustment and month == first
        data = load_period(period, prior=states, rules=rules, adjust=adjust)
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
