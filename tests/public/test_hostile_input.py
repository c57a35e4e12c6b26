"""Whatever a URL holds, the answer is a page or a clear 4xx, never a server error: a NUL
character (which PostgreSQL refuses in any text) is a 400 wherever it is; other odd values are
read as what they are (no such page, an invalid filter)."""

import pytest

PAGES = [
    "/",
    "/lists/",
    "/lists/otb-standard/",
    "/lists/otb-standard/2026-10/",
    "/lists/otb-standard/2026-10/csv/",
    "/lists/otb-standard/top/",
    "/top/",
    "/players/",
    "/players/200001A/",
    "/clubs/",
    "/clubs/NQC/",
    "/events/",
    "/api/v1/players/",
    "/api/v1/lists/otb-standard/",
    "/api/v1/clubs/",
    "/api/v1/events/",
    "/admin/login/",
    "/calculator/",
    "/api/v1/calculator/",
    "/help/",
    "/lists/otb-standard/2026-10/txt/",
    "/lists/otb-standard/2026-10/json/",
    "/lists/otb-standard/live/",
    "/clubs/NQC/csv/",
    "/feeds/publications/",
    "/lists/otb-standard/2026-11/",
    "/alerts/",
    "/alerts/follow/",
    "/report/",
    "/api/v1/openapi.json",
    "/players/200002B/vs/200003C/",
    "/players/200002B/vs/",
]
PARAMETERS = [
    "q",
    "code",
    "club",
    "sex",
    "age",
    "category",
    "type",
    "kind",
    "sort",
    "page",
    "month",
    "list",
    "revision",
    "status",
    "opponent",
    "player",
    "event",
]
ODD_VALUES = ["99999999999999999999", "-1", "2026-13", "2026-02-30", "0000-01", "' OR 1=1 --", "%_\\", "a" * 5000]


@pytest.mark.parametrize("page", PAGES)
def test_a_nul_in_a_search_or_filter_is_refused_with_a_clear_message(client, federation, page):
    for name in PARAMETERS:
        response = client.get(page, {name: "fle\x00tcher"})

        assert response.status_code == 400, (page, name)
        assert "NUL character" in response.content.decode()


@pytest.mark.parametrize(
    "path",
    [
        "/players/2000{}01A/",
        "/players/200001A/otb-standard/2026-0{}9/",
        "/clubs/N{}QC/",
        "/events/NQ{}2609/",
        "/api/v1/players/2000{}01A/",
        "/api/v1/players/2000{}01A/games/",
        "/api/v1/clubs/N{}QC/",
        "/api/v1/events/NQ{}2609/",
        "/api/v1/lists/otb-standard/2026-{}10/",
        "/static/{}x.css",
    ],
)
def test_a_nul_in_a_path_is_refused(client, federation, path):
    assert client.get(path.format("%00")).status_code == 400


def test_the_admin_search_refuses_a_nul_too(admin_client, federation):
    assert admin_client.get("/admin/players/player/", {"q": "a\x00"}).status_code == 400
    assert admin_client.get("/admin/players/player/", {"q": "Fletcher"}).status_code == 200


def test_a_search_without_nul_is_untouched(client, federation):
    page = client.get("/players/", {"q": "fletcher"}).content.decode()

    assert "Fletcher, Alice" in page and "Fletcher, David" in page


@pytest.mark.parametrize("page", PAGES[:-1])
def test_odd_values_in_any_parameter_are_never_a_server_error(client, federation, page):
    answers = {
        (name, value[:20]): client.get(page, {name: value}).status_code for name in PARAMETERS for value in ODD_VALUES
    }

    assert {key: status for key, status in answers.items() if status >= 500} == {}


@pytest.mark.parametrize(
    "path",
    [
        "/players/{long}/",
        "/clubs/{long}/",
        "/events/{long}/",
        "/api/v1/players/{long}/games/",
        "/api/v1/lists/{long}/",
        "/api/v1/lists/otb-standard/99999-01/",
        "/players/200001A/nope/2026-09/",
        "/lists/otb-standard/0000-01/",
        "/players/%ED%A0%80/",
        "/arbiter/events/{big}/",
        "/arbiter/tokens/{big}/revoke/",
        "/alerts/{long}/",
        "/alerts/{long}/confirm/",
        "/alerts/{long}/remove/{big}/",
        "/api/v1/events/{long}/submit/",
        "/admin/corrections/report/{big}/change/",
        "/admin/players/player/{big}/change/",
        "/admin/players/player/?club__id__exact={big}",
    ],
)
def test_odd_paths_are_not_found_or_refused_never_a_server_error(admin_client, federation, path):
    url = path.format(long="A" * 3000, big="9" * 20)
    assert admin_client.get(url).status_code in (200, 302, 400, 404, 405)  # 405: a GET where only a POST acts
    assert admin_client.post(url).status_code in (200, 302, 400, 401, 403, 404, 405)


@pytest.mark.parametrize(
    "url",
    [
        "/calculator/?list=otb-standard&o-0-opponent=<x>&o-0-result=1&o-TOTAL_FORMS=1&o-INITIAL_FORMS=x",
        "/calculator/?list=otb-standard&o-TOTAL_FORMS=-5&o-INITIAL_FORMS=0",
        "/calculator/?list=otb-standard&rating=1800&type=bogus&title=ZZ&o-0-opponent=1900&o-0-result=1",
        "/calculator/?list=otb-standard&rating=1800&more=1&o-TOTAL_FORMS=abc",
        "/calculator/?list=otb-standard&o-99999999999999999999-opponent=1900&o-99999999999999999999-result=1",
        "/api/v1/calculator/?list=otb-standard&opponent=:&opponent=1900:1",
        "/players/200002B/vs/?opponent=' OR 1=1 --",
        "/players/200002B/vs/?opponent=" + "fletcher%2C " * 400,
        "/players/NOBODY1/feed/",
        "/lists/otb-standard/2026-10/txt/?age=bogus&sort=nonsense",
        "/lists/otb-standard/2099-01/zip/",
        "/lists/otb-standard/live/?page=abc",
    ],
)
def test_the_calculator_downloads_and_feeds_answer_odd_input_without_a_server_error(client, federation, url):
    response = client.get(url)

    assert response.status_code in (200, 301, 302, 400, 404), (url, response.status_code)
