"""Downloads and feeds: CSV for Excel, the club sheet, a list as text, JSON and zip, Atom feeds,
and published lists and the API sent with an ETag that a conditional request turns into a 304."""

import csv
import datetime
import io
import json
import re
import zipfile
from xml.etree import ElementTree

import pytest

from grading.live.computing import compute_live
from grading.models import RatingList
from grading.selectors.downloads import LIST_COLUMNS, TEXT_WIDTHS
from players.ages import age_shown
from players.models import Club, Player
from players.privacy import privacy_setting
from tests.builders import approved_event

pytestmark = pytest.mark.django_db

LIST = "/lists/otb-standard/2026-10/"
ATOM = "{http://www.w3.org/2005/Atom}"


def test_csv_files_start_with_the_byte_order_mark_excel_needs(client, federation):
    body = client.get(LIST + "csv/").content

    assert body.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0][:3] == ["rank", "code", "name"]


def test_a_list_as_fixed_width_text_lines_up_its_columns(client, federation):
    Player.objects.filter(code="200002B").update(fide_title="FM", fide_id=2012345)
    response = client.get(LIST + "txt/", {"club": "NQC"})

    assert response["Content-Disposition"] == 'attachment; filename="otb-standard-2026-10-filtered.txt"'
    lines = response.content.decode().splitlines()
    # rank 6, code 8, name 40, title 5, FIDE ID 10, rating 6, previous 8, change 6 (numbers
    # right-aligned), type 8, category 9, games 6, last played 11, club 30, age: every heading whole.
    assert lines[0] == (
        "  rank code     name                                     title    fide_id rating previous change "
        "type     category   games last_played club                           age"
    )
    david, alice = lines[1], lines[2]
    assert david == (
        "     1 200002B  Fletcher, David                          FM       2012345   1848     1848      0 "
        "full     full         122 2026-09     Northquay"
    )
    # Alice's 1400P is not ranked: nothing where the rank would be. Born on 1 March 2015, she was
    # 11 on 1 October 2026: U12 (David, 46, is in no age group).
    assert alice.startswith("       200001A  Fletcher, Alice") and "   1400     1400      0 partial" in alice
    assert alice.endswith("Northquay                      U12")


def test_every_heading_of_the_text_download_is_whole():
    assert [name for name in LIST_COLUMNS if len(name) > TEXT_WIDTHS[name]] == []


def test_a_list_as_json_names_its_publication_and_players(client, federation):
    Player.objects.filter(code="200002B").update(fide_title="FM", fide_id=2012345)
    body = json.loads(client.get(LIST + "json/", {"club": "NQC"}).content)

    assert (body["list"], body["period"], body["revision"], body["edition"]) == (
        "otb-standard",
        "2026-10",
        1,
        "revised",
    )
    assert body["players"][0] == {
        "rank": 1,
        "code": "200002B",
        "name": "Fletcher, David",
        "title": "FM",
        "fide_id": 2012345,
        "rating": 1848,
        "previous": 1848,
        "change": 0,
        "type": "full",
        "category": "full",
        "games": 122,
        "last_played": "2026-09",
        "club": "Northquay",
        "age": None,
    }
    alice = body["players"][1]
    assert (alice["rank"], alice["title"], alice["fide_id"], alice["rating"], alice["age"]) == (
        None,
        None,
        None,
        1400,
        "U12",
    )


def test_the_whole_list_zipped_holds_it_in_all_three_formats(client, federation):
    response = client.get(LIST + "zip/", {"club": "NQC"})  # filters do not apply: the whole list

    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = sorted(archive.namelist())
    assert names == ["otb-standard-2026-10.csv", "otb-standard-2026-10.json", "otb-standard-2026-10.txt"]
    assert len(json.loads(archive.read("otb-standard-2026-10.json"))["players"]) == 59


def test_a_club_sheet_has_every_list_in_one_file(client, federation):
    response = client.get("/clubs/NQC/csv/")

    assert response["Content-Disposition"] == 'attachment; filename="club-NQC.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "code",
        "name",
        "title",
        "age",
        "otb-standard 2026-10 rating",
        "otb-standard 2026-10 type",
        "otb-standard 2026-10 games",
        "online 2025-10 rating",
        "online 2025-10 type",
        "online 2025-10 games",
    ]
    alice = next(row for row in rows if row[0] == "200001A")
    # Her age group today, as players.ages decides it for every page and file.
    assert alice[3] == str(age_shown(federation.alice, datetime.date.today(), privacy_setting())) != ""
    assert alice[4:] == ["1400", "partial", "6", "1100", "partial", "3"]


def test_every_csv_download_writes_a_cell_a_spreadsheet_would_run_as_a_formula_as_text(client, federation):
    alice = Player.objects.get(code="200001A")
    alice.surname = "=HYPERLINK(1)"
    alice.save()
    Club.objects.filter(code="NQC").update(name="@SUM(1)")
    RatingList.objects.filter(code="online").update(code="-online")  # a slug may start with "-"
    approved_event("NOV", "otb-standard", datetime.date(2026, 11, 7), [("200001A", "200003C", "1-0")])
    compute_live(RatingList.objects.get(code="otb-standard"))

    def rows(response):
        return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))

    def alices(table):
        return next(row for row in table if row[table[0].index("code")] == "200001A")

    archive = zipfile.ZipFile(io.BytesIO(client.get(LIST + "zip/").content))
    downloads = {
        "list": rows(client.get(LIST + "csv/")),
        "zip": list(csv.reader(io.StringIO(archive.read("otb-standard-2026-10.csv").decode("utf-8-sig")))),
        "live": rows(client.get("/lists/otb-standard/live/csv/")),
        "club": rows(client.get("/clubs/NQC/csv/")),
    }
    for name, table in downloads.items():
        row = dict(zip(table[0], alices(table), strict=True))
        assert row["name"] == "'=HYPERLINK(1), Alice", name
        assert row.get("club", "'@SUM(1)") == "'@SUM(1)", name
    assert "'-online 2025-10 rating" in downloads["club"][0]


def feed_titles(response):
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ElementTree.fromstring(response.content)
    return [entry.find(f"{ATOM}title").text for entry in root.iter(f"{ATOM}entry")]


def test_atom_feeds_of_publications_for_the_federation_a_club_and_a_player(client, federation):
    federation_titles = feed_titles(client.get("/feeds/publications/"))
    club = client.get("/clubs/NQC/feed/").content.decode()
    player_titles = feed_titles(client.get("/players/200002B/feed/"))

    assert "OTB standard 2026-10: revision 1" in federation_titles
    assert "OTB standard 2026-10: the list" in federation_titles
    assert "2 Northquay players on the list." in club
    assert player_titles[0] == "OTB standard 2026-09: 1848"


FEEDS = ["/feeds/publications/", "/clubs/NQC/feed/", "/players/200001A/feed/", "/players/200002B/feed/"]
# RFC 4151: tag:HOST,DATE:SPECIFIC#FRAGMENT, the host the site's (SITE_URL) and the feed named.
TAG = re.compile(r"tag:ratings\.example\.org,\d{4}-\d{2}-\d{2}:(/[^#\s]+/)#[a-z]+-\d+")


def feed_entries(client, path, **headers):
    response = client.get(path, **headers)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    root = ElementTree.fromstring(response.content)
    return [
        {
            "id": entry.findtext(f"{ATOM}id"),
            "updated": entry.findtext(f"{ATOM}updated"),
            "title": entry.findtext(f"{ATOM}title"),
            "link": entry.find(f"{ATOM}link").get("href") if entry.find(f"{ATOM}link") is not None else None,
        }
        for entry in root.iter(f"{ATOM}entry")
    ]


def test_every_feeds_entries_have_an_updated_time_and_an_id_of_their_own_that_stays(client, federation, settings):
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://ratings.example.org", ["testserver", "127.0.0.1"]
    feeds = {path: feed_entries(client, path) for path in FEEDS}

    assert [len(entries) for entries in feeds.values()] == [5, 5, 3, 2]
    for path, entries in feeds.items():
        for entry in entries:
            assert TAG.fullmatch(entry["id"]).group(1) == path, entry
            assert datetime.datetime.fromisoformat(entry["updated"]).tzinfo is not None, entry
            assert entry["title"] and entry["link"].startswith("http://testserver/"), entry
    ids = [entry["id"] for entries in feeds.values() for entry in entries]
    assert len(set(ids)) == len(ids)  # a publication in the federation's feed and a club's: two entries
    # Read again, through another host name: the same ids.
    assert [entry["id"] for entry in feed_entries(client, FEEDS[0], HTTP_HOST="127.0.0.1")] == ids[:5]


@pytest.mark.parametrize("path", [LIST, LIST + "csv/", "/api/v1/lists/otb-standard/2026-10/"])
def test_published_lists_carry_an_etag_and_a_conditional_request_gets_304(client, federation, path):
    first = client.get(path)

    assert first.status_code == 200 and first["ETag"]
    assert "max-age=" in first["Cache-Control"] and "public" in first["Cache-Control"]
    again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
