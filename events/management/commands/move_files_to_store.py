from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from events.uploads.store import CannotMove, move_files_to_store


class Command(BaseCommand):
    help = (
        "Copy the uploaded files kept on this machine's disk (MEDIA_ROOT) into the object store that "
        "STORAGE_S3_BUCKET names (docs/deployment.md). Run it again at any time: it copies only what is missing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="folder", help="the folder the files are in (default: MEDIA_ROOT)")
        parser.add_argument(
            "--delete-local",
            action="store_true",
            help="delete each file from the disk once its copy in the store is read back as uploaded",
        )

    def handle(self, *args, folder, delete_local, **options):
        folder = Path(folder or settings.MEDIA_ROOT)
        try:
            moved = move_files_to_store(folder, delete_local=delete_local)
        except CannotMove as refused:
            raise CommandError(str(refused), returncode=2) from None
        self.stdout.write(
            f"{moved.copied} file(s) copied into the store, {moved.there_already} there already"
            + (f", {moved.deleted} deleted from {folder}" if delete_local else "")
            + "."
        )
        problems = [f"missing from {folder}: {name}" for name in moved.missing]
        problems += [f"not as uploaded (its SHA-256 differs), left on the disk: {name}" for name in moved.altered]
        if problems:
            raise CommandError("\n".join(problems), returncode=2)
