"""Every answer of the API, refusals included, is JSON ``{"error", "status"}`` with a message:
the API's own refusals and Django's (a CSRF failure, an address that leads nowhere, a view's
PermissionDenied or BadRequest, a server error); the site's pages keep their HTML."""

import pytest
from django.core.exceptions import BadRequest, PermissionDenied
from django.test import Client

import api.views

pytestmark = pytest.mark.django_db


def refusal(response, status):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    body = response.json()
    assert body["status"] == status
    return body["error"]


@pytest.mark.parametrize("path", ["/api/v1/lists/", "/api/v1/calculator/", "/api/"])
def test_a_post_without_a_csrf_cookie_is_refused_in_json(path):
    client = Client(enforce_csrf_checks=True)

    message = refusal(client.post(path, {"list": "otb-standard"}), 403)

    assert message == "Refused (CSRF cookie not set): this resource is read only, use GET."


def test_a_post_without_a_csrf_cookie_to_a_page_of_the_site_is_djangos_html_page():
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x", "password": "y"})

    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    assert "CSRF verification failed" in response.content.decode()


def test_a_post_to_the_apis_documentation_with_its_token_is_a_json_405(client):
    response = client.post("/api/")

    assert refusal(response, 405) == "This resource is read only: use GET."
    assert response["Allow"] == "GET, HEAD"


@pytest.mark.parametrize("path", ["/api/v2/lists/", "/api/nothing", "/api/v1/lists/otb-standard/2026-10/x/"])
def test_an_address_under_the_api_that_leads_nowhere_is_a_json_404(client, path):
    assert refusal(client.get(path), 404) == f"No API resource at {path}: see /api/ for the documentation."


def test_an_address_of_the_site_that_leads_nowhere_is_its_html_page(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404 and "<h1>Not found</h1>" in response.content.decode()


def test_a_nul_in_an_api_address_is_a_json_400_and_a_plain_one_elsewhere(client):
    message = "The address contains a NUL character (%00), which no page accepts."

    assert refusal(client.get("/api/v1/players/", {"q": "fle\x00tcher"}), 400) == message
    page = client.get("/players/", {"q": "fle\x00tcher"})
    assert (page.status_code, page["Content-Type"], page.content.decode()) == (
        400,
        "text/plain; charset=utf-8",
        message,
    )


@pytest.mark.parametrize(
    "raised, status, message",
    [
        (PermissionDenied("The list is closed."), 403, "The list is closed."),
        (PermissionDenied(), 403, "Not allowed."),
        (BadRequest("The request is malformed."), 400, "The request is malformed."),
        (
            RuntimeError("a bug"),
            500,
            "Something went wrong on the server; the error has been logged. Try again in a moment.",
        ),
    ],
)
def test_what_a_view_raises_past_the_apis_own_errors_is_answered_in_json(monkeypatch, raised, status, message):
    def fails(code):
        raise raised

    monkeypatch.setattr(api.views, "list_publications", fails)  # the first call of a list's view
    client = Client(raise_request_exception=False)

    assert refusal(client.get("/api/v1/lists/otb-standard/"), status) == message
