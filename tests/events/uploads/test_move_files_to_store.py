"""``manage.py move_files_to_store``: the files a site kept on its disk before it had an object
store are copied into the bucket under the names their rows give, read back with boto3; run again,
it copies nothing; the disk's copies go only when asked, once the store's are read back whole."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from events.models import Upload
from tests.builders import ECF_EXAMPLE, ecf_file, stored_event

pytestmark = pytest.mark.django_db

CORRECTED = ecf_file(submission_index=2)


@pytest.fixture
def on_disk(settings, tmp_path, arbiter):
    """Two uploads stored on the local disk, as the site kept them before the store."""
    settings.MEDIA_ROOT = tmp_path / "media"
    stored_event(arbiter)
    stored_event(arbiter, CORRECTED)
    return settings.MEDIA_ROOT


def move(*args):
    out = io.StringIO()
    call_command("move_files_to_store", *args, stdout=out)
    return out.getvalue()


def names():
    return sorted(Upload.objects.values_list("file", flat=True))


def test_the_files_on_the_disk_are_copied_into_the_bucket_under_their_names(on_disk, object_store):
    said = move("--from", str(on_disk))

    assert said == "2 file(s) copied into the store, 0 there already.\n"
    assert object_store.keys() == names()
    first, second = Upload.objects.order_by("pk")
    assert object_store.read(first.file.name) == ECF_EXAMPLE and object_store.read(second.file.name) == CORRECTED
    assert all((on_disk / name).exists() for name in names())  # the disk is left alone unless asked


def test_run_again_it_copies_only_what_the_store_lacks(on_disk, object_store):
    first = Upload.objects.order_by("pk").first()
    object_store.put(first.file.name, ECF_EXAMPLE)

    assert move("--from", str(on_disk)) == "1 file(s) copied into the store, 1 there already.\n"
    assert move("--from", str(on_disk)) == "0 file(s) copied into the store, 2 there already.\n"


def test_the_staff_download_reads_a_moved_file_from_the_store(on_disk, object_store, client, officer):
    move("--from", str(on_disk))
    for path in on_disk.rglob("*"):
        if path.is_file():
            path.unlink()
    client.force_login(officer)

    first = Upload.objects.order_by("pk").first()

    download = client.get(reverse("admin:events_upload_original", args=[first.pk]))

    assert b"".join(download.streaming_content) == ECF_EXAMPLE


def test_delete_local_deletes_each_disk_copy_once_the_stores_is_read_back(on_disk, object_store):
    said = move("--from", str(on_disk), "--delete-local")

    assert said == f"2 file(s) copied into the store, 0 there already, 2 deleted from {on_disk}.\n"
    assert object_store.keys() == names()
    assert [path for path in on_disk.rglob("*") if path.is_file()] == []


def test_a_file_missing_or_altered_on_the_disk_is_named_and_nothing_is_made_of_it(on_disk, object_store):
    first, second = Upload.objects.order_by("pk")
    (on_disk / first.file.name).unlink()
    (on_disk / second.file.name).write_bytes(b"#EVENT DETAILS\nedited by hand\n")

    with pytest.raises(CommandError) as refused:
        move("--from", str(on_disk), "--delete-local")

    assert str(refused.value) == (
        f"missing from {on_disk}: {first.file.name}\n"
        f"not as uploaded (its SHA-256 differs), left on the disk: {second.file.name}"
    )
    assert object_store.keys() == []
    assert (on_disk / second.file.name).exists()


def test_without_a_store_there_is_nowhere_to_move_to(on_disk):
    with pytest.raises(CommandError) as refused:
        move()

    assert str(refused.value) == (
        "the site's storage is the local disk (STORAGE_S3_BUCKET is not set): there is no store to move to"
    )


def test_a_folder_that_is_not_there_is_refused(object_store, tmp_path):
    with pytest.raises(CommandError) as refused:
        move("--from", str(tmp_path / "nowhere"))

    assert str(refused.value) == f"{tmp_path / 'nowhere'} is not a folder: nothing to move from"
