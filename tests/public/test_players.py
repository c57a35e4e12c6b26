import datetime
import json

import pytest
from django.core.cache import cache
from django.db import connection

from grading.models import PlayerRating
from players import search
from players.models import Player
from tests.builders import PlayerFactory, approved_event, publish_month, succeeded, take_on

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="trigram search needs PostgreSQL (SQLite falls back to icontains)"
)


def found(client, query):
    page = client.get("/players/", {"q": query}).content.decode()
    return [row.split('">', 1)[1].split("</a>")[0] for row in page.split('<tr><td><a href="/players/')[1:]]


def test_a_player_finds_themself_by_part_of_their_name(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(5):
        response = client.get("/players/", {"q": "fletch"})

    page = response.content.decode()
    assert found(client, "fletch") == ["Fletcher, Alice", "Fletcher, David"]
    assert "2 players found for “fletch”" in page
    assert ">1848<" in page and ">1400P<" in page and ">1100P<" in page  # standard and online columns


def test_words_in_any_order_find_the_player(client, federation):
    # Best match first (PostgreSQL's trigram search also lists the other Fletcher, further down).
    assert found(client, "david fletcher")[0] == "Fletcher, David"
    assert found(client, "Fletcher David")[0] == "Fletcher, David"
    assert "Dunn, Grace" not in found(client, "david fletcher")


@on_postgresql
def test_a_misspelt_name_still_finds_the_player_on_postgresql(client, federation):
    assert found(client, "flecher david")[0] == "Fletcher, David"
    assert found(client, "grase dun")[0] == "Dunn, Grace"


@pytest.mark.skipif(connection.vendor == "postgresql", reason="PostgreSQL forgives typos by trigrams (above)")
def test_a_misspelt_name_finds_the_player_by_the_start_of_its_words_on_sqlite(client, federation):
    # No name has "flecher": each word of four letters or more counts by its first three.
    assert found(client, "flecher david") == ["Fletcher, David"]


def test_case_accents_and_apostrophes_never_matter(client, federation):
    PlayerFactory(code="200011L", surname="Fernández", forenames="José")
    PlayerFactory(code="200012A", surname="Müller", forenames="Jürgen")
    PlayerFactory(code="200013B", surname="D'Arcy", forenames="Siobhán")
    PlayerFactory(code="200014C", surname="Sørensen", forenames="Åse")

    assert found(client, "fernandez")[0] == "Fernández, José"
    assert found(client, "FERNANDEZ jose")[0] == "Fernández, José"
    assert found(client, "muller")[0] == "Müller, Jürgen"
    assert found(client, "D’Arcy")[0] == "D&#x27;Arcy, Siobhán"  # typed with a curly apostrophe
    assert found(client, "siobhan d'arcy")[0] == "D&#x27;Arcy, Siobhán"
    assert found(client, "sorensen ase")[0] == "Sørensen, Åse"


def test_a_federation_code_opens_the_players_page(client, federation):
    response = client.get("/players/", {"q": "200002b"})

    assert response.status_code == 302
    assert response["Location"] == "/players/200002B/"


def test_the_start_of_a_code_lists_the_players_whose_codes_begin_so(client, federation):
    assert found(client, "20000") == [
        "Fletcher, Alice",
        "Fletcher, David",
        "Dunn, Grace",
        "O&#x27;Neil &lt;script&gt;alert(1)&lt;/script&gt;, Bob &amp; Co",
    ]


def test_a_search_that_finds_nobody_says_so(client, federation):
    page = client.get("/players/", {"q": "zzqx"}).content.decode()

    assert "No player matches “zzqx”" in page


def test_every_page_has_the_search_box_in_its_header(client, federation):
    for url in ["/", "/lists/otb-standard/", "/players/200001A/", "/clubs/", "/events/"]:
        page = client.get(url).content.decode()
        assert '<form class="site-search" role="search" method="get" action="/players/">' in page, url
        assert '<label for="site-search-q" class="visually-hidden">' in page


def test_the_player_page_shows_every_published_list_with_type_and_category(
    client, federation, django_assert_max_num_queries
):
    # The first visit counts each list's ranks (a query per month of the latest lists: 2026-10
    # and 2025-10 here), finds the latest lists and reads the privacy setting; they are kept.
    with django_assert_max_num_queries(9):
        response = client.get("/players/200001A/")
    # The player, their history, their recent games, the events of all their games, their live
    # ratings.
    with django_assert_max_num_queries(5):
        client.get("/players/200002B/")

    page = response.content.decode()
    ratings = page.split('id="current-ratings"')[1].split("</table>")[0]
    rows = ratings.split("<tr>")[2:]
    assert len(rows) == 2  # the lists published so far: OTB rapid never was
    standard, online = rows
    assert "<strong>1400</strong>" in standard and "Partial" in standard and "partially rated" in standard
    assert "<strong>1100</strong>" in online and "imported" in online


def test_the_player_page_charts_each_lists_history_with_a_link_per_month(client, federation):
    page = client.get("/players/200001A/").content.decode()

    chart = json.loads(page.split('<script id="chart-data" type="application/json">')[1].split("</script>")[0])
    assert chart["months"][0] == "2025-10" and chart["months"][-1] == "2026-09" and len(chart["months"]) == 12
    standard, online = chart["datasets"]
    assert [(point["x"], point["y"], point["partial"]) for point in standard["points"]] == [
        ("2025-10", 1150, True),
        ("2026-09", 1400, True),
    ]
    assert standard["points"][1]["url"] == "/players/200001A/otb-standard/2026-09/"
    assert online["label"] == "Online"
    assert "vendor/chartjs/chart.umd.min.js" in page and '<canvas id="rating-chart" role="img"' in page


def test_the_player_page_lists_the_games_of_each_period(client, federation):
    page = client.get("/players/200002B/").content.decode()

    games = page.split("2 games in 2026-09")[1].split("</details>")[0]
    assert "Dunn, Grace" in games and "Fletcher, Alice" in games
    assert games.count("White") == 2
    assert "Won" in games and "Drew" in games
    assert ">1700<" in games and ">1400P<" in games
    assert ">+6.00<" in games and ">-8.40<" in games
    assert "+250" not in page and ">-2<" in page  # the change column: 1850 to 1848


def test_how_a_k_rating_was_calculated_game_by_game(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(6):
        response = client.get("/players/200002B/otb-standard/2026-09/")

    page = response.content.decode()
    assert "New rating: <strong>1848</strong>" in page
    assert "K rating (Elo update)" in page and "Fully rated at the start of 2026-09" in page
    assert "1850 (2025-10, last played 2025-10)" in page
    rows = page.split('id="calculation-games"')[1].split("</table>")[0].split("<tr>")[2:]
    assert [cell in rows[0] for cell in (">-150<", ">-4.0<", ">10<", ">20<", ">6<")] == [True] * 5
    assert [cell in rows[1] for cell in (">-450<", ">-8.4<", ">0<", ">-8.4<")] == [True] * 4
    assert "K is <strong>20</strong>." in page
    assert "sum of the 2 increments = <strong>-2.40</strong>" in page
    assert "1850 − 2.40 = 1847.60, rounded: <strong>1848</strong>" in page


def test_a_game_withdrawn_since_the_rating_was_published_still_shows_what_was_used(client, federation):
    federation.congress.games.filter(round=1).delete()  # David's win against Grace, +6.0

    page = client.get("/players/200002B/otb-standard/2026-09/").content.decode()

    rows = page.split('id="calculation-games"')[1].split("</table>")[0].split("<tr>")[2:]
    assert "a game withdrawn since this rating was published" in rows[0]
    assert [cell in rows[0] for cell in (">1700<", ">6<")] == [True] * 2
    assert "1850 − 2.40 = 1847.60, rounded: <strong>1848</strong>" in page
    assert "a game withdrawn" in client.get("/players/200002B/").content.decode()


def test_how_a_p_rating_was_calculated_pass_by_pass(client, federation):
    # Alice's 2026-09 rating as an adult's would be: a dummy of 1800, and 1500 where her junior's
    # dummy (1100) gave 1400: T = 4800 + 3550 + 1800 = 10150, 10150 / 7 = 1450.00, + 50 = 1500.
    rating = federation.ratings["200001A", "2026-09"]
    PlayerRating.objects.filter(pk=rating.pk).update(age=30, dummy_rating=1800, rating=1500, pass1=1500, pass2=1500)
    Player.objects.filter(pk=federation.alice.pk).update(birth_date=datetime.date(1996, 3, 1))

    page = client.get("/players/200001A/otb-standard/2026-09/").content.decode()

    assert "their earlier 4 games count too" in page
    assert "<dd>1800: 1800, an adult&#x27;s</dd>" in page
    for text in (
        "G = 4 earlier + 2 this month + 1 dummy = <strong>7</strong>",
        "T = 4800 earlier + 3550 this month + 1800 dummy = <strong>10150</strong>",
        "S = 2.0 earlier + 1.5 this month + 0.5 dummy draw = <strong>4.0</strong>",
        "p = S / G = 0.5714, rounded to <strong>0.57</strong>",
        "dp = <strong>+50</strong>",
        "T / G + dp = 1450.00 + 50 = 1500.00, rounded: <strong>1500</strong>",
    ):
        assert page.count(text) == 2, text  # pass 1 and pass 2 used the same opponent ratings here
    assert "(published:" not in page


def test_a_juniors_p_rating_is_calculated_without_their_dummy_which_tells_their_age(client, federation):
    page = client.get("/players/200001A/otb-standard/2026-09/").content.decode()

    # Alice was 11 on 1 September 2026: her dummy, 100 x 11 = 1100, and the sums that hold it
    # (T = 9450, T / G = 1350.00) would give her age away. The rest of the passes is there.
    assert "<dt>Age group</dt><dd>U12 on 1 Sep 2026</dd>" in page
    assert "a dummy opponent whose rating follows from the junior's age, which is not published" in page
    for text in (
        "G = 4 earlier + 2 this month + 1 dummy = <strong>7</strong>",
        "T = 4800 earlier + 3550 this month + the dummy's rating</li>",
        "S = 2.0 earlier + 1.5 this month + 0.5 dummy draw = <strong>4.0</strong>",
        "p = S / G = 0.5714, rounded to <strong>0.57</strong>",
        "Rating: T / G + dp, rounded: <strong>1400</strong>",
    ):
        assert page.count(text) == 2, text
    assert "1100" not in page and "9450" not in page and "1350.00" not in page and ">11 on" not in page


def test_the_page_of_a_rating_run_prints_its_capped_k_and_the_rating_the_run_published(client, db, rate):
    # Forty wins over forty players rated 1500: K x N = 20 x 40 = 800 > 700, so K = 700 / 40 = 17.5;
    # each win (0 + 10) x 17.5 / 20 = 8.75; change 40 x 8.75 = 350; 1500 + 350 = 1850.
    opponents = [PlayerFactory(code=f"3{n:05d}C") for n in range(40)]
    PlayerFactory(code="111111A", birth_date=datetime.date(1980, 5, 1))
    lines = [f"{p.code},1500,full,50,75000,25,2026-09" for p in opponents]
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", *lines)
    wins = [("111111A", p.code, "1-0") for p in opponents]
    approved_event("FORTY", "otb-standard", datetime.date(2026, 10, 10), wins)
    succeeded(rate("otb-standard", "2026-10"))

    page = client.get("/players/111111A/otb-standard/2026-10/").content.decode()

    assert "New rating: <strong>1850</strong>" in page
    assert "K is 700 / 40 games = <strong>17.5</strong>: 20 × 40 would be more than 700." in page
    rows = page.split('id="calculation-games"')[1].split("</table>")[0].split("<tr>")[2:]
    assert len(rows) == 40 and all(">8.75<" in row for row in rows)
    assert "1500 + 350.00 = 1850.00, rounded: <strong>1850</strong>" in page
    assert "(published:" not in page


def test_an_imported_rating_says_it_was_not_calculated_here(client, federation):
    page = client.get("/players/200001A/otb-standard/2025-10/").content.decode()

    assert "taken on from the federation's previous rating system" in page


@pytest.mark.parametrize(
    "url",
    [
        "/players/999999Z/",
        "/players/200001A/otb-standard/2026-08/",
        "/players/200001A/no-list/2026-09/",
        "/players/200001A/otb-standard/2026-00/",
    ],
)
def test_an_unknown_player_list_or_month_is_a_404(client, federation, url):
    assert client.get(url).status_code == 404


def test_a_merged_duplicate_leads_to_the_record_kept(client, federation):
    PlayerFactory(code="200009K", surname="Fletcher", forenames="Dave", merged_into=federation.david)

    response = client.get("/players/200009K/")

    assert response.status_code == 302 and response["Location"] == "/players/200002B/"
    assert "Fletcher, Dave" not in found(client, "fletcher")


def test_names_are_escaped_on_player_pages_and_in_the_chart_data(client, federation):
    page = client.get("/players/200004D/").content.decode()
    search = client.get("/players/", {"q": "<script>"}).content.decode()

    assert "<script>alert(1)</script>" not in page and "<script>alert(1)</script>" not in search
    assert "O&#x27;Neil &lt;script&gt;" in page
    assert "&lt;script&gt;" in search


def test_the_clubs_index_counts_players(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        page = client.get("/clubs/").content.decode()

    assert (
        '<a href="/clubs/NQC/">Northquay</a></td><td class="fold">NQC</td><td class="fold">Northshire</td>'
        '<td class="num">2</td>'
    ) in page
    assert '<td class="num">57</td>' in page


def test_a_club_page_shows_its_players_ratings_on_each_list(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(5):
        response = client.get("/clubs/NQC/")

    page = response.content.decode()
    table = page.split('id="club-players"')[1]
    alice = table.split("Fletcher, Alice")[1].split("</tr>")[0]
    assert '<td class="num">1400P</td>' in alice and '<td class="num">1100P</td>' in alice
    assert "OTB standard 2026-10: 2 players on the list" in page
    assert 'href="/lists/otb-standard/2026-10/csv/?club=NQC">download CSV</a>' in page
    assert client.get("/clubs/XXX/").status_code == 404


def test_a_very_long_search_is_cut_to_100_characters(client, federation):
    response = client.get("/players/", {"q": "fletcher " + "x" * 5000})

    assert response.status_code == 200
    assert response.context["query"] == "fletcher " + "x" * 91
    assert Player.objects.count() == 59


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigram index exists on PostgreSQL only")
def test_the_name_search_uses_the_trigram_index_on_postgresql(federation):
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'players_player_name_trgm'")
        (definition,) = cursor.fetchone()
        cursor.execute("SET enable_seqscan = off")
        search.prepare()
        plan = Player.objects.filter(search.name_matches("fletcher")).order_by().explain()
        cursor.execute("RESET enable_seqscan")

    assert "USING gin" in definition and "gin_trgm_ops" in definition
    assert "players_player_name_trgm" in plan


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the name-start indexes exist on PostgreSQL only")
def test_a_name_typed_from_its_start_is_found_by_an_index_range_before_any_trigram_search(federation):
    surname_first, forenames_first = search.by_name_start("David Fletcher")
    [by_surname] = search.by_name_start("fletch")

    assert [player.name for player in by_surname] == ["Fletcher, Alice", "Fletcher, David"]
    assert list(surname_first) == [] and [player.name for player in forenames_first] == ["Fletcher, David"]
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # a table this small is scanned otherwise
        plans = [by_surname.explain(), forenames_first.explain()]
        cursor.execute("RESET enable_seqscan")
    assert "players_player_surname_start" in plans[0] and "Index Cond" in plans[0]
    assert "players_player_forenames_start" in plans[1]
    # A typo starts no name: the trigram search answers.
    assert search.matching_players("flecher david")[0].name == "Fletcher, David"
    assert search.by_name_start("flecher david")[0].count() == 0


def test_a_lapsed_player_is_shown_as_not_on_the_current_list(client, federation):
    lapsed = PlayerFactory(code="200007G", surname="Oldham", forenames="Ray")
    publish_month("otb-rapid", "2021-01", [{"player": lapsed, "rating": 1777, "games": 40, "last_played": "2021-01"}])
    publish_month("otb-rapid", "2026-10", [])

    page = client.get("/players/200007G/").content.decode()

    rapid = page.split('id="current-ratings"')[1].split("</table>")[0].split("OTB rapid")[1]
    assert "1777" in rapid and "not on the 2026-10 list (inactive: last played 2021-01)" in rapid


def test_a_new_publication_shows_at_once_though_the_lists_are_cached(
    client, federation, django_capture_on_commit_callbacks
):

    assert "<strong>1695</strong>" in client.get("/players/200003C/").content.decode()  # 2026-10, revised

    with django_capture_on_commit_callbacks(execute=True):
        publish_month(
            "otb-standard",
            "2026-11",
            [
                {
                    "player": federation.grace,
                    "rating": 1712,
                    "games": 305,
                    "category": "full",
                    "method": "K",
                    "prior_rating": 1695,
                }
            ],
        )

    page = client.get("/players/200003C/").content.decode()
    assert "<strong>1712</strong>" in page and "not on the" not in page


def test_a_name_typed_as_the_site_prints_it_with_its_comma_is_found(client, federation):
    page = client.get("/players/", {"q": "Fletcher, David"}).content.decode()

    assert "1 player found for “Fletcher David”" in page and 'href="/players/200002B/">Fletcher, David</a>' in page


def test_a_search_matching_more_players_than_it_shows_says_so_and_offers_more(client, federation):
    first = client.get("/players/", {"q": "filler"}).content.decode()
    more = client.get("/players/", {"q": "filler", "more": "1"}).content.decode()

    # 55 fillers: 20 shown, then 50, and each page says that more players match.
    assert first.count('<tr><td><a href="/players/3') == 20
    assert "The best 20 of the players who match “filler”: more match." in first
    assert 'href="?q=filler&amp;more=1">show up to 50</a>' in first
    assert more.count('<tr><td><a href="/players/3') == 50
    assert "The best 50 of the players who match “filler”: more match." in more and "show up to 50" not in more


def test_a_club_or_event_code_typed_in_another_case_leads_to_its_page(client, federation):
    assert client.get("/clubs/nqc/")["Location"] == "/clubs/NQC/"
    assert client.get("/events/nq2609/")["Location"] == "/events/NQ2609/"


def test_an_unknown_code_says_which_code_is_unknown(client, federation):
    assert "No player has the code 999999Z." in client.get("/players/999999Z/").content.decode()
    assert "No club has the code NOPE." in client.get("/clubs/NOPE/").content.decode()


def test_the_player_page_lists_every_event_with_its_performance_and_change(client, federation):
    david = client.get("/players/200002B/").content.decode()
    alice = client.get("/players/200001A/").content.decode()

    row = david.split('id="player-events"')[1].split("</table>")[0].split("<tr>")[2]
    # David at the congress: beat Grace (1700), drew Alice (1400): 2 games, 1.5 points; Ra 1550,
    # p 0.75, dp +193: 1743; (3100 + 400 x (1 - 0)) / 2 = 1750; increments +6.0 - 8.4 = -2.4.
    assert "Northquay Congress" in row and "5 Sep 2026 – 6 Sep 2026" in row
    cells = [cell.split(">", 1)[1].split("</td>")[0] for cell in row.split('<td class="num')[1:]]
    assert cells == ["2", "1.5", "1743", "1750", "-2.4"]
    # Alice's P rating rated the month: 1150 -> 1400, marked as the month's change.
    assert '<td class="num nowrap">+250 <abbr' in alice.split('id="player-events"')[1]


def test_the_player_page_gives_each_lists_rank_with_women_and_seniors_and_the_previous_rating(client, federation):
    page = client.get("/players/200003C/").content.decode()

    standard = page.split('id="current-ratings"')[1].split("</table>")[0].split("<tr>")[2]
    # Grace, 1695 on the 2026-10 list: David (1848) above her: 2nd. Alice's 1400P is not ranked,
    # so Grace is the first of the women, and the only senior. On the 2026-09 list she stood at
    # 1700: -5.
    assert '<td class="ranks"><strong>2</strong><br><span class="muted">1 among women</span>' in standard
    assert "1 among seniors (65 and over)" in standard
    assert '<td class="num fold">1700</td><td class="num">-5</td>' in standard


def test_a_rank_table_kept_before_only_full_ratings_were_ranked_is_not_read(client, federation):
    from grading.models import RatingList
    from grading.selectors.history import publication_key, published_list
    from grading.selectors.ranks import RANKS_IN_MEMORY

    published = published_list(RatingList.objects.get(code="otb-standard"))
    old_key = publication_key("ranks", published.period.pk, published.revision, published.period.published_at)
    # A table of the old kind, kept for 24 hours in the cache and in each process's memory: here
    # a wrong one, 50 players above every rating.
    wrong = {group: [50] * 3000 for group in ("all", "junior", "women", "senior")}
    cache.set(old_key, wrong, 24 * 3600)
    RANKS_IN_MEMORY.set(old_key, wrong)

    standard = client.get("/players/200003C/").content.decode().split('id="current-ratings"')[1].split("</table>")[0]

    # Grace, 1695, below David's 1848 only: 2nd, not 51st.
    assert '<td class="ranks"><strong>2</strong><br><span class="muted">1 among women</span>' in standard


def test_the_player_page_does_not_rank_a_partial_rating(client, federation):
    page = client.get("/players/200001A/").content.decode()

    standard = page.split('id="current-ratings"')[1].split("</table>")[0].split("<tr>")[2]
    # Alice, 1400P after six games, would be 4th: a Partial rating is not ranked at all.
    assert '<td class="ranks"><a href="/help/#rank" class="muted">not ranked (Partial)</a></td>' in standard
    assert "among" not in standard
    assert '<td class="num fold">1400</td><td class="num">0</td>' in standard


def test_head_to_head_gives_the_games_between_two_players_and_the_score(client, federation):
    page = client.get("/players/200002B/vs/200003C/").content.decode()
    none = client.get("/players/200001A/vs/200004D/").content.decode()

    # At the congress David beat Grace in round 1.
    assert "<strong>1</strong> – <strong>0</strong> from 1 game" in page
    table = page.split('id="head-to-head"')[1].split("</table>")[0]
    assert "Northquay Congress" in table and "White" in table and "1-0" in table
    assert "They have not met" in none


def test_the_head_to_head_form_leads_to_the_two_players_page_or_says_what_is_wrong(client, federation):
    found = client.get("/players/200002B/vs/", {"opponent": "200001a"})
    unknown = client.get("/players/200002B/vs/", {"opponent": "<b>nobody</b>"})
    own = client.get("/players/200002B/vs/", {"opponent": "200002b"})
    empty = client.get("/players/200002B/vs/", {"opponent": "  "})
    themself = client.get("/players/200002B/vs/200002B/")

    assert found.status_code == 302 and found["Location"] == "/players/200002B/vs/200001A/"
    assert unknown.status_code == 200
    assert "No other player matches “&lt;b&gt;nobody&lt;/b&gt;”." in unknown.content.decode()
    assert "200002B is Fletcher, David&#x27;s own code: give another player&#x27;s." in own.content.decode()
    assert "Give another player&#x27;s name or code." in empty.content.decode()
    assert themself.status_code == 404


def test_the_head_to_head_form_takes_a_name_as_the_search_does(client, federation):
    by_surname = client.get("/players/200002B/vs/", {"opponent": "dunn"})
    typed_as_printed = client.get("/players/200003C/vs/", {"opponent": "Fletcher, David"})
    # From David's page "fletcher" is Alice: a player is never their own opponent.
    the_other_fletcher = client.get("/players/200002B/vs/", {"opponent": "fletcher"})

    assert by_surname.status_code == 302 and by_surname["Location"] == "/players/200002B/vs/200003C/"
    assert typed_as_printed["Location"] == "/players/200003C/vs/200002B/"
    assert the_other_fletcher["Location"] == "/players/200002B/vs/200001A/"


def test_an_ambiguous_name_in_the_head_to_head_form_offers_the_players_it_matches(client, federation):
    response = client.get("/players/200003C/vs/", {"opponent": "fletcher"})

    page = response.content.decode()
    assert response.status_code == 200
    assert "2 players match “fletcher”: choose one." in page
    choices = page.split('id="opponent-choices"')[1].split("</ul>")[0]
    assert '<a href="/players/200003C/vs/200001A/">Fletcher, Alice</a>' in choices
    assert '<a href="/players/200003C/vs/200002B/">Fletcher, David</a>' in choices
    assert 'value="fletcher"' in page  # the name typed stays in the box


def test_a_common_name_in_the_head_to_head_form_offers_twenty_and_asks_for_more_of_it(client, federation):
    page = client.get("/players/200003C/vs/", {"opponent": "filler"}).content.decode()

    assert "20 players match “filler” (and more: give more of the name): choose one." in page
    assert page.split('id="opponent-choices"')[1].split("</ul>")[0].count("<li>") == 20
