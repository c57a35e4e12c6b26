"""The OpenAPI description at /api/v1/openapi.json is a valid OpenAPI 3.1 document; it names every
endpoint of api/urls.py; and every answer it documents, refusals included, is checked against a
real answer of the endpoint: exactly its schema, no field left undescribed."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from jsonschema import Draft202012Validator, FormatChecker
from openapi_spec_validator import validate

import api.urls
from events.models import Event
from events.tokens import do_create_token
from tests.builders import ECF_EXAMPLE, ecf_file, stored_event

pytestmark = pytest.mark.django_db

SUBMITTED = ecf_file(event_code="NQ-SUBMITTED", submission_index=1).replace(b"#SCORE=10#PIN2=2", b"#SCORE=01#PIN2=2")


@pytest.fixture
def document(api):
    response = api.get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


@pytest.fixture
def program(arbiter, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    _, secret = do_create_token("a pairing program", acting_user=arbiter)
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def upload(client, data=ECF_EXAMPLE, **fields):
    return client.post("/api/v1/events/", {"file": SimpleUploadedFile("results.txt", data), **fields})


def test_the_description_is_a_valid_openapi_document_served_at_its_address(document):
    validate(document)
    assert document["openapi"] == "3.1.0"
    assert document["servers"] == [{"url": "http://testserver/api/v1"}]


def test_the_description_names_every_endpoint_of_the_api(document):
    routes = set()
    for pattern in api.urls.urlpatterns:
        route = str(pattern.pattern)
        if route.startswith("v1/") and "^" not in route:
            routes.add("/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route.removeprefix("v1/")))
    # /events/{code}/submit/ is the event's address with /submit/: one route, read by the method.
    assert set(document["paths"]) == routes | {"/events/{code}/submit/"}


def answers(api, program, arbiter, other_arbiter, settings):
    """(path template, method, response) for every answer the description documents."""
    stored_event(arbiter, SUBMITTED)
    Event.objects.filter(code="NQ-SUBMITTED").update(status="submitted")
    reads = {
        "/": ["/"],
        "/openapi.json": ["/openapi.json"],
        "/players/": ["/players/?q=fletcher", "/players/", "/players/?q=fletcher&page=99"],
        "/players/{code}/": ["/players/200002B/", "/players/999999Z/"],
        "/players/{code}/ratings/": [
            "/players/200002B/ratings/",
            "/players/200002B/ratings/?period=soon",
            "/players/X/ratings/",
        ],
        "/players/{code}/games/": ["/players/200002B/games/", "/players/200002B/games/?list=nope", "/players/X/games/"],
        "/lists/": ["/lists/"],
        "/lists/{code}/": ["/lists/otb-standard/", "/lists/otb-standard/?edition=first", "/lists/nope/"],
        "/lists/{code}/live/": ["/lists/otb-standard/live/", "/lists/otb-standard/live/?page=x", "/lists/nope/live/"],
        "/lists/{code}/{month}/": [
            "/lists/otb-standard/2026-10/",
            "/lists/otb-standard/2026-10/?page_size=0",
            "/lists/otb-standard/1999-01/",
        ],
        "/lists/{code}/{month}/r{revision}/": [
            "/lists/otb-standard/2026-10/r0/",
            "/lists/otb-standard/2026-10/r0/?edition=original",
            "/lists/otb-standard/2026-10/r2/",
        ],
        "/calculator/": ["/calculator/?list=otb-standard&player=200002B&opponent=1900:1", "/calculator/?list=x"],
        "/clubs/": ["/clubs/", "/clubs/?page=0", "/clubs/?page=99"],
        "/clubs/{code}/": ["/clubs/NQC/", "/clubs/NQC/?page=-1", "/clubs/NOPE/"],
        "/events/": ["/events/", "/events/?kind=brawl", "/events/?page=99"],
        "/events/{code}/": ["/events/NQ2609/", "/events/NQ-SUBMITTED/", "/events/NOPE/"],
    }
    for template, paths in reads.items():
        for path in paths:
            yield template, "get", api.get("/api/v1" + path)
    yield "/events/", "post", upload(program, ecf_file(event_code="NQ-NEW"))  # 201
    yield "/events/", "post", upload(program, ecf_file(event_code="NQ-NEW"))  # 200: the same file again
    yield "/events/", "post", upload(program, ecf_file(submission_index="many"))  # 422
    yield "/events/", "post", upload(program, ECF_EXAMPLE, kind="brawl")  # 400
    yield "/events/", "post", upload(Client())  # 401
    stored_event(other_arbiter, ecf_file(event_code="THEIRS"))
    yield "/events/", "post", upload(program, ecf_file(event_code="THEIRS", submission_index=2))  # 409
    yield "/events/{code}/submit/", "post", program.post("/api/v1/events/NQ-NEW/submit/")  # 200
    yield "/events/{code}/submit/", "post", program.post("/api/v1/events/THEIRS/submit/")  # 404
    yield "/events/{code}/submit/", "post", program.post("/api/v1/events/NQ-SUBMITTED/submit/")  # 200, unchanged
    Event.objects.filter(code="NQ-SUBMITTED").update(status="approved")
    yield "/events/{code}/submit/", "post", program.post("/api/v1/events/NQ-SUBMITTED/submit/")  # 409
    yield "/events/{code}/submit/", "post", Client(HTTP_AUTHORIZATION="Bearer fr_x").post("/api/v1/events/A/submit/")
    disk = settings.MEDIA_ROOT
    (disk.parent / "a-file").write_text("")
    settings.MEDIA_ROOT = disk.parent / "a-file" / "media"  # the store refuses: a file where its folder goes
    yield "/events/", "post", upload(program, ecf_file(event_code="NQ-NOT-KEPT"))  # 503
    settings.MEDIA_ROOT = disk
    settings.API_WRITES_PER_HOUR = 0
    yield "/events/", "post", upload(program)  # 429
    yield "/events/{code}/submit/", "post", program.post("/api/v1/events/NQ-NEW/submit/")  # 429
    settings.API_WRITES_PER_HOUR = 120
    arbiter.groups.clear()
    yield "/events/", "post", upload(program)  # 403
    yield "/events/{code}/submit/", "post", program.post("/api/v1/events/NQ-NEW/submit/")  # 403


def test_every_documented_answer_is_a_real_answer_of_its_schema(
    document, api, program, arbiter, other_arbiter, settings
):
    documented = {
        (path, method, status)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        for status in operation["responses"]
    }
    seen = set()
    for path, method, response in answers(api, program, arbiter, other_arbiter, settings):
        status = str(response.status_code)
        assert (path, method, status) in documented, (path, method, status, response.content[:300])
        schema = document["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]
        # The schema's $refs point into the document's components: validated with them at hand.
        validator = Draft202012Validator(
            {**schema, "components": document["components"]}, format_checker=FormatChecker()
        )
        problems = [f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(response.json())]
        assert not problems, (path, method, status, problems[:5])
        seen.add((path, method, status))

    assert seen == documented
