"""manage.py simulate: a span of one list's months rated again under other rules, in process."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from chess.months import Month
from common.downloads import BOM
from laboratory.models import Simulation
from laboratory.rerating import run_simulation
from laboratory.simulations import SimulationRefused, do_start_simulation, rating_list_named, simulation_csv


def month(text):
    try:
        return Month.parse(text)
    except ValueError:
        raise CommandError(f"{text!r} is not a month (YYYY-MM)") from None


class Command(BaseCommand):
    help = (
        "Rate the months FROM to TO of a list again under other rules (a stored rule variant, a rule set, "
        'or a variant as JSON: {"base": "ecf-2024", "floors": true}), from the states published before '
        "FROM and the games as stored now, without touching a published list; print what changes."
    )

    def add_arguments(self, parser):
        parser.add_argument("--list", required=True, help="the rating list's code, e.g. otb-standard")
        parser.add_argument("--from", dest="first", required=True, type=month, help="the first month, YYYY-MM")
        parser.add_argument("--to", dest="last", required=True, type=month, help="the last month, YYYY-MM")
        parser.add_argument("--rules", required=True, help="a stored variant's name, a rule set, or JSON")
        parser.add_argument("--csv", type=Path, help="write every player compared to this file")
        parser.add_argument(
            "--fide-adjustment",
            action="store_true",
            help="raise every rating under 2000 by FIDE's adjustment of March 2024 at the start of FROM",
        )

    def handle(self, *args, list, first, last, rules, csv, fide_adjustment, **options):
        try:
            simulation = do_start_simulation(
                *(rating_list_named(list), first, last, rules),
                acting_user=None,
                queue=False,
                fide_adjustment=fide_adjustment,
            )
        except SimulationRefused as refused:
            raise CommandError(str(refused)) from None
        run_simulation(simulation.pk, progress=lambda text: self.stdout.write(f"  {text}"))
        simulation.refresh_from_db()
        if simulation.status != Simulation.Status.DONE:
            raise CommandError(f"simulation {simulation.pk} failed: {simulation.message}")
        figures = simulation.summary["compared"]
        self.stdout.write(
            f"Simulation {simulation.pk}: {simulation} in {simulation.seconds:.1f} s. "
            f"{simulation.summary['players']:,} players with a rating in the span; of the {figures['players']:,} "
            f"rated both ways, {figures['moved']:,} move ({figures['up']:,} up, {figures['down']:,} down), "
            f"mean {figures['mean']}, mean absolute {figures['mean_absolute']}."
        )
        for mark in simulation.summary["marks"]:
            self.stdout.write(
                f"  {mark['mark']} or more: {mark['published']:,} published, {mark['simulated']:,} simulated "
                f"({mark['up']:,} cross it upwards, {mark['down']:,} downwards)."
            )
        if csv:
            csv.write_text(BOM + simulation_csv(simulation), encoding="utf-8")  # as the admin sends it
            self.stdout.write(f"Written to {csv}.")
