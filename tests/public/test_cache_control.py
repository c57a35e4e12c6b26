"""Pages a CDN can keep (common/cache_control.py, docs/cache-control.md): every public page, feed, download and
API answer says who may keep it and how long, with an ETag; a published edition has an address
of its own and is kept long; a logged-in user's page, a page that sets a cookie, the admin's, the
arbiters' and the accounts' pages are kept by no one; a publication or a revision is seen at once
at the addresses that change."""

import datetime

import pytest
from django.conf import settings
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from common.cache_control import CHANGING, EDITION, NEVER_SHARED, STEADY, declare, policy_of
from common.memory import forget_everything
from grading.models import ListEntry
from players.models import PrivacySetting
from players.privacy import privacy_changed
from tests.builders import PlayerFactory, approved_event, succeeded, take_on

pytestmark = pytest.mark.django_db

MONTH = "/lists/otb-standard/2026-10/"

# Every kind of public page, feed, download and API answer, with the policy it goes out with.
PUBLIC = {
    "/": CHANGING,
    "/lists/": CHANGING,
    "/lists/otb-standard/": CHANGING,
    "/lists/otb-standard/?page=2&sort=name": CHANGING,
    MONTH: CHANGING,
    MONTH + "csv/": CHANGING,
    MONTH + "txt/?club=NQC": CHANGING,
    MONTH + "json/": CHANGING,
    MONTH + "zip/": CHANGING,
    MONTH + "?edition=original": EDITION,
    MONTH + "csv/?edition=original": EDITION,
    MONTH + "r0/": EDITION,
    MONTH + "r1/?sex=F": EDITION,
    MONTH + "r1/csv/?club=NQC": EDITION,
    MONTH + "r0/txt/": EDITION,
    MONTH + "r1/json/": EDITION,
    MONTH + "r0/zip/": EDITION,
    "/lists/otb-standard/2026-11/": CHANGING,  # the month under way, so far
    "/lists/otb-standard/top/": CHANGING,
    "/lists/otb-standard/live/": CHANGING,
    "/lists/otb-standard/live/csv/": CHANGING,
    "/players/?q=fletcher": CHANGING,
    "/players/200002B/": CHANGING,
    "/players/200002B/otb-standard/2026-09/": CHANGING,
    "/players/200002B/vs/200001A/": CHANGING,
    "/players/200002B/feed/": CHANGING,
    "/feeds/publications/": CHANGING,
    "/clubs/": CHANGING,
    "/clubs/NQC/": CHANGING,
    "/clubs/NQC/csv/": CHANGING,
    "/clubs/NQC/feed/": CHANGING,
    "/events/": CHANGING,
    "/events/NQ2609/": CHANGING,
    "/calculator/?list=otb-standard&player=200002B&o-0-opponent=1900&o-0-result=1": CHANGING,
    "/privacy/": CHANGING,
    "/help/": STEADY,
    "/help/d-offsets/": STEADY,
    "/help/performance/": STEADY,
    "/api/": STEADY,
    "/api/v1/openapi.json": STEADY,
    "/api/v1/": CHANGING,
    "/api/v1/players/200002B/": CHANGING,
    "/api/v1/players/?q=fletcher": CHANGING,
    "/api/v1/lists/otb-standard/": CHANGING,
    "/api/v1/lists/otb-standard/2026-10/": CHANGING,
    "/api/v1/lists/otb-standard/2026-10/?edition=original": EDITION,
    "/api/v1/lists/otb-standard/2026-10/r0/": EDITION,
    "/api/v1/clubs/NQC/": CHANGING,
    "/api/v1/events/": CHANGING,
    "/api/v1/events/NQ2609/": CHANGING,
}


@pytest.mark.parametrize("path", list(PUBLIC))
def test_every_public_answer_says_how_long_it_may_be_kept_and_a_conditional_request_gets_304(client, federation, path):
    first = client.get(path)

    assert first.status_code == 200
    assert first["Cache-Control"] == PUBLIC[path].header
    assert first["ETag"]
    # Nothing of a visitor's own: no cookie set, and the page does not vary on the cookies sent.
    assert not first.cookies and "Cookie" not in first.get("Vary", "")
    again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["Cache-Control"] == first["Cache-Control"] and again["ETag"] == first["ETag"]


def test_the_policies_say_what_docs_cache_control_md_says():
    assert EDITION.header == "public, max-age=3600, s-maxage=86400, immutable"
    assert STEADY.header == "public, max-age=300, s-maxage=3600, stale-while-revalidate=60"
    assert CHANGING.header == "public, max-age=30, s-maxage=60, stale-while-revalidate=30"
    assert NEVER_SHARED == "private, no-store"


@pytest.mark.parametrize("user", ["officer", "arbiter"])
@pytest.mark.parametrize("path", ["/", MONTH + "r1/", MONTH + "csv/", "/players/200002B/", "/help/", "/api/v1/lists/"])
def test_the_same_address_for_a_logged_in_user_is_kept_by_no_one(client, federation, request, user, path):
    client.force_login(request.getfixturevalue(user))

    response = client.get(path)

    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store" and "s-maxage" not in response["Cache-Control"]
    assert "ETag" not in response  # nothing to revalidate: no one stores it


@pytest.mark.parametrize(
    "path", ["/admin/login/", "/accounts/login/", "/accounts/password_reset/", "/arbiter/", "/admin/status/"]
)
def test_the_admin_the_arbiters_and_the_accounts_pages_are_never_shared(client, db, path):
    assert client.get(path)["Cache-Control"] == "private, no-store"


def test_the_last_word_is_the_middlewares_whatever_a_view_declares(client, federation, settings):
    settings.NEVER_SHARED_PATHS = [*settings.NEVER_SHARED_PATHS, "/help/"]

    assert client.get("/help/")["Cache-Control"] == "private, no-store"
    assert client.get("/lists/")["Cache-Control"] == CHANGING.header


@pytest.mark.parametrize("path", ["/report/?player=200002B", "/alerts/follow/?player=200002B"])
def test_a_form_that_sets_a_cookie_is_never_shared(client, federation, path):
    response = client.get(path)

    assert response.cookies["csrftoken"]  # the form's CSRF cookie
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.parametrize("path", ["/clubs/", "/help/"])
def test_a_public_page_that_sets_a_cookie_is_its_visitors_alone(client, federation, path):
    # A message left for the visitor (after confirming an alert, say) is shown on the next page,
    # which clears its cookie: that page is theirs, and not kept by the site either (public/kept.py).
    storage = CookieStorage(RequestFactory().get("/"))
    client.cookies[storage.cookie_name] = storage._encode([Message(constants.SUCCESS, "Confirmed: 1 more thing.")])

    response = client.get(path)

    assert "Confirmed: 1 more thing." in response.content.decode()
    assert storage.cookie_name in response.cookies and response["Cache-Control"] == "private, no-store"
    after = client.get(path)  # the message shown, the page is anyone's
    assert after["Cache-Control"] == PUBLIC[path].header and "Confirmed" not in after.content.decode()


def test_a_response_that_varies_on_cookie_is_never_shared(rf):
    request = rf.get("/clubs/")
    declare(request, CHANGING)
    response = HttpResponse("anyone's")
    assert policy_of(request, response) == CHANGING

    patch_vary_headers(response, ["Accept-Encoding", "Cookie"])

    assert policy_of(request, response) is None


def test_a_request_with_a_session_or_a_token_is_answered_for_its_sender_alone(client, federation):
    client.cookies[settings.SESSION_COOKIE_NAME] = "no-such-session"

    assert client.get("/help/")["Cache-Control"] == "private, no-store"
    del client.cookies[settings.SESSION_COOKIE_NAME]
    response = client.get("/api/v1/events/", HTTP_AUTHORIZATION="Bearer fr_something")
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"


def test_a_post_and_a_refusal_are_never_shared_and_an_address_with_nothing_at_it_briefly(client, federation):
    assert client.post("/report/?player=200002B", {})["Cache-Control"] == "private, no-store"
    bad = client.get("/api/v1/lists/otb-standard/?page_size=0")
    assert bad.status_code == 400 and bad["Cache-Control"] == "private, no-store"
    # A month, a revision or a player that may be published by the next visit: a changing page's minute.
    for path in (MONTH + "r2/", "/players/999999Z/", "/api/v1/lists/otb-standard/2026-10/r2/"):
        response = client.get(path)
        assert response.status_code == 404 and response["Cache-Control"] == CHANGING.header, path
    # An address no page has declared nothing: kept by no one.
    assert client.get("/nowhere/")["Cache-Control"] == "private, no-store"


def test_a_redirect_is_kept_no_longer_than_a_changing_page(client, federation):
    response = client.get("/lists/otb-standard/?period=2026-09&sex=F")

    assert response.status_code == 302 and response["Cache-Control"] == CHANGING.header


def test_the_month_and_latest_addresses_name_their_editions_own(client, federation):
    page = client.get("/lists/otb-standard/").content.decode()
    download = client.get(MONTH + "csv/?club=NQC&edition=revised")

    assert '<a href="/lists/otb-standard/2026-10/r1/" rel="bookmark" id="edition-link">' in page
    assert 'href="/lists/otb-standard/2026-10/r1/zip/"' in page
    assert download["Content-Location"] == "/lists/otb-standard/2026-10/r1/csv/?club=NQC"
    assert client.get(download["Content-Location"]).content == download.content
    original = client.get(MONTH + "json/?edition=original")
    assert "Content-Location" not in original  # its address names the edition (revision 0) already
    assert original.content == client.get(MONTH + "r0/json/").content


def test_an_editions_address_shows_that_revision_whichever_is_the_latest(client, federation):
    # 2026-10 was published with Grace Dunn at 1690, then revised to 1695.
    original, revised = client.get(MONTH + "r0/").content.decode(), client.get(MONTH + "r1/").content.decode()

    assert ">1690<" in original and ">1695<" not in original
    assert ">1695<" in revised and ">1690<" not in revised
    assert "This is the <strong>original</strong> list" in original
    files = client.get(MONTH + "r0/csv/")
    assert files["Content-Disposition"] == 'attachment; filename="otb-standard-2026-10-original.csv"'
    assert ",1690," in files.content.decode()
    api = client.get("/api/v1/lists/otb-standard/2026-10/r0/").json()
    assert (api["revision"], api["edition"]) == (0, "original")
    assert api["edition_url"] == "http://testserver/api/v1/lists/otb-standard/2026-10/r0/"
    assert client.get("/api/v1/lists/otb-standard/2026-10/r0/?edition=revised").status_code == 400


def test_a_months_latest_files_say_when_what_they_hold_last_changed(client, federation):
    response = client.get(MONTH + "csv/")

    assert response["Last-Modified"]
    assert client.get(MONTH + "csv/", HTTP_IF_MODIFIED_SINCE=response["Last-Modified"]).status_code == 304
    # What the public sees of personal data changed (a minute later: Last-Modified counts whole
    # seconds): the files are new.
    privacy_changed()
    PrivacySetting.objects.update(changed_at=timezone.now() + datetime.timedelta(minutes=1))
    forget_everything()  # the setting this process keeps
    later = client.get(MONTH + "csv/", HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])
    assert later.status_code == 200 and later["Last-Modified"] != response["Last-Modified"]
    # An edition since revised gives its ETag alone.
    assert "Last-Modified" not in client.get(MONTH + "r0/csv/")


def test_a_publication_and_a_revision_are_seen_at_once_where_addresses_change_and_an_edition_stays_as_published(
    client, db, rate
):
    PlayerFactory(code="111111A")
    PlayerFactory(code="222222B")
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1500,full,50,75000,25,2026-09")
    approved_event("OCT-A", "otb-standard", datetime.date(2026, 10, 10), [("111111A", "222222B", "1-0")])
    # Before the month is published: the latest list is 2026-09's, and the month's page says what is in it so far.
    unpublished = {path: client.get(path) for path in ("/lists/otb-standard/", MONTH)}
    assert "In it so far" in unpublished[MONTH].content.decode()
    assert unpublished[MONTH]["Cache-Control"] == CHANGING.header

    succeeded(rate("otb-standard", "2026-10"))
    for path, response in unpublished.items():
        assert client.get(path)["ETag"] != response["ETag"], path
    watched = ["/lists/otb-standard/", MONTH, MONTH + "csv/", "/players/111111A/", "/api/v1/lists/otb-standard/"]
    before = {path: client.get(path) for path in watched}
    original = client.get(MONTH + "r0/")
    assert client.get(MONTH + "r1/").status_code == 404

    # A second win, approved late: the month is rated again and revised.
    approved_event("OCT-B", "otb-standard", datetime.date(2026, 10, 20), [("111111A", "222222B", "1-0")])
    assert succeeded(rate("otb-standard", "2026-10")).revision == 1

    ratings = dict(ListEntry.objects.filter(player__code="111111A").values_list("revision", "rating"))
    assert ratings[1] > ratings[0]  # two wins rate higher than one
    for path in watched:
        after = client.get(path)
        assert after.status_code == 200 and after["ETag"] != before[path]["ETag"], path  # nothing kept stale
    latest = client.get("/lists/otb-standard/").content.decode()
    assert f">{ratings[1]}<" in latest and "/lists/otb-standard/2026-10/r1/" in latest
    assert client.get(MONTH + "csv/")["Content-Location"] == MONTH + "r1/csv/"
    # The original edition: the same address, the numbers it was published with, kept as long.
    again = client.get(MONTH + "r0/")
    assert again["Cache-Control"] == EDITION.header == original["Cache-Control"]
    assert f">{ratings[0]}<" in again.content.decode() and f">{ratings[1]}<" not in again.content.decode()
    revised = client.get(MONTH + "r1/")
    assert revised.status_code == 200 and revised["Cache-Control"] == EDITION.header
    assert f">{ratings[1]}<" in revised.content.decode()
    feed = client.get("/feeds/publications/").content.decode()
    assert "http://testserver/lists/otb-standard/2026-10/r1/" in feed
