import datetime

import pytest

from tests.builders import EntryFactory, EventFactory, PlayerFactory, play, rating_list

pytestmark = pytest.mark.django_db


def test_a_swiss_event_shows_its_crosstable_from_pins_and_games(client, federation, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        response = client.get("/events/NQ2609/")

    page = response.content.decode()
    assert "<h1>Northquay Congress</h1>" in page
    assert "5 Sep – 6 Sep 2026" in page and "OTB standard" in page and "Rated" in page
    table = page.split('id="crosstable"')[1].split("</table>")[0]
    rows = table.split("<tr>")[2:]
    # Alice: a bye, beat Grace (3) with white, drew David (1) with black: 2.5 points, first.
    assert "Fletcher, Alice" in rows[0]
    assert [cell in rows[0] for cell in (">bye 1<", ">3w1<", ">1b½<", "<strong>2.5</strong>")] == [True] * 4
    assert "Fletcher, David" in rows[1] and "<strong>2</strong>" in rows[1] and ">bye ½<" in rows[1]
    assert "Dunn, Grace" in rows[2] and "<strong>0</strong>" in rows[2]


def test_a_crosstable_shows_each_players_rating_before_and_as_used_performance_and_change(client, federation):
    page = client.get("/events/NQ2609/").content.decode()

    head = page.split('id="crosstable"')[1].split("</thead>")[0]
    rows = page.split('id="crosstable"')[1].split("</table>")[0].split("<tr>")[2:]

    def numbers(row):  # Before and Used, then Perf, 400 and the change after the points
        cells = [cell.split(">", 1)[1].split("</td>")[0] for cell in row.split('<td class="num')[1:]]
        return cells[2:4], cells[-3:]

    assert '<abbr title="Rating going into the event">Before</abbr>' in head
    assert '<abbr title="Rating the opponents counted">Used</abbr>' in head
    # Alice (P rated) went in at 1150; her P rating rates the month, so David counted her at
    # her new rating, 1400. Beat Grace (1700), drew David (1850): Ra 1775, p = 1.5 / 2 = 0.75,
    # dp +193: 1968; (3550 + 400 x (1 - 0)) / 2 = 1975. The month: 1150 -> 1400, +250.
    assert numbers(rows[0])[0] == ["1150", "1400"]
    assert numbers(rows[0])[1][:2] == ["1968", "1975"] and numbers(rows[0])[1][2].startswith("+250 <abbr")
    # David (K): went in at 1850, counted at 1850 by Alice. Beat Grace (1700), drew Alice
    # (1400): Ra 1550, 0.75: 1743; (3100 + 400) / 2 = 1750. Increments +6.0 and -8.4: -2.4.
    assert numbers(rows[1]) == (["1850", "1850"], ["1743", "1750", "-2.4"])
    # Grace was not rated that month: counted at 1700, nothing of her own.
    assert numbers(rows[2]) == (["", "1700"], ["", "", ""])


def test_a_round_robin_shows_a_grid(client, db):
    players = [PlayerFactory(surname=name) for name in ("Abbott", "Baker", "Carter")]
    event = EventFactory(code="RR1", kind="round-robin")
    a, b, c = [EntryFactory(event=event, pin=pin, player=player) for pin, player in enumerate(players, start=1)]
    play(a, b, "1-0", round=1)
    play(c, a, "1/2-1/2", round=2)
    play(b, c, "0-1F", round=3)

    page = client.get("/events/RR1/").content.decode()

    rows = page.split('id="crosstable"')[1].split("</table>")[0].split("<tr>")[2:]
    assert "Abbott" in rows[0] and "Carter" in rows[1] and "Baker" in rows[2]

    def cells(row):
        return [cell.split(">", 1)[1].split("</td>")[0] for cell in row.split('<td class="num')[1:-1]]

    assert cells(rows[0])[1:] == ['<span aria-label="same player">×</span>', "½", "1"]
    assert cells(rows[1])[1:] == ["½", '<span aria-label="same player">×</span>', "+"]
    assert cells(rows[2])[1:] == ["0", "−", '<span aria-label="same player">×</span>']


def test_a_team_match_shows_its_match_card_with_the_score(client, db):
    home, away = "Northquay", "Southbank"
    event = EventFactory(code="TM1", name="Northquay v Southbank", kind="team-match")
    boards = []
    for board in range(1, 5):
        ours = EntryFactory(event=event, pin=board, player=PlayerFactory(surname=f"Home{board}"), club_name=home)
        theirs = EntryFactory(event=event, pin=10 + board, player=PlayerFactory(surname=f"Away{board}"), club_name=away)
        boards.append((ours, theirs) if board % 2 else (theirs, ours))
    for board, (white, black) in enumerate(boards, start=1):
        play(white, black, ["1-0", "1/2-1/2", "0-1", "1-0"][board - 1], round=None, board=board)

    page = client.get("/events/TM1/").content.decode()

    assert "<h2>Match card</h2>" in page
    assert "Northquay <strong>1.5</strong> – Southbank <strong>2.5</strong>" in page
    card = page.split('id="match-card"')[1].split("</table>")[0]
    assert card.index("Home1") < card.index("Away1") < card.index("Away2") < card.index("Home2")


def test_approved_and_rated_events_are_public_and_a_submitted_one_by_its_status_alone(client, db):
    EventFactory(code="CHK1", status="checked")
    EventFactory(code="SUB1", name="Submitted League", status="submitted")
    EventFactory(code="APP1", name="Approved Rapid", status="approved", rating_list=rating_list("otb-rapid"))

    assert client.get("/events/CHK1/").status_code == 404  # still its arbiter's
    submitted = client.get("/events/SUB1/").content.decode()
    assert "<dd>Submitted</dd>" in submitted and "Crosstable" not in submitted
    assert client.get("/events/APP1/").status_code == 200
    index = client.get("/events/").content.decode()
    assert "Approved Rapid" in index and "Submitted League" in index and "CHK1" not in index


def test_the_events_index_filters_by_list_kind_status_year_and_name(client, federation, django_assert_max_num_queries):
    EventFactory(
        code="RP1",
        name="Spring Rapidplay",
        rating_list=rating_list("otb-rapid"),
        status="approved",
        start_date=datetime.date(2025, 4, 1),
        end_date=datetime.date(2025, 4, 1),
    )
    EventFactory(code="RR2", name="Invitational", kind="round-robin")

    def events(query):
        page = client.get("/events/?" + query).content.decode()
        return [
            row.split('">', 1)[1].split("</a>")[0] for row in page.split('<a href="/events/')[1:] if "</a> <span" in row
        ]

    with django_assert_max_num_queries(4):
        client.get("/events/?rating_list=otb-rapid&kind=swiss&year=2025&q=spring")
    assert events("") == ["Northquay Congress", "Invitational", "Spring Rapidplay"]
    assert events("rating_list=otb-rapid") == ["Spring Rapidplay"]
    assert events("kind=round-robin") == ["Invitational"]
    assert events("status=approved") == ["Spring Rapidplay"]
    assert events("year=2025") == ["Spring Rapidplay"]
    assert events("q=congress") == ["Northquay Congress"]
    assert events("q=NQ2609") == ["Northquay Congress"]
    assert client.get("/events/?year=abc&kind=nonsense").status_code == 200
    assert client.get("/events/?page=7").status_code == 404


def test_a_page_past_the_index_says_how_many_pages_it_has(client, federation, settings):
    settings.DEBUG = False

    assert "There is no page 7: the index has 1 page." in client.get("/events/?page=7").content.decode()
    assert "&#x27;two&#x27; is not a page number." in client.get("/events/?page=two").content.decode()


def test_the_event_page_counts_games_apart_from_byes(client, federation):
    page = client.get("/events/NQ2609/").content.decode()

    # Three rounds of three players: three games, and a bye in rounds 1 and 2.
    assert "<dt>Games</dt><dd>3; and 2 byes</dd>" in page
