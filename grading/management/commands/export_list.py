import sys

from django.core.management.base import BaseCommand, CommandError

from chess.months import Month
from grading.models import RatingList
from grading.selectors.downloads import download_rows, export_json, list_csv
from grading.selectors.history import published_list


class Command(BaseCommand):
    help = "Write a published rating list, as the public download gives it (CSV or JSON)."

    def add_arguments(self, parser):
        parser.add_argument("--list", dest="list_code", required=True)
        parser.add_argument("--period", required=True, help="YYYY-MM")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")
        parser.add_argument("--original", action="store_true", help="the list as first published, not as revised")
        parser.add_argument("-o", "--output", help="write to this file instead of standard output")

    def handle(self, *args, list_code, period, format, original, output, **options):
        rating_list = RatingList.objects.filter(code=list_code).first()
        if rating_list is None:
            codes = ", ".join(RatingList.objects.values_list("code", flat=True))
            raise CommandError(f"--list: no rating list {list_code!r} (lists: {codes})", returncode=2)
        try:
            Month.parse(period)
        except ValueError as error:
            raise CommandError(f"--period: {error}", returncode=2) from None
        published = published_list(rating_list, period, original=original)
        if published is None:
            raise CommandError(f"{rating_list.code} has no list published for {period}", returncode=2)
        rows = download_rows(published, published.entries())
        text = list_csv(rows) if format == "csv" else export_json(published, rows)
        if output:
            try:
                with open(output, "w", encoding="utf-8", newline="") as handle:
                    handle.write(text)
            except OSError as error:
                raise CommandError(f"-o: cannot write {output}: {error.strerror}", returncode=2) from None
        else:
            sys.stdout.write(text)
