from django.core.management.base import BaseCommand, CommandError

from chess.months import Month
from grading.models import RatingList
from grading.takeon import OPTIONAL_COLUMNS, RATING_COLUMNS, do_import_ratings
from players.csvfiles import FileRefused, read_path, refusal


class Command(BaseCommand):
    help = (
        "Store players' ratings as published for one period of a list, from a CSV with the "
        "columns " + ",".join(RATING_COLUMNS) + " and optionally " + ",".join(OPTIONAL_COLUMNS) + " (a list "
        "rated by the Elo method: the peak, and a row of type pending per month of a player's games towards "
        "a first rating). A file with any bad line imports nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the CSV file")
        parser.add_argument("--list", required=True, dest="list_code", help="the rating list code")
        parser.add_argument("--period", required=True, help="the period the ratings are for, YYYY-MM")

    def handle(self, *args, file, list_code, period, **options):
        try:
            rating_list = RatingList.objects.get(code=list_code)
        except RatingList.DoesNotExist:
            codes = ", ".join(RatingList.objects.values_list("code", flat=True))
            raise CommandError(f"--list: no rating list {list_code!r} (lists: {codes})", returncode=2) from None
        try:
            month = Month.parse(period)
        except ValueError as error:
            raise CommandError(f"--period: {error}", returncode=2) from None
        try:
            data = read_path(file)
            imported = do_import_ratings(data, rating_list, month)
        except FileRefused as refused:
            raise CommandError(refusal(file, refused), returncode=2) from None
        self.stdout.write(f"{imported.period}: {imported.created} ratings imported, {imported.updated} replaced.")
