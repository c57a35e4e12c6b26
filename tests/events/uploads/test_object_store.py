"""Every stored file on an S3-compatible object store (docs/deployment.md): an upload through the
arbiters' page or the API lands in the bucket, read back with boto3 directly; staff download it
through the site, streamed from the store; an upload deleted takes its object with it; and no page
ever shows where the store is. The store is moto's server, a real process (tests/s3_server.py)."""

import hashlib
import urllib.error
import urllib.request

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse

from events.models import Event, Upload
from events.signals import results_stored
from events.tokens import do_create_token
from tests.builders import ECF_EXAMPLE, ecf_file, upload
from tests.s3_server import s3_server, site_stores_in

pytestmark = pytest.mark.django_db

DIGEST = hashlib.sha256(ECF_EXAMPLE).hexdigest()


@pytest.fixture
def disk(settings, tmp_path):
    """The local folder the site would use without a store: nothing may land there."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def files_on(folder):
    return sorted(path.name for path in folder.rglob("*") if path.is_file()) if folder.exists() else []


def test_an_upload_through_the_arbiters_page_lands_in_the_bucket_and_not_on_the_disk(
    client, arbiter, object_store, disk
):
    client.force_login(arbiter)

    response = upload(client, ECF_EXAMPLE)

    assert response.status_code == 302
    stored = Upload.objects.get()
    assert stored.file.name == f"uploads/{stored.uploaded_at:%Y/%m}/{DIGEST}"
    assert object_store.keys() == [stored.file.name]
    assert object_store.read(stored.file.name) == ECF_EXAMPLE
    assert files_on(disk) == []


def test_an_upload_through_the_api_lands_in_the_bucket(arbiter, object_store, disk):
    _, secret = do_create_token("Swiss Manager", acting_user=arbiter)
    program = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")

    response = program.post("/api/v1/events/", {"file": SimpleUploadedFile("results.txt", ECF_EXAMPLE)})

    assert response.status_code == 201, response.content
    assert object_store.keys() == [Upload.objects.get().file.name]
    assert object_store.read(Upload.objects.get().file.name) == ECF_EXAMPLE
    assert files_on(disk) == []


def test_a_corrected_file_is_a_second_object_and_the_first_stays_for_the_record(client, arbiter, object_store):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    corrected = ecf_file(submission_index=2)

    upload(client, corrected)

    first, second = Upload.objects.order_by("uploaded_at", "pk")
    assert object_store.keys() == sorted([first.file.name, second.file.name])
    assert (object_store.read(first.file.name), object_store.read(second.file.name)) == (ECF_EXAMPLE, corrected)


def test_staff_download_the_file_streamed_from_the_store_and_check_and_approve_its_event(
    client, arbiter, officer, object_store
):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    event = Event.objects.get()
    client.post(reverse("arbiter-submit", args=[event.pk]))
    stored = Upload.objects.get()
    client.force_login(officer)

    download = client.get(reverse("admin:events_upload_original", args=[stored.pk]))
    decision = client.get(reverse("admin:events_event_decide", args=[event.pk])).content.decode()
    approved = client.post(reverse("admin:events_event_decide", args=[event.pk]), {"approve": "Approve"})

    assert download.status_code == 200 and download.streaming
    assert download["Content-Disposition"] == 'attachment; filename="results.txt"'
    assert download["Content-Length"] == str(len(ECF_EXAMPLE))
    assert b"".join(download.streaming_content) == ECF_EXAMPLE
    assert "6, of which 5 rated" in decision
    assert approved.status_code == 302
    assert Event.objects.get().status == "approved"


def test_a_file_missing_from_the_store_is_a_clear_not_found_for_staff(client, arbiter, officer, object_store):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    stored = Upload.objects.get()
    object_store.server.client().delete_object(Bucket=object_store.name, Key=stored.file.name)
    client.force_login(officer)

    response = client.get(reverse("admin:events_upload_original", args=[stored.pk]))

    assert response.status_code == 404


def test_an_event_deleted_takes_its_files_out_of_the_store_once_the_deletion_is_committed(
    arbiter, object_store, django_capture_on_commit_callbacks
):
    # The admin keeps an event that has uploads (they are records); a deletion by other means, a
    # shell's, takes the files with the rows.
    client = Client()
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    upload(client, ecf_file(submission_index=2))
    assert len(object_store.keys()) == 2

    with django_capture_on_commit_callbacks(execute=True):
        Event.objects.get().delete()

    assert not Upload.objects.exists()
    assert object_store.keys() == []


def test_a_deletion_rolled_back_keeps_the_files(arbiter, object_store):
    client = Client()
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)

    with pytest.raises(RuntimeError), transaction.atomic():
        Event.objects.get().delete()
        raise RuntimeError("changed my mind")

    assert Upload.objects.count() == 1
    assert object_store.keys() == [Upload.objects.get().file.name]


def test_an_upload_whose_storing_fails_leaves_no_object_behind(client, arbiter, object_store):
    def refuse(**kwargs):
        raise RuntimeError("the database went away")

    results_stored.connect(refuse, dispatch_uid="test-refuse")
    client.force_login(arbiter)
    client.raise_request_exception = False
    try:
        response = upload(client, ECF_EXAMPLE)
    finally:
        results_stored.disconnect(dispatch_uid="test-refuse")

    assert response.status_code == 500
    assert not Upload.objects.exists() and object_store.keys() == []


def test_the_stored_object_is_private_and_no_page_says_where_the_store_is(client, arbiter, officer, object_store):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    event, stored = Event.objects.get(), Upload.objects.get()
    pages = [client.get(reverse("arbiter-event", args=[event.pk])), client.get(reverse("arbiter-events"))]
    client.force_login(officer)
    pages += [
        client.get(reverse("admin:events_upload_change", args=[stored.pk])),
        client.get(reverse("admin:events_upload_changelist")),
        client.get(reverse("admin:events_event_change", args=[event.pk])),
        client.get(reverse("admin:events_event_decide", args=[event.pk])),
    ]

    for page in pages:
        text = page.content.decode()
        assert page.status_code == 200
        assert object_store.name not in text and object_store.server.endpoint not in text
        assert "X-Amz" not in text and stored.file.name not in text
    grants = object_store.server.client().get_object_acl(Bucket=object_store.name, Key=stored.file.name)["Grants"]
    assert [grant["Permission"] for grant in grants] == ["FULL_CONTROL"]
    assert grants[0]["Grantee"]["Type"] == "CanonicalUser"  # the owner's: nobody else, nor AllUsers
    with pytest.raises(urllib.error.HTTPError) as anonymous:
        urllib.request.urlopen(f"{object_store.server.endpoint}/{object_store.name}/{stored.file.name}")
    assert anonymous.value.code == 403


@pytest.fixture
def store_of_its_own(settings):
    """A store this test can stop: a server of its own, not the session's."""
    with s3_server() as server:
        site_stores_in(settings, server.bucket())
        yield server


def test_with_the_store_down_an_upload_is_refused_in_words_and_the_file_is_kept_for_the_next_try(
    client, arbiter, store_of_its_own
):
    store_of_its_own.stop()
    client.force_login(arbiter)

    response = upload(client, ECF_EXAMPLE)

    page = response.content.decode()
    assert response.status_code == 200
    assert "the file store cannot be reached: nothing was stored, upload the file again in a few minutes" in page
    assert not Event.objects.exists() and not Upload.objects.exists()
    assert 'name="kept"' in page  # the next try needs no second search for the file


def test_with_the_store_down_the_api_answers_503_with_retry_after(arbiter, store_of_its_own):
    _, secret = do_create_token("Swiss Manager", acting_user=arbiter)
    program = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    store_of_its_own.stop()

    response = program.post("/api/v1/events/", {"file": SimpleUploadedFile("results.txt", ECF_EXAMPLE)})

    assert response.status_code == 503 and response["Retry-After"] == "120"
    assert response.json()["error"] == (
        "Nothing was stored: the file store cannot be reached: nothing was stored, upload the file again in a few "
        "minutes."
    )
    assert not Event.objects.exists()


def test_with_the_store_down_the_staff_download_says_so_rather_than_failing(client, arbiter, officer, store_of_its_own):
    client.force_login(arbiter)
    upload(client, ECF_EXAMPLE)
    stored = Upload.objects.get()
    client.force_login(officer)
    store_of_its_own.stop()

    down = client.get(reverse("admin:events_upload_original", args=[stored.pk]))

    assert down.status_code == 503 and down["Retry-After"] == "120"
    assert down.content.decode() == (
        "The file store cannot be reached: results.txt cannot be downloaded now. Try again in a few minutes."
    )
