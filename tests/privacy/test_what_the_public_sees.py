"""What the public sees of a junior's age (docs/privacy.md): every public page, download, feed and
API answer that shows one, read under each privacy setting, gives no birth date and no exact age;
and every one of them shows what players.ages.age_shown decides, the one function that does.

The junior is the small federation's Alice Fletcher (tests.builders.build_federation), born on
1 March 2015: 11 from 1 March 2026 to 28 February 2027, on every list and live month here. Her
2026-09 rating is a P rating whose dummy, 100 a year of her age, is 1100 on OTB standard."""

import datetime
import io
import re
import zipfile

import pytest

from grading.live.computing import compute_live
from grading.models import RatingList
from players.ages import AGE_BANDS, AgeShown, age_shown
from players.models import Player, PrivacySetting
from players.privacy import privacy_changed, privacy_setting
from tests.builders import approved_event, publish_month

pytestmark = pytest.mark.django_db

SETTINGS = [choice.value for choice in PrivacySetting.AgeShown]
BORN = datetime.date(2015, 3, 1)
# The birth date as people and programs write it.
DATE_FORMS = [
    "2015-03-01",
    "2015/03/01",
    "20150301",
    "01/03/2015",
    "1/3/2015",
    "03/01/2015",
    "3/1/2015",
    "01.03.2015",
    "1.3.2015",
    "1 March 2015",
    "1 Mar 2015",
    "March 1, 2015",
    "Mar 1, 2015",
    "Mar. 1, 2015",
    "1st March",
    "1 March",
]
# Her exact age, 11, as a page, a file or an answer would put it.
EXACT_AGE = re.compile(
    r"\bage\W{0,12}11\b|\baged 11\b|\b11 years\b|\b11-year|<dd>11\b|× 11\b|\"age\": ?11\b|\b11 on 1 ",
    flags=re.IGNORECASE,
)


def set_age_shown(value):
    PrivacySetting.objects.filter(pk=privacy_setting().pk).update(age_shown=value)
    privacy_changed()


@pytest.fixture
def juniors(federation):
    """Alice with a Full rapid rating (the top lists rank Full ratings) and a live OTB standard
    rating: a November win over Grace, approved after the 2026-10 list."""
    publish_month(
        "otb-rapid",
        "2026-10",
        [
            {"player": federation.alice, "rating": 1300, "games": 40, "opponents_total": 52000, "points": 20},
            {"player": federation.david, "rating": 1800, "games": 60, "opponents_total": 108000, "points": 30},
        ],
    )
    approved_event("NOV", "otb-standard", datetime.date(2026, 11, 7), [("200001A", "200003C", "1-0")])
    compute_live(RatingList.objects.get(code="otb-standard"))
    return federation


PAGES = [
    "/players/200001A/",
    "/players/200001A/otb-standard/2026-09/",
    "/players/200001A/live/otb-standard/2026-11/",
    "/players/200001A/vs/200002B/",
    "/players/?q=fletcher",
    "/lists/otb-standard/",
    "/lists/otb-standard/2026-10/?age=u12",
    "/lists/otb-standard/2026-09/?q=alice",
    "/lists/otb-standard/live/",
    "/lists/otb-standard/live/?age=junior",
    "/lists/otb-rapid/top/",
    "/clubs/NQC/",
    "/events/NQ2609/",
    "/calculator/?list=otb-standard&player=200001A&o-0-opponent=1500&o-0-result=1",
    "/calculator/?list=otb-rapid&player=200001A&o-0-opponent=200002B&o-0-result=0.5",
    "/privacy/",
]
DOWNLOADS = [
    "/lists/otb-standard/2026-10/csv/",
    "/lists/otb-standard/2026-10/txt/",
    "/lists/otb-standard/2026-10/json/",
    "/lists/otb-standard/2026-09/csv/?age=u12",
    "/lists/otb-standard/2026-10/zip/",
    "/lists/otb-rapid/2026-10/zip/",
    "/lists/otb-standard/live/csv/",
    "/clubs/NQC/csv/",
]
FEEDS = ["/players/200001A/feed/", "/clubs/NQC/feed/", "/feeds/publications/"]
NAMING_NOBODY = {"/clubs/NQC/feed/", "/feeds/publications/", "/privacy/"}  # they count players
API = [
    "/api/v1/players/?q=fletcher",
    "/api/v1/players/?code=200001A",
    "/api/v1/players/200001A/",
    "/api/v1/players/200001A/ratings/",
    "/api/v1/players/200001A/games/",
    "/api/v1/players/200002B/games/",
    "/api/v1/lists/otb-standard/",
    "/api/v1/lists/otb-standard/2026-09/",
    "/api/v1/lists/otb-standard/live/",
    "/api/v1/lists/otb-rapid/",
    "/api/v1/clubs/NQC/",
    "/api/v1/events/NQ2609/",
    "/api/v1/calculator/?list=otb-standard&player=200001A&opponent=1500:1",
    "/api/v1/calculator/?list=otb-rapid&player=200001A&opponent=200002B:0.5",
]


def read(client, path) -> str:
    """A public answer as text: a zip's files, every one."""
    response = client.get(path)
    assert response.status_code == 200, path
    if response["Content-Type"] == "application/zip":
        archive = zipfile.ZipFile(io.BytesIO(response.content))
        return "\n".join(archive.read(name).decode("utf-8-sig") for name in archive.namelist())
    return response.content.decode("utf-8-sig")


@pytest.mark.parametrize("setting", SETTINGS)
def test_no_public_page_download_feed_or_answer_gives_a_juniors_birth_date_or_exact_age(client, juniors, setting):
    set_age_shown(setting)
    read_so_far = []
    for path in PAGES + DOWNLOADS + FEEDS + API:
        text = read(client, path)
        assert "Fletcher" in text or "200001A" in text or path in NAMING_NOBODY, path  # she is there
        assert [form for form in DATE_FORMS if form in text] == [], path
        assert not EXACT_AGE.search(text), (path, EXACT_AGE.search(text))
        # Not her year of birth either: with the junior top lists it would give her age away.
        assert "2015" not in text, path
        # Nor her dummy, 100 x 11 on OTB standard: "1100 dummy", "rated 1100", dummy_rating 1100.
        assert not re.search(r"1100 dummy|rated 1100|dummy_rating\": ?1100|Dummy rating</a></dt><dd>1100", text), path
        read_so_far.append(path)
    assert len(read_so_far) == len(PAGES + DOWNLOADS + FEEDS + API)


def test_the_calculator_writes_out_an_age_the_visitor_typed_in_and_never_a_records(client, juniors):
    typed = client.get("/calculator/?list=otb-standard&age=11&o-0-opponent=1500&o-0-result=1").content.decode()
    by_code = client.get("/calculator/?list=otb-standard&player=200001A&o-0-opponent=1500&o-0-result=1")
    api_typed = client.get("/api/v1/calculator/?list=otb-standard&age=11&opponent=1500:1").json()
    api_by_code = client.get("/api/v1/calculator/?list=otb-standard&player=200001A&opponent=1500:1").json()

    # A junior of 11 typed in: 100 x 11 = 1100, as the visitor asked.
    assert "<dt>Age</dt><dd>11 (as given)</dd>" in typed and "1100 dummy" in typed
    assert api_typed["rating"]["dummy_rating"] == 1100
    # Alice by her code: her age group on 1 November 2026, and no dummy.
    page = by_code.content.decode()
    assert "<dt>Age group</dt><dd>U12 on 1 Nov 2026</dd>" in page and "1100" not in page
    assert api_by_code["rating"]["dummy_rating"] is None and api_by_code["rating"]["method"] == "P"


def shown_on_pages(client, code: str, day: datetime.date) -> dict:
    """What each public place shows of player ``code``'s age: the player page (today), the
    calculation page (its month's first day), the API's player (today), the 2026-10 list's CSV
    and API line (1 October 2026)."""
    player_page = client.get(f"/players/{code}/").content.decode()
    facts = re.search(r"<dt>(Age group|Year of birth)</dt><dd>([^<]*)</dd>", player_page)
    calculation = client.get(f"/players/{code}/otb-standard/2026-09/").content.decode()
    worked = re.search(r"<dt>(?:Age group|Year of birth)</dt><dd>([^<]*?)(?: on [^<]*)?</dd>", calculation)
    player = client.get(f"/api/v1/players/{code}/").json()
    rows = read(client, "/lists/otb-standard/2026-10/csv/").splitlines()
    header, line = rows[0].split(","), next(row for row in rows if f",{code}," in row)
    lines = client.get("/api/v1/lists/otb-standard/2026-10/", {"page_size": 100}).json()["results"]
    return {
        "player page": facts.group(2) if facts else "",
        "calculation page": worked.group(1) if worked else "",
        "API player": str(player["birth_year"] or player["age_band"] or ""),
        "list download": line.rsplit(",", 1)[1] if header[-1] == "age" else None,
        "API list line": next(row["age"] for row in lines if row["code"] == code) or "",
    }


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("code", ["200001A", "200002B"])
def test_every_place_shows_of_an_age_what_the_one_function_decides(client, juniors, setting, code):
    set_age_shown(setting)
    player = Player.objects.get(code=code)
    today = datetime.date.today()

    shown = shown_on_pages(client, code, today)

    decided = {
        "player page": age_shown(player, today, privacy_setting()),
        "calculation page": age_shown(player, datetime.date(2026, 9, 1), privacy_setting()),
        "API player": age_shown(player, today, privacy_setting()),
        "list download": age_shown(player, datetime.date(2026, 10, 1), privacy_setting()),
        "API list line": age_shown(player, datetime.date(2026, 10, 1), privacy_setting()),
    }
    assert shown == {place: str(age) for place, age in decided.items()}
    # David, born on 1 June 1980, is 46: his year of birth where the setting shows it, no group.
    # Alice is a junior: U12 under either setting that shows something, never her year.
    expected = {
        ("200001A", "band"): "U12",
        ("200001A", "birth-year"): "U12",
        ("200002B", "birth-year"): "1980",
    }.get((code, setting), "")
    assert shown["list download"] == expected


def test_the_bands_are_the_narrowest_that_hold_each_age_and_none_between_18_and_49():
    setting = PrivacySetting(age_shown="band")
    day = datetime.date(2026, 10, 1)

    def band(years, days_short=0):
        # A player ``years`` old on ``day`` (their birthday ``days_short`` days before it).
        born = day.replace(year=day.year - years) - datetime.timedelta(days=days_short)
        return str(age_shown(Player(birth_date=born), day, setting))

    # Born on 1 October 2014: 12 on 1 October 2026, so U14; the day after, still 11: U12.
    assert [band(12), band(12, -1)] == ["U14", "U12"]
    assert [band(age) for age in (3, 7, 8, 9, 10, 16, 17)] == ["U8", "U8", "U10", "U10", "U12", "U18", "U18"]
    assert [band(age) for age in (18, 30, 49, 50, 64, 65, 90)] == ["", "", "", "Senior 50+", "Senior 50+"] + [
        "Senior 65+",
        "Senior 65+",
    ]
    assert [item.label for item in AGE_BANDS] == ["U8", "U10", "U12", "U14", "U16", "U18", "Senior 50+", "Senior 65+"]


def test_a_year_of_birth_is_an_adults_and_nothing_is_shown_without_a_birth_date():
    day = datetime.date(2026, 10, 1)
    years = PrivacySetting(age_shown="birth-year")
    nothing = PrivacySetting(age_shown="nothing")

    # 17 on 1 October 2026 (born 2 October 2008): a junior, so U18; born a day earlier, 18: 2008.
    assert age_shown(Player(birth_date=datetime.date(2008, 10, 2)), day, years) == AgeShown(band="U18")
    assert age_shown(Player(birth_date=datetime.date(2008, 10, 1)), day, years) == AgeShown(birth_year=2008)
    assert not age_shown(Player(birth_date=None), day, years)
    assert not age_shown(Player(birth_date=datetime.date(1950, 1, 1)), day, nothing)


def test_with_nothing_shown_the_lists_offer_no_filter_by_age(client, juniors):
    assert 'name="age"' in client.get("/lists/otb-standard/").content.decode()

    set_age_shown("nothing")

    assert 'name="age"' not in client.get("/lists/otb-standard/").content.decode()
    assert 'name="age"' not in client.get("/lists/otb-standard/live/").content.decode()
    # The address of a filtered list still answers: the whole list (59 players), not Alice alone.
    rows = read(client, "/lists/otb-standard/2026-10/csv/?age=u12").splitlines()
    assert len(rows) == 1 + 59


def test_a_change_of_the_setting_is_seen_at_once_on_a_visitors_kept_list_page(client, juniors):
    csv_before = read(client, "/lists/otb-standard/2026-10/csv/")
    kept = client.get("/lists/otb-standard/").content.decode()
    assert 'name="age"' in kept and ",U12" in csv_before

    set_age_shown("nothing")

    assert 'name="age"' not in client.get("/lists/otb-standard/").content.decode()
    assert ",U12" not in read(client, "/lists/otb-standard/2026-10/csv/")
