"""Simulations: a span of one list's months rated again under other rules (docs/laboratory.md).

A simulation starts from the states published before its first month and rates each month of
the span, in order, from the games as stored now, by the engine with the rules it was given,
each month's states chained to the next as a run's are. It writes only its own tables; the
lists its rules read for the dummy (OTB standard and rapid) are read as published.

Here: the actions an officer takes (start one, queue it) and what they read back (its CSV).
The rating itself is laboratory/rerating.py, which a worker runs through laboratory/tasks.py.
"""

import json

from django.db import transaction
from django.utils import timezone

from chess.months import Month
from chess.names import full_name
from common.downloads import csv_text
from grading.engine import EngineInputError
from grading.engine.variants import variant
from grading.models import RatingList, RatingPeriod
from grading.run.broker import Unreachable, send
from laboratory.models import RuleVariant, SimulatedPlayer, Simulation

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


def do_start_simulation(
    rating_list,
    first: Month,
    last: Month,
    rules: str,
    *,
    acting_user,
    queue: bool = True,
    fide_adjustment: bool = False,
) -> Simulation:
    """A simulation of ``rating_list`` from ``first`` to ``last`` under ``rules`` (rules_named),
    with FIDE's adjustment of March 2024 at the start of ``first`` if ``fide_adjustment``,
    queued for a worker when the transaction commits (``queue``), or left for the caller to run."""
    spec, name, stored = rules_named(rules)
    check_span(first, last)
    if fide_adjustment and not variant(spec).is_elo:
        raise SimulationRefused(f"--fide-adjustment: {name} is the ECF method; the adjustment leads to FIDE's rules")
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
            rules_name=name + (" with FIDE's adjustment" if fide_adjustment else ""),
            fide_adjustment=fide_adjustment,
            first_month=str(first),
            last_month=str(last),
            created_by=acting_user,
        )
        if queue:
            transaction.on_commit(lambda: send_simulation(simulation))
    return simulation


def send_simulation(simulation):
    try:
        send("laboratory.tasks.simulate", (simulation.pk,))
    except Unreachable as error:
        # Nothing takes a queued simulation up again: it is closed, and started again by hand.
        Simulation.objects.filter(pk=simulation.pk, status=Simulation.Status.QUEUED).update(
            status=Simulation.Status.FAILED,
            message=f"not started: {error}; start it again once it is back",
            finished_at=timezone.now(),
        )


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
