import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from grading.demo.federation import DemoRefused, load_demo
from grading.integrity.scanning import scan_month
from grading.models import RatingList, RatingRun
from grading.run.runs import do_start_rating
from grading.run.workers import wait_for


class Command(BaseCommand):
    help = (
        "Load the demo federation into an empty database (skipped if it has players), and give "
        "the user 'admin' a fresh random password, printed on screen."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=320)
        parser.add_argument("--no-admin", action="store_true", help="leave the admin user alone")
        parser.add_argument("--no-rating", action="store_true", help="do not rate the demo's months")

    def handle(self, *args, players, no_admin, no_rating, **options):
        try:
            summary = load_demo(players=players)
        except DemoRefused as reason:
            self.stdout.write(f"Demo not loaded: {reason}.")
        else:
            self.stdout.write(
                f"Demo federation loaded: {summary.players} players in {summary.clubs} clubs, "
                f"{summary.ratings} ratings taken on, {summary.events} events with {summary.games} "
                f"games from {summary.first_month} to {summary.last_month} and the month under way."
            )
            if not no_rating:
                self.rate(summary.first_month, summary.last_month)
            self.scan(summary.last_month)
        if not no_admin:
            password = secrets.token_urlsafe(12)
            admin, _ = get_user_model().objects.get_or_create(
                username="admin", defaults={"is_staff": True, "is_superuser": True}
            )
            admin.set_password(password)
            admin.save()
            self.stdout.write(self.style.SUCCESS(f"Log in as admin / {password}"))

    def rate(self, first, last):
        """Rate the demo's months on every list, month by month, as the schedule would have."""
        month, runs = first, 0
        while month <= last:
            for rating_list in RatingList.objects.all():
                run = wait_for(do_start_rating(rating_list, month, trigger="demo"))
                if run.outcome != RatingRun.Outcome.SUCCEEDED:
                    raise CommandError(f"the demo's rating of {rating_list.code} {month} {run.outcome}: {run.message}")
                runs += 1
            month += 1
        self.stdout.write(f"Rated {runs} periods: every list from {first} to {last} is published.")

    def scan(self, last):
        """The integrity watch's scan of the month just ended and the one under way, as the nightly
        one would: the demo's planted cases are flagged on the review page."""
        flags = 0
        for rating_list in RatingList.objects.all():
            for month in (last, last + 1):
                flags += scan_month(rating_list, month).flags
        self.stdout.write(f"Integrity watch: {flags} findings in {last} and {last + 1}, on the review page.")
