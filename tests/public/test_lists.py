import csv
import io

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.builders import PlayerFactory, publish_month

pytestmark = pytest.mark.django_db

LIST = "/lists/otb-standard/"


def names_in(page):
    """The player names of a list page's table, in order."""
    return [cell.split('">', 1)[1].split("</a>", 1)[0] for cell in page.split('<td><a href="/players/')[1:]]


def test_the_latest_list_is_the_revised_one_in_rating_order(client, federation, django_assert_max_num_queries):
    # With the list's ranks counted (kept for the next page), the page's previous ratings and
    # the privacy setting (kept too).
    with django_assert_max_num_queries(9):
        response = client.get(LIST)

    page = response.content.decode()
    assert response.status_code == 200
    assert "OTB standard list, 2026-10" in page
    assert "revision 1 of the list" in page
    names = names_in(page)
    assert [names[0], names[1], names[3], names[4]] == [
        "Fletcher, David",
        "Dunn, Grace",
        "Fletcher, Alice",
        "Filler54, Sam",
    ]
    assert ">1695<" in page and ">1400P<" in page
    assert "Page 1 of 2 (59 rows)" in page


def test_the_original_edition_shows_the_list_as_first_published(client, federation):
    page = client.get(LIST + "2026-10/?edition=original").content.decode()

    assert "the <strong>original</strong> list as first published" in page
    assert ">1690<" in page and ">1695<" not in page


def test_an_earlier_period_is_chosen_from_the_period_menu(client, federation):
    response = client.get(LIST + "?period=2025-10&sex=F")

    assert response.status_code == 302
    assert response["Location"] == LIST + "2025-10/?sex=F"
    page = client.get(response["Location"]).content.decode()
    assert names_in(page) == ["Dunn, Grace", "Fletcher, Alice"]
    assert ">1150P<" in page


@pytest.mark.parametrize(
    "url",
    [
        LIST + "2026-13/",
        LIST + "26-10/",
        LIST + "2024-01/",
        "/lists/no-such-list/",
        LIST + "?period=Oct",
        LIST + "?page=3",
        LIST + "?page=two",
        LIST + "2026-10/csv/x/",
        "/lists/no-such-list/2026-10/csv/",
    ],
)
def test_a_wrong_month_list_or_page_is_a_404_not_an_error(client, federation, url):
    assert client.get(url).status_code == 404


def test_a_page_past_the_end_says_how_many_pages_there_are(client, federation, settings):
    settings.DEBUG = False
    page = client.get(LIST + "?page=3").content.decode()

    assert "There is no page 3: the list has 2 pages." in page


def test_the_list_sorts_by_any_column_on_the_server(client, federation):
    by_name = names_in(client.get(LIST + "?sort=name").content.decode())
    by_lowest = names_in(client.get(LIST + "?sort=rating").content.decode())
    by_club = names_in(client.get(LIST + "?sort=club").content.decode())

    assert by_name[:3] == ["Dunn, Grace", "Filler00, Sam", "Filler01, Sam"]
    assert by_lowest[:2] == ["Filler00, Sam", "Filler01, Sam"]
    assert by_club[:2] == ["Fletcher, David", "Fletcher, Alice"]  # Northquay before Southbank


def test_the_second_page_continues_the_numbering(client, federation):
    page = client.get(LIST + "?page=2").content.decode()

    assert len(names_in(page)) == 9
    assert '<td class="num">51</td>' in page


@pytest.mark.parametrize(
    "query, expected",
    [
        ("club=NQC", ["Fletcher, David", "Fletcher, Alice"]),
        ("sex=F", ["Dunn, Grace", "Fletcher, Alice"]),
        ("age=u12", ["Fletcher, Alice"]),
        ("age=u10", []),
        ("age=junior", ["Fletcher, Alice"]),
        ("age=senior", ["Dunn, Grace"]),
        ("type=partial", ["Fletcher, Alice"]),
        ("category=partial", ["Fletcher, Alice"]),
        ("q=fletcher", ["Fletcher, David", "Fletcher, Alice"]),
        ("q=200003", ["Dunn, Grace"]),
        ("club=NQC&sex=F", ["Fletcher, Alice"]),
    ],
)
def test_the_list_filters_by_club_sex_age_category_type_and_name(client, federation, query, expected):
    assert names_in(client.get(f"{LIST}2026-10/?{query}").content.decode()) == expected


@pytest.mark.parametrize("address", [LIST + "?club=NQC", LIST + "?club=SBK&page=1", LIST + "2026-10/?club=NQC"])
def test_a_clubs_own_list_writes_the_filters_as_the_bound_form_does(client, federation, monkeypatch, address):
    def filters_of(page):
        return page.split('id="list-filters">', 1)[1].split("</form>", 1)[0]

    written = client.get(address).content.decode()  # the blank form's fields, the club chosen in them
    cache.clear()
    monkeypatch.setattr("public.lists.pages.one_club", lambda *args: None)  # the bound form's, rendered
    rendered = client.get(address).content.decode()

    assert filters_of(written) == filters_of(rendered)
    # Each menu's choice: the club's, and the empty one of sex, age, category and type.
    assert filters_of(written).count(" selected>") == 5


def test_the_club_menu_keeps_the_club_chosen_and_lists_every_club(client, federation):
    page = client.get(LIST + "?club=NQC").content.decode()
    menu = page.split('<select name="club"')[1].split("</select>")[0]

    assert '<option value="NQC" selected>Northquay (NQC)</option>' in menu
    assert '<option value="">All clubs</option>' in menu and '<option value="SBK">Southbank (SBK)</option>' in menu
    assert menu.count(" selected") == 1


def test_a_filter_value_that_does_not_exist_is_explained_not_an_error(client, federation):
    response = client.get(LIST + "?club=NOPE&age=u99")

    page = response.content.decode()
    assert response.status_code == 200
    assert page.count('class="error" role="alert"') == 2


def test_a_filtered_list_page_stays_within_a_fixed_number_of_queries(client, federation, django_assert_max_num_queries):
    # The ranks are counted on the first page of a publication (then kept); the previous list's
    # ratings are read for the page's players.
    with django_assert_max_num_queries(10):
        response = client.get(LIST + "?club=SBK&q=filler&sort=name&page=2")

    assert response.status_code == 200
    assert len(names_in(response.content.decode())) == 5


def test_the_csv_download_is_the_whole_filtered_list_in_the_export_format(client, federation):
    response = client.get(reverse("rating-list-csv", args=["otb-standard", "2026-10"]) + "?club=SBK")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="otb-standard-2026-10-filtered.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "rank",
        "code",
        "name",
        "title",
        "fide_id",
        "rating",
        "previous",
        "change",
        "type",
        "category",
        "games",
        "last_played",
        "club",
        "age",
    ]
    assert len(rows) == 1 + 57  # Grace, the odd name and 55 fillers: the whole list, not one page
    # Grace is 2nd of the whole list, from 1700 on the list before: -5.
    assert rows[1] == [
        "2",
        "200003C",
        "Dunn, Grace",
        "",
        "",
        "1695",
        "1700",
        "-5",
        "full",
        "full",
        "301",
        "2026-10",
    ] + ["Southbank", "Senior 65+"]  # born on 1 January 1955: 71 on 1 October 2026


def test_a_club_csv_reads_the_previous_ratings_of_its_own_players_only(
    client, federation, django_assert_max_num_queries
):
    from grading.models import ListEntry, RatingPeriod

    september = RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-09")
    with django_assert_max_num_queries(7) as queries:  # with the privacy setting, read once
        response = client.get(reverse("rating-list-csv", args=["otb-standard", "2026-10"]) + "?club=NQC")

    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    # David and Alice, at 1848 and 1400P on the 2026-09 list (of its 59 players) as on this one.
    assert [row[1] + " " + row[6] for row in rows[1:]] == ["200002B 1848", "200001A 1400"]
    assert ListEntry.objects.filter(period=september, revision=september.revision).count() == 59
    # One query read the previous list, for the club's two players only.
    listentry = ListEntry._meta.db_table
    reads = [
        query["sql"].replace('"', "").replace(f"{listentry}.", "")
        for query in queries.captured_queries
        if f"FROM {listentry}" in query["sql"].replace('"', "")
    ]
    previous = [sql for sql in reads if f"period_id = {september.pk} " in sql]
    assert len(previous) == 1, previous
    assert f"player_id IN ({federation.david.pk}, {federation.alice.pk})" in previous[0]


def test_a_download_longer_than_a_chunk_reads_the_previous_ratings_chunk_by_chunk(client, federation, monkeypatch):
    whole = client.get(reverse("rating-list-csv", args=["otb-standard", "2026-10"])).content
    monkeypatch.setattr("grading.selectors.history.PREVIOUS_CHUNK", 7)
    monkeypatch.setattr("grading.selectors.downloads.PREVIOUS_CHUNK", 7)

    with CaptureQueriesContext(connection) as queries:
        chunked = client.get(reverse("rating-list-csv", args=["otb-standard", "2026-10"])).content

    assert chunked == whole and whole.count(b"\n") == 60
    # 59 players: 9 chunks of rows, one query each for their previous ratings.
    assert sum("player_id IN (" in query["sql"] for query in queries) == 9


def test_the_unfiltered_csv_is_exactly_what_the_export_writes(client, federation, tmp_path):
    body = client.get(reverse("rating-list-csv", args=["otb-standard", "2026-10"])).content.decode()

    call_command("export_list", "--list", "otb-standard", "--period", "2026-10", "-o", str(tmp_path / "list.csv"))
    assert body == "\ufeff" + (tmp_path / "list.csv").read_text()  # the byte-order mark Excel needs
    assert body.count("\n") == 60


def test_the_list_page_links_its_editions_csv_with_the_same_filters(client, federation):
    page = client.get(LIST + "?sex=F&sort=name").content.decode()

    # 2026-10 is at revision 1: the files' addresses name it, as they never change.
    assert 'href="/lists/otb-standard/2026-10/r1/csv/?sex=F&amp;sort=name"' in page
    assert "Download these 2 players (CSV)" in page


def test_names_are_escaped_on_the_list(client, federation):
    page = client.get(LIST).content.decode()

    assert "<script>alert(1)</script>" not in page
    assert "O&#x27;Neil &lt;script&gt;alert(1)&lt;/script&gt;, Bob &amp; Co" in page


def test_a_list_never_published_says_so(client, db):
    response = client.get("/lists/otb-rapid/")

    assert response.status_code == 200
    assert "not been published yet" in response.content.decode()


def test_the_lists_index_and_home_page_link_every_published_list(client, federation):
    index = client.get("/lists/").content.decode()
    home = client.get("/").content.decode()

    assert 'href="/lists/otb-standard/"' in index and "The 2026-10 list" in index
    assert 'href="/lists/online/"' in home and "Online list, 2025-10" in home
    assert '<td class="num">59</td>' in home


def test_top_lists_kept_before_only_full_ratings_were_ranked_are_not_read(client, federation):
    from grading.models import RatingList
    from grading.selectors.history import publication_key, published_list
    from grading.selectors.toplists import compute_top_lists

    published = published_list(RatingList.objects.get(code="otb-standard"))
    old_key = publication_key("top-lists", published.period.pk, published.revision, published.period.published_at)
    # The old kind, kept for 24 hours: Alice's 1400P heading the under 12s.
    alice = published.entries().select_related("player").get(player__code="200001A")
    stale = [(title, key, [alice] if key == "u12" else rows) for title, key, rows in compute_top_lists(published)]
    cache.set(old_key, stale, 24 * 3600)

    page = client.get(reverse("top-lists", args=["otb-standard"])).content.decode()

    under_12 = page.split('id="top-u12"')[1].split("</section>")[0]
    assert "Nobody on this list yet." in under_12 and "Fletcher, Alice" not in under_12


def test_the_top_lists_show_juniors_women_seniors_and_improvers(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(14):
        response = client.get(reverse("top-lists", args=["otb-standard"]))
    with django_assert_max_num_queries(3):
        client.get(reverse("top-lists", args=["otb-standard"]))  # the lists are cached per publication

    page = response.content.decode()

    def section(key):
        return page.split(f'id="top-{key}"')[1].split("</section>")[0]

    # Alice, the only junior, holds a Partial rating (1400P): the top lists rank Full ratings.
    assert "Nobody on this list yet." in section("u12") and "Nobody on this list yet." in section("u8")
    assert "Dunn, Grace" in section("women") and "Fletcher, Alice" not in section("women")
    assert "Dunn, Grace" in section("seniors") and "Fletcher, David" not in section("seniors")
    assert "Biggest improvers since 2025-10" in page
    assert "Ages are on 1 Oct 2026:" in page
    assert "+250" in section("improvers") and "(from 1150P)" in section("improvers")  # a partial rating then
    assert "Fletcher, David" not in section("improvers")  # 1850 to 1848


def test_top_redirects_to_the_first_list(client, db):
    assert client.get("/top/")["Location"] == "/lists/otb-standard/top/"


def test_an_anonymous_visitors_list_page_is_kept_until_the_next_publication(
    client, federation, django_assert_max_num_queries
):

    first = client.get(LIST + "?sex=F").content
    with django_assert_max_num_queries(3):
        again = client.get(LIST + "?sex=F").content
    publish_month(
        "otb-standard",
        "2026-10",
        [
            {"player": federation.grace, "rating": 1699, "games": 301, "category": "full", "method": "K"},
        ],
    )
    revised = client.get(LIST + "?sex=F").content.decode()

    assert again == first
    assert ">1699<" in revised and "revision 2 of the list" in revised


def test_a_kept_list_page_is_not_served_once_the_templates_change(client, federation, monkeypatch):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(LIST + "?sex=F")
    monkeypatch.setattr("public.kept.templates_version", lambda: "a deploy later")
    with CaptureQueriesContext(connection) as queries:
        client.get(LIST + "?sex=F")

    assert any("grading_listentry" in query["sql"] for query in queries.captured_queries)  # rendered anew


def test_a_filter_error_is_tied_to_its_field_and_the_table_region_is_named(client, federation):
    page = client.get(LIST + "?club=NOPE").content.decode()

    assert 'aria-describedby="id_club_error"' in page
    assert '<span class="error" role="alert" id="id_club_error">' in page
    assert 'role="region" aria-label="The rating list"' in client.get(LIST).content.decode()


def test_choosing_another_period_keeps_the_filters_and_the_sort(client, federation):
    page = client.get(LIST + "2026-10/?club=NQC&sort=name").content.decode()
    period_form = page.split('aria-label="Choose the period"')[1].split("</form>")[0]

    assert '<input type="hidden" name="club" value="NQC">' in period_form
    assert '<input type="hidden" name="sort" value="name">' in period_form
    assert client.get(LIST, {"period": "2026-09", "club": "NQC", "sort": "name"})["Location"] == (
        LIST + "2026-09/?club=NQC&sort=name"
    )


def test_the_lists_page_describes_each_band_in_words(client, federation):
    page = client.get("/lists/").content.decode()

    assert "Over the board, 60 minutes or more." in page
    assert "Over the board, 10 to under 60 minutes." in page
    assert "Online, any time control." in page


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_downloaded_as_text(client, federation):
    sneaky = PlayerFactory(code="400001A", surname='=HYPERLINK("http://evil.example")', forenames="Bob")
    publish_month("online", "2026-10", [{"player": sneaky, "rating": 1500}])

    rows = list(csv.reader(io.StringIO(client.get("/lists/online/2026-10/csv/").content.decode("utf-8-sig"))))

    assert rows[1][1:3] == ["400001A", '\'=HYPERLINK("http://evil.example"), Bob']


def test_only_pages_reached_by_the_lists_own_links_are_kept(client, federation):
    def queries(query):
        client.get(LIST, query)  # the first visit is read from the database, and perhaps kept
        with CaptureQueriesContext(connection) as second:
            client.get(LIST, query)
        return len(second)

    kept = queries({"club": "NQC", "sort": "name"})
    assert queries({"junk": "1"}) > kept  # an unknown parameter: never kept, read every time
    assert queries({"q": "fletcher"}) > kept  # a name search: any text, so never kept
    assert queries({"club": "NOPE"}) > kept  # an invalid value


def test_a_filtered_list_shows_national_ranks_and_the_change_from_the_previous_list(client, federation):
    page = client.get(LIST, {"club": "SBK"}).content.decode()

    rows = page.split('<table class="data list-table foldable"')[1].split("</table>")[0].split("<tr>")[2:]

    def cells(row):
        return [cell.split(">", 1)[1].split("</td>")[0] for cell in row.split("<td")[1:]]

    # Southbank's best is Grace, 1695 on the 2026-10 list: second of the whole list, behind
    # David (1848). On the 2026-09 list, the one before, she still stood at 1700 (her 2025-10
    # rating): -5. The fillers of 2025-10 are on both lists unchanged: 0.
    grace = cells(rows[0])
    assert grace[0] == "2" and "Dunn, Grace" in grace[1] and grace[3:6] == ["1695", "1700", "-5"]
    filler = cells(rows[2])
    assert filler[4:6] == [filler[3], "0"]


def test_a_partial_rating_is_not_ranked_and_puts_no_full_rating_below_it(client, federation):
    page = client.get(LIST, {"q": "fletcher"}).content.decode() + client.get(LIST, {"q": "filler54"}).content.decode()

    def rank_of(name):
        return page.split(name)[0].rsplit('<td class="num">', 1)[1].split("</td>")[0]

    # David 1848, Grace 1695, Bob 1500 and Alice 1400P, then the best filler, 1270: three Full
    # ratings above it, so 4th, not 5th; Alice's rating is not ranked.
    assert rank_of("Fletcher, David") == "1"
    assert rank_of("Fletcher, Alice") == "–"
    assert rank_of("Filler54, Sam") == "4"


def test_each_filter_menu_offers_its_choices_once_with_the_one_chosen_selected(client, federation):
    page = client.get(LIST, {"sex": "F", "category": "full"}).content.decode()

    assert page.count(">Any category<") == 1 and page.count(">Everyone<") == 1
    assert '<option value="F" selected>Women</option>' in page
    assert '<option value="full" selected>fully rated</option>' in page


def test_a_descending_sort_reverses_the_column_and_marks_it_and_players_without_a_club_come_last(client, federation):
    from grading.models import ListEntry

    dunn = ListEntry.objects.filter(player__surname="Dunn")
    dunn.update(club=None)  # Dunn's club left: her line has none

    by_club = client.get(LIST + "?sort=-club").content.decode()
    by_club_up = names_in(client.get(LIST + "?sort=club").content.decode())
    unknown = names_in(client.get(LIST + "?sort=nonsense").content.decode())

    southbank = names_in(by_club)
    assert southbank[0].startswith("O&#x27;Neil") and southbank[1] == "Filler54, Sam"  # Southbank, by rating
    assert 'aria-sort="descending"><a href="?sort=club" title="Sort by club">Club' in by_club
    assert by_club_up[:2] == ["Fletcher, David", "Fletcher, Alice"]  # Northquay first
    assert "Dunn, Grace" not in names_in(by_club) + by_club_up  # page 1 of 2 both ways: she is last
    assert names_in(client.get(LIST + "?sort=-club&page=2").content.decode())[-1] == "Dunn, Grace"
    assert unknown == names_in(client.get(LIST).content.decode())  # an unknown sort is the default


def test_a_tables_links_write_the_query_as_a_copy_of_the_querydict_would():
    from django.test import RequestFactory

    from public.lists.tables import ListTable

    request = RequestFactory().get("/lists/otb-standard/", {"q": "Müller & Söhne", "club": ["NQC", "SBK"], "page": "2"})
    table = ListTable.__new__(ListTable)
    table.query = request.GET

    def copied(**changes):
        query = request.GET.copy()
        for name, value in changes.items():
            query.pop(name, None) if value is None else query.__setitem__(name, value)
        return f"?{query.urlencode()}".replace("&", "&amp;")

    for changes in ({"page": 3}, {"page": None, "sort": "-rating"}, {"club": "X Y"}, {}):
        assert table.link(**changes) == copied(**changes)
    assert table.link(page=3) == "?q=M%C3%BCller+%26+S%C3%B6hne&amp;club=NQC&amp;club=SBK&amp;page=3"
