"""A pairing program uploads and submits through the API with its arbiter's token: the same check
as the upload page, answered in JSON with its line-numbered problems; the same file twice
changes nothing; one arbiter's token never reaches another's events; refusals are JSON."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from events.models import Event, EventChange, Upload
from events.tokens import do_create_token, do_revoke_token
from events.uploads import uploading
from tests.builders import DATA, ECF_EXAMPLE, ecf_file, post_nameless_file, stored_event

pytestmark = pytest.mark.django_db

UPLOADS = "/api/v1/events/"
BUNRATTY = (DATA / "trf" / "bunratty-masters-2011.trf").read_bytes()


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def program(arbiter):
    """A pairing program with the arbiter's token: a client with no session, and no CSRF token."""
    _, secret = do_create_token("Swiss Manager", acting_user=arbiter)
    return Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Bearer {secret}")


def send(client, data=ECF_EXAMPLE, filename="results.txt", **fields):
    return client.post(UPLOADS, {"file": SimpleUploadedFile(filename, data), **fields})


def test_an_upload_with_a_token_stores_the_event_as_the_arbiters_and_answers_its_report(program, arbiter):
    response = send(program)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["changed"] is True
    assert body["event"]["code"] == "NQ241001" and body["event"]["status"] == "checked"
    assert body["event"]["submit"] == "http://testserver/api/v1/events/NQ241001/submit/"
    assert body["report"]["games"]["total"] == 6 and body["report"]["errors"] == []
    event = Event.objects.get(code="NQ241001")
    assert event.arbiter == arbiter
    upload = Upload.objects.get(event=event)
    assert upload.token.name == "Swiss Manager" and upload.uploaded_by == arbiter
    note = EventChange.objects.get(event=event, status="uploaded").note
    assert note == "results.txt, submission 1, through the API (token Swiss Manager)"
    assert arbiter.api_tokens.get().last_used_at is not None


def test_a_real_trf_from_another_program_is_checked_with_the_details_the_file_lacks(program):
    response = send(
        program, BUNRATTY, "bunratty.trf", code="BUNRATTY-2011", time_control="90+30", start_date="2011-02-25"
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["event"]["code"] == "BUNRATTY-2011"
    assert len(body["report"]["players"]) == 34


def test_a_file_with_errors_is_a_422_with_its_problems_by_line_and_nothing_stored(program):
    broken = ecf_file(submission_index="many")

    response = send(program, broken)

    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "The file has 1 error: nothing was stored."
    [problem] = body["report"]["errors"]
    assert problem["line"] == 3 and "SUBMISSION INDEX" in problem["message"]
    assert not Event.objects.exists() and not Upload.objects.exists()


def test_the_same_file_twice_changes_nothing(program):
    first = send(program)
    again = send(program)

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["changed"] is False and again.json()["event"]["code"] == "NQ241001"
    assert Upload.objects.count() == 1 and EventChange.objects.filter(status="uploaded").count() == 1


def test_a_corrected_file_replaces_the_events_games(program):
    send(program)
    corrected = ecf_file(submission_index=2).replace(b"#SCORE=10#PIN2=2", b"#SCORE=01#PIN2=2")

    response = send(program, corrected)

    assert response.status_code == 201 and response.json()["event"]["submission"] == 2
    assert Upload.objects.count() == 2


def test_a_file_that_replaces_an_event_with_another_name_dates_and_format_says_what_it_changes(program):
    send(program)  # NQ241001: the ECF example, its own name and dates

    response = send(program, BUNRATTY, "bunratty.trf", code="NQ241001", time_control="90+30", start_date="2011-02-25")

    assert response.status_code == 201, response.content
    assert response.json()["report"]["changes"] == [
        "name: Northquay Autumn Congress 2026 Open → Bunratty 2011",
        "dates: 03/10/2026 to 04/10/2026 → 25/02/2011 to 27/02/2011",
        "format: ECF → TRF",
    ]
    assert (
        Event.objects.get(code="NQ241001").uploads.latest("uploaded_at").report["changes"]
        == (response.json()["report"]["changes"])
    )


def test_submitting_through_the_api_submits_once_and_a_second_call_changes_nothing(program, arbiter):
    submit = send(program).json()["event"]["submit"]

    first = program.post(submit)
    second = program.post(submit)

    assert first.status_code == 200 and first.json()["changed"] is True
    assert first.json()["event"]["status"] == "submitted"
    assert second.status_code == 200 and second.json()["changed"] is False
    assert EventChange.objects.filter(status="submitted", by=arbiter).count() == 1


def test_a_submission_finds_the_event_by_its_code_written_in_another_case(program):
    send(program)  # stored as NQ241001

    response = program.post("/api/v1/events/nq241001/submit/")

    assert response.status_code == 200 and response.json()["changed"] is True
    assert Event.objects.get(code="NQ241001").status == "submitted"


def test_an_approved_event_is_not_submitted_again_nor_replaced(program, officer):
    send(program)
    Event.objects.update(status="approved")

    assert program.post("/api/v1/events/NQ241001/submit/").status_code == 409
    response = send(program, ecf_file(submission_index=2))
    assert response.status_code == 409
    assert response.json()["error"].startswith("Nothing was stored: ")


def test_one_arbiters_token_never_reaches_another_arbiters_event(program, other_arbiter):
    stored_event(other_arbiter)  # NQ241001 is the other arbiter's

    submitted = program.post("/api/v1/events/NQ241001/submit/")
    replaced = send(program, ecf_file(submission_index=2))

    assert submitted.status_code == 404
    assert submitted.json()["error"] == "None of your events has the code 'NQ241001'."
    assert replaced.status_code == 409
    assert "belongs to another arbiter's event" in replaced.json()["error"]
    assert Event.objects.get().status == "checked" and Upload.objects.count() == 1


def test_the_file_of_another_arbiters_event_under_another_code_is_refused_and_tells_nothing_of_it(
    program, other_arbiter
):
    stored_event(other_arbiter, code="THEIRS")  # the same bytes, stored under the code THEIRS

    response = send(program, code="MINE")

    assert response.status_code == 409
    assert response.json()["error"] == (
        "Nothing was stored: this file was already uploaded for another arbiter's event: its games are stored there."
    )
    assert not Event.objects.filter(code="MINE").exists()


@pytest.mark.parametrize(
    "header, message",
    [
        (None, "Send an arbiter's API token"),
        ("Bearer fr_not-a-token", "Send an arbiter's API token"),
        ("Basic YXJiaXRlcjpwdw==", "Send an arbiter's API token"),
        ("Bearer " + "x" * 5000, "Send an arbiter's API token"),
    ],
)
def test_an_upload_without_a_token_in_use_is_a_401(header, message):
    client = Client(**({"HTTP_AUTHORIZATION": header} if header else {}))

    response = send(client)

    assert response.status_code == 401 and response.json()["error"].startswith(message)
    assert response["WWW-Authenticate"].startswith('Bearer realm="api"')
    assert not Event.objects.exists()


def test_a_revoked_token_is_a_401_saying_it_was_revoked_and_when(arbiter):
    token, secret = do_create_token("old laptop", acting_user=arbiter)
    token = do_revoke_token(token, acting_user=arbiter)

    response = send(Client(HTTP_AUTHORIZATION=f"Bearer {secret}"))

    assert response.status_code == 401 and 'error="invalid_token"' in response["WWW-Authenticate"]
    assert response.json()["error"] == (
        f"This token ('old laptop') was revoked on {timezone.localdate(token.revoked_at):%Y-%m-%d}: "
        "make a new one on My events → API tokens."
    )
    assert not Event.objects.exists()


def test_a_token_of_someone_no_longer_an_arbiter_is_a_403(program, arbiter):
    arbiter.groups.clear()

    response = send(program)

    assert response.status_code == 403 and not Event.objects.exists()


def test_a_logged_in_browser_without_a_token_cannot_upload(client, arbiter):
    client.force_login(arbiter)

    assert send(client).status_code == 401


@pytest.mark.parametrize(
    "fields, status, message",
    [
        ({"end_date": "someday"}, 400, "end_date: Enter a valid date."),
        ({"colour": "white"}, 400, "Unknown field 'colour'"),
        ({"kind": "blitzkrieg"}, 400, "kind: Select a valid choice."),
    ],
)
def test_a_wrong_field_is_a_400_naming_it(program, fields, status, message):
    response = send(program, **fields)

    assert response.status_code == status and response.json()["error"].startswith(message)
    assert not Event.objects.exists()


def test_an_upload_without_its_file_is_a_400(program):
    response = program.post(UPLOADS, {"code": "X"})

    assert response.status_code == 400
    assert response.json()["fields"] == {"file": ["Choose the file to upload."]}


def test_a_file_sent_without_a_name_is_a_400_saying_so(program):
    response = post_nameless_file(program, UPLOADS, ECF_EXAMPLE, code="NQ241001")

    assert response.status_code == 400
    assert response.json()["fields"] == {
        "file": ['The file was sent without a name (filename=""): send it with its name, such as results.trf.']
    }
    assert not Event.objects.exists()


def test_a_file_field_with_no_name_and_nothing_in_it_is_told_no_file_was_sent(program):
    response = post_nameless_file(program, UPLOADS, b"")

    assert response.status_code == 400
    assert response.json()["fields"] == {"file": ["Choose the file to upload."]}


def test_a_get_of_the_submission_reads_no_event_and_submits_nothing(program):
    send(program)

    assert program.get("/api/v1/events/NQ241001/submit/").status_code == 404
    assert Event.objects.get().status == "checked"


def test_uploads_past_the_hourly_limit_are_a_429_with_retry_after(program, settings):
    settings.API_WRITES_PER_HOUR = 2
    send(program)
    program.post("/api/v1/events/NQ241001/submit/")

    response = send(program, ecf_file(submission_index=2))

    assert response.status_code == 429 and 1 <= int(response["Retry-After"]) <= 3600
    assert response.json()["error"].startswith("At most 2 uploads and submissions an hour")


def test_the_arbiter_makes_a_token_sees_it_once_and_revokes_it(client, arbiter):
    client.force_login(arbiter)

    made = client.post(reverse("arbiter-api-tokens"), {"name": "Swiss Manager"}, follow=True).content.decode()
    token = arbiter.api_tokens.get()
    secret = made.split('<code class="secret">')[1].split("<")[0]
    assert secret.startswith("fr_") and secret.startswith(token.prefix) and len(secret) == 46
    assert secret not in client.get(reverse("arbiter-api-tokens")).content.decode()
    assert send(Client(HTTP_AUTHORIZATION=f"Bearer {secret}")).status_code == 201

    client.post(reverse("arbiter-revoke-api-token", args=[token.pk]))

    assert send(Client(HTTP_AUTHORIZATION=f"Bearer {secret}"), ecf_file(submission_index=2)).status_code == 401
    token.refresh_from_db()
    assert token.revoked_by == arbiter


def test_a_reload_after_making_a_token_makes_no_second_and_a_nul_in_its_name_is_refused(client, arbiter):
    client.force_login(arbiter)
    client.post(reverse("arbiter-api-tokens"), {"name": "Swiss Manager"})
    client.get(reverse("arbiter-api-tokens"))
    client.get(reverse("arbiter-api-tokens"))

    refused = client.post(reverse("arbiter-api-tokens"), {"name": "bad\x00name"}, follow=True).content.decode()

    assert arbiter.api_tokens.count() == 1
    assert "Null characters are not allowed." in refused


def test_the_same_file_sent_twice_at_once_is_stored_once_and_neither_call_errs(program, monkeypatch):
    """The second call, as if it had looked for the file before the first stored it: the storing
    refuses it, and the answer is the first's event, unchanged."""
    first = send(program)
    found, looks = uploading.latest_upload_of, []

    def too_early_the_first_time(user, digest):
        looks.append(digest)
        return None if len(looks) == 1 else found(user, digest)

    monkeypatch.setattr(uploading, "latest_upload_of", too_early_the_first_time)
    again = send(program)

    assert (first.status_code, again.status_code) == (201, 200) and again.json()["changed"] is False
    assert len(looks) == 2 and Upload.objects.count() == 1


def test_a_put_on_the_events_is_a_405_naming_get_and_post(program):
    response = program.put(UPLOADS)

    assert response.status_code == 405 and response["Allow"] == "GET, HEAD, POST"


def test_an_arbiter_cannot_revoke_another_arbiters_token(client, arbiter, other_arbiter):
    token, _ = do_create_token("theirs", acting_user=other_arbiter)
    client.force_login(arbiter)

    assert client.post(reverse("arbiter-revoke-api-token", args=[token.pk])).status_code == 404
    token.refresh_from_db()
    assert token.active


def test_the_token_pages_are_the_arbiters_alone(client, django_user_model):
    assert client.get(reverse("arbiter-api-tokens")).status_code == 302  # to the login
    client.force_login(django_user_model.objects.create_user("player"))
    assert client.get(reverse("arbiter-api-tokens")).status_code == 403


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"json": '{"file": "results.trf"}'}, 400, "file: Choose the file to upload."),
        ({"file": ("chart.png", (DATA / "not-results" / "chart.png").read_bytes())}, 422, "The file has 1 error"),
        ({"file": ("big.trf", b"012 x\n" * (6 * 1024 * 1024 // 6))}, 400, "file: The file is larger than 5 MB"),
        ({"file": ("\udcff\x00.trf", b"012 Open\n")}, 422, "The file has"),
        ({"file": ("results.trf", b"")}, 400, "file: The submitted file is empty."),
    ],
    ids=["json", "png", "too-large", "odd-name", "empty"],
)
def test_a_hostile_upload_is_refused_in_json_saying_what_and_nothing_is_stored(program, body, status, message):
    if "json" in body:
        response = program.post(UPLOADS, body["json"], content_type="application/json")
    else:
        name, data = body["file"]
        response = program.post(UPLOADS, {"file": SimpleUploadedFile(name.encode("utf-8", "replace").decode(), data)})

    assert response.status_code == status, response.content[:300]
    assert response.json()["error"].startswith(message)
    assert not Event.objects.exists() and not Upload.objects.exists()
