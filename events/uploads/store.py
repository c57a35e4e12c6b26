"""Where the uploaded files are kept: the site's storage, the local disk (MEDIA_ROOT) or an
S3-compatible object store (config/settings.py, docs/deployment.md). A file goes with its row; the
files kept on a disk before are moved into a store (``manage.py move_files_to_store``); and
``manage.py check --deploy`` says what a store half set up, or more than one web machine, lacks."""

import hashlib
import logging
from dataclasses import dataclass, field
from pathlib import Path

from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings
from django.core.checks import Error, register
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, storages
from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from events.models import Upload
from events.workflow import WorkflowError

logger = logging.getLogger(__name__)

# What a store that cannot be written raises: a disk's OSError, boto3's errors on an object store
# (no answer, or the store's own refusal).
STORE_ERRORS = (OSError, BotoCoreError, ClientError)


class StoreUnavailable(WorkflowError):
    """The file could not be written: nothing was stored, and the same file sent again later will be."""


def keep_file(upload, data: bytes):
    """Write ``upload``'s file to the site's storage (its row is saved by the caller, in the same
    transaction). A store that cannot be reached refuses the upload in words, never with a 500."""
    try:
        upload.file.save(upload.sha256, ContentFile(data), save=False)
    except STORE_ERRORS as error:
        logger.error("An uploaded file (%s) could not be kept: %s", upload.original_name, error)
        raise StoreUnavailable(
            "the file store cannot be reached: nothing was stored, upload the file again in a few minutes"
        ) from error


def forget_file(upload):
    """Take back a file written for an upload whose rows were rolled back; a store that cannot be
    reached keeps it (an object nobody names, logged), and the refusal the caller raises stands."""
    try:
        upload.file.delete(save=False)
    except STORE_ERRORS as error:
        logger.error("A file written for an upload rolled back (%s) is left in the store: %s", upload.file.name, error)


@receiver(post_delete, sender=Upload, dispatch_uid="events.uploads.store.file_goes_with_its_row")
def file_goes_with_its_row(sender, instance, **kwargs):
    """An upload deleted (with its event, in the admin) takes its file with it once the deletion
    is committed: a deletion rolled back keeps both. A store that cannot be reached then leaves the
    file behind, logged, and the deletion stands."""
    if instance.file:
        storage, name = instance.file.storage, instance.file.name
        transaction.on_commit(lambda: storage.delete(name), robust=True)


@dataclass
class Moved:
    """What a move into the store came to: files copied, found there already, deleted from the
    disk; and the names of those missing from the disk or no longer as uploaded (left where they are)."""

    copied: int = 0
    there_already: int = 0
    deleted: int = 0
    missing: list[str] = field(default_factory=list)
    altered: list[str] = field(default_factory=list)


class CannotMove(Exception):
    pass


def move_files_to_store(folder: Path, delete_local=False) -> Moved:
    """Copy every upload's file from ``folder`` (the MEDIA_ROOT used before the store) into the
    site's storage, under the name its row gives it; with ``delete_local``, delete the disk's copy
    once the store's is read back as uploaded (its SHA-256). Run again, it copies only what is not
    there yet."""
    store = storages["default"]
    if isinstance(store, FileSystemStorage):
        raise CannotMove(
            "the site's storage is the local disk (STORAGE_S3_BUCKET is not set): there is no store to move to"
        )
    if not folder.is_dir():
        raise CannotMove(f"{folder} is not a folder: nothing to move from")
    disk, moved = FileSystemStorage(location=folder), Moved()
    for upload in Upload.objects.exclude(file="").only("file", "sha256").order_by("pk").iterator():
        name = upload.file.name
        if store.exists(name):
            moved.there_already += 1
        elif not disk.exists(name):
            moved.missing.append(name)
            continue
        else:
            data = read(disk, name)
            if sha256(data) != upload.sha256:
                moved.altered.append(name)
                continue
            if (saved := store.save(name, ContentFile(data))) != name:  # a name taken meanwhile
                Upload.objects.filter(pk=upload.pk).update(file=saved)
                name = saved
            moved.copied += 1
        if delete_local and disk.exists(upload.file.name) and sha256(read(store, name)) == upload.sha256:
            disk.delete(upload.file.name)
            moved.deleted += 1
    return moved


def read(storage, name) -> bytes:
    with storage.open(name, "rb") as handle:
        return handle.read()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


STORE_PARTS = (
    "STORAGE_S3_ENDPOINT_URL",
    "STORAGE_S3_REGION",
    "STORAGE_S3_ACCESS_KEY_ID",
    "STORAGE_S3_SECRET_ACCESS_KEY",
)


@register(deploy=True)
def store_is_whole(app_configs, **kwargs):
    """An object store named by half its settings would keep files where nobody meant them, or
    refuse the first upload."""
    if not settings.STORAGE_S3_BUCKET:
        given = [name for name in STORE_PARTS if getattr(settings, name)]
        if not given:
            return []  # the local disk, as meant
        return [
            Error(
                f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} set without STORAGE_S3_BUCKET: uploaded "
                "files are kept on this machine's disk (MEDIA_ROOT), not in the object store.",
                hint="Set STORAGE_S3_BUCKET to the bucket's name (or unset the store's other settings).",
                id="events.E001",
            )
        ]
    found = []
    if not (settings.STORAGE_S3_ENDPOINT_URL or settings.STORAGE_S3_REGION):
        found.append(
            Error(
                "STORAGE_S3_BUCKET is set without STORAGE_S3_ENDPOINT_URL or STORAGE_S3_REGION: the store "
                "cannot be found.",
                hint="Set STORAGE_S3_ENDPOINT_URL to the S3-compatible server's address (https://s3.example.org), "
                "or STORAGE_S3_REGION to the Amazon S3 region of the bucket.",
                id="events.E002",
            )
        )
    keys = {name: getattr(settings, name) for name in ("STORAGE_S3_ACCESS_KEY_ID", "STORAGE_S3_SECRET_ACCESS_KEY")}
    missing = [name for name, value in keys.items() if not value]
    # Neither key is boto3's own finding (an instance's role on Amazon S3); a server of one's own
    # knows nothing of those.
    if len(missing) == 1 or (missing and settings.STORAGE_S3_ENDPOINT_URL):
        found.append(
            Error(
                f"STORAGE_S3_BUCKET is set without {' and '.join(missing)}: the store would refuse every upload.",
                hint="Set both keys of the store's account (STORAGE_S3_ACCESS_KEY_ID, STORAGE_S3_SECRET_ACCESS_KEY).",
                id="events.E003",
            )
        )
    return found


@register(deploy=True)
def machines_share_what_they_must(app_configs, **kwargs):
    """Web machines behind one load balancer share nothing but the database server, Redis and the
    object store: anything one of them kept for itself, the next request (on another) misses."""
    if settings.WEB_MACHINES <= 1:
        return []
    lacking = {
        "DATABASE_URL": not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
        "STORAGE_S3_BUCKET": not settings.STORAGE_S3_BUCKET,
        "CACHE_URL": not settings.CACHE_URL,
    }
    why = {
        "DATABASE_URL": "each machine would have a SQLite file of its own",
        "STORAGE_S3_BUCKET": "an event file uploaded through one machine would be on its disk only, and the "
        "others could not download it for staff to check and approve",
        "CACHE_URL": "a file refused for a detail the form gives is kept in the cache for the arbiter's next "
        "try, which another machine may answer, and a list the worker publishes would not renew the pages "
        "each machine keeps",
    }
    return [
        Error(
            f"WEB_MACHINES is {settings.WEB_MACHINES} but {name} is not set: {why[name]}.",
            hint="Give every web machine the same DATABASE_URL (PostgreSQL), CACHE_URL and STORAGE_S3_* "
            "settings (docs/deployment.md).",
            id="events.E004",
        )
        for name, missing in lacking.items()
        if missing
    ]
