from django.core.management.base import BaseCommand, CommandError

from players.csvfiles import FileRefused, read_path, refusal
from players.services import PLAYER_COLUMNS, import_players


class Command(BaseCommand):
    help = (
        "Create or update players from a CSV with the columns "
        + ",".join(PLAYER_COLUMNS)
        + ". A file with any bad line imports nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the CSV file")

    def handle(self, *args, file, **options):
        try:
            data = read_path(file)
            summary = import_players(data)
        except FileRefused as refused:
            raise CommandError(refusal(file, refused), returncode=2) from None
        self.stdout.write(
            f"{summary.created} players created, {summary.updated} updated, {summary.clubs_created} clubs created."
        )
