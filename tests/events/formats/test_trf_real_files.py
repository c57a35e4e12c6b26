"""Every real TRF file in tests/data/trf parses, with its real numbers."""

import datetime
from decimal import Decimal

import pytest

from chess import results
from tests.builders import DATA, TRF_DIR, parse_file


def load(name):
    event = parse_file(TRF_DIR / name)
    assert event.ok, [str(p) for p in event.errors]
    return event


def game(event, round_, white, black):
    return next(g for g in event.games if (g.round, g.white, g.black) == (round_, white, black))


@pytest.mark.parametrize("path", sorted(TRF_DIR.glob("*.trf")), ids=lambda p: p.name)
def test_every_real_trf_file_parses_without_errors(path):
    event = parse_file(path)
    assert event.format == "TRF16"
    assert event.ok, [str(p) for p in event.errors]
    assert event.players and event.games


@pytest.mark.parametrize("path", sorted(TRF_DIR.glob("*.trf")), ids=lambda p: p.name)
def test_every_played_game_is_merged_from_two_lines_into_one(path):
    event = parse_file(path)
    for g in event.games:
        if g.black is None:
            assert g.result in results.BYES
        else:
            assert len(g.lines) == 2 and g.lines[0] != g.lines[1]
    pairings = [(g.round, frozenset((g.white, g.black))) for g in event.games if g.black]
    assert len(pairings) == len(set(pairings))


def test_it_reads_the_bunratty_masters_with_its_crlf_and_its_year_day_month_round_dates():
    event = load("bunratty-masters-2011.trf")
    assert event.name == "Bunratty 2011"
    assert (event.start_date, event.end_date) == (datetime.date(2011, 2, 25), datetime.date(2011, 2, 27))
    assert len(event.players) == 34
    assert len([g for g in event.games if g.black]) == 97
    short = event.player(1)
    assert (short.surname, short.forenames, short.title, short.sex) == ("Short", "Nigel", "GM", "M")
    assert short.fide_rating == 2658 and short.fide_federation == "ENG"
    wilson = event.player(26)
    assert (wilson.name, wilson.sex, wilson.title) == ("Wilson, Alexandra", "F", "WFM")
    # Round 4, Short (black) lost to Jones; "11.26.02" is 26 February 2011.
    g = game(event, 4, 4, 1)
    assert (g.result, g.date) == (results.WHITE_WIN, datetime.date(2011, 2, 26))
    assert game(event, 6, 14, 1).date == datetime.date(2011, 2, 27)
    assert event.kind == "swiss"
    assert event.time_control.minutes_per_player() == 100  # "1:30 + 10 from move 1"


def test_it_reads_bunrattys_blank_rounds_as_the_half_point_byes_its_points_column_counts():
    event = load("bunratty-masters-2011.trf")
    byes = [(g.round, g.white, g.result) for g in event.games if g.black is None]
    assert byes == [
        (1, 19, "BYE-1/2"),
        (1, 34, "BYE-1/2"),
        (3, 18, "BYE-1/2"),
        (4, 16, "BYE-1/2"),
        (5, 16, "BYE-1/2"),
        (6, 25, "BYE-1/2"),
    ]
    assert [(p.line, p.message) for p in event.warnings if "points" in p.message] == [
        (
            29,
            "the points column (81-84) counts half a point for each round left blank, for 5 players: "
            "those rounds are read as half-point byes (lines 29, 31, 32, 38, 47)",
        )
    ]


def test_it_reads_bunrattys_clubs_in_the_federation_column_as_clubs():
    event = load("bunratty-masters-2011.trf")
    assert (event.player(16).fide_federation, event.player(16).club_name) == ("", "DUB")
    assert (event.player(28).fide_federation, event.player(28).club_name) == ("FIN", "")
    assert sorted({p.fide_federation for p in event.players}) == ["", "BRA", "ENG", "FIN"]
    assert len([p for p in event.players if p.club_name]) == 22


def test_it_reads_the_javafo_open_with_forfeits_and_byes():
    event = load("javafo-example-open.trf")
    assert event.name == "XX Open Internacional de Gros"
    assert (event.start_date, event.end_date) == (datetime.date(2010, 9, 24), datetime.date(2010, 10, 2))
    assert len(event.players) == 52
    assert {g.round for g in event.games} == {1, 2, 3, 4}
    # 52 players x 4 rounds = 208 slots: 22 byes and 93 pairings, 4 of them forfeits.
    assert len([g for g in event.games if g.black is None]) == 22
    assert len([g for g in event.games if g.black]) == 93
    assert len([g for g in event.games if g.result in results.PLAYED]) == 89
    # Forfeits: 13 v 39 in round 1 ("+" and "-"), 8 v 21 in round 4.
    assert game(event, 1, 13, 39).result == results.WHITE_WIN_BY_DEFAULT
    assert game(event, 4, 8, 21).result == results.BLACK_WIN_BY_DEFAULT
    byes = {(g.white, g.round): g.result for g in event.games if g.black is None}
    assert byes[(14, 3)] == results.HALF_POINT_BYE
    assert byes[(28, 1)] == results.ZERO_POINT_BYE
    assert byes[(48, 4)] == results.FULL_POINT_BYE  # "U", the pairing-allocated bye
    mirzoev = event.player(1)
    assert (mirzoev.surname, mirzoev.forenames) == ("Mirzoev Azer", "")
    assert mirzoev.fide_id == 13400304 and mirzoev.birth_year == 1978 and not mirzoev.birth_date
    assert event.player(6).name == "Gorrochategui Torres, Eugenio"
    assert event.player(23).sex == "F"
    assert all(g.date is None for g in event.games)  # no record 132
    assert event.time_control is None
    assert any("cannot read the time control 'moves/time, increment'" in p.message for p in event.warnings)
    assert any(p.message.startswith("51 player names have no comma") for p in event.warnings)


def test_it_decodes_the_accented_names_of_a_latin_1_file():
    event = load("latin-1.trf")
    assert event.name == "Läs Végas National Opeñ"
    assert [p.name for p in event.players] == ["Uì Laighlèis, Gearoìdin", "Örr, Mârk", "Bologan, Viktor"]
    assert event.player(1).sex == "F"
    assert (event.player(2).title, event.player(3).title) == ("IM", "GM")
    assert event.start_date == event.end_date == datetime.date(2008, 6, 7)
    # A one-day event without round dates: the games take the event's date.
    g = game(event, 2, 1, 3)
    assert (g.result, g.date) == (results.WHITE_WIN, datetime.date(2008, 6, 7))
    assert len(event.games) == 3 and event.kind == "round-robin"


def test_it_reads_the_armstrong_extract_despite_its_byte_order_mark_and_column_ruler():
    event = load("armstrong-2012-with-bom.trf")
    assert event.name == "Leinster Chess Union Div 1 Armstrong Cup 2011 - 2012"
    assert event.city == "Dublin" and event.federation == "IRL"
    # "11.09.26" and "12.04.01" are YY.MM.DD: the only reading with the end after the start.
    assert (event.start_date, event.end_date) == (datetime.date(2011, 9, 26), datetime.date(2012, 4, 1))
    assert [p.name for p in event.players] == ["Griffiths, Ryan-Rhys", "Cafolla, Peter"]
    # The ICU's own numbers in the FIDE-ID column: no FIDE ID has fewer than six digits.
    assert event.player(1).fide_rating == 2322 and event.player(1).fide_id is None
    assert "starting rank 1: '6897' is not a FIDE ID (6 to 9 digits): it is ignored" in [
        p.message for p in event.warnings
    ]
    [g] = event.games
    assert (g.white, g.black, g.result, g.date) == (1, 2, results.WHITE_WIN, None)
    assert any("no date" in p.message for p in event.warnings)


@pytest.mark.parametrize(
    "name, players, games, byes",
    [
        ("online-swiss-2020-06.trf", 13, 56, 18),  # 13 x 10 rounds = 130 = 2 x 56 + 18
        ("online-swiss-2021-03.trf", 9, 36, 9),  # 9 x 9 rounds = 81 = 2 x 36 + 9
    ],
)
def test_it_reads_the_online_swiss_exports(name, players, games, byes):
    event = load(name)
    assert len(event.players) == players
    assert len([g for g in event.games if g.black]) == games
    assert len([g for g in event.games if g.black is None]) == byes
    assert event.online is True
    assert event.start_date == event.end_date
    assert all(g.date == event.start_date for g in event.games)
    assert event.kind == "swiss"


def test_it_reads_the_online_swiss_byes_and_absences():
    event = load("online-swiss-2020-06.trf")
    assert event.start_date == datetime.date(2020, 5, 29)
    byes = {(g.white, g.round): g.result for g in event.games if g.black is None}
    assert byes[(5, 1)] == results.HALF_POINT_BYE
    assert byes[(5, 2)] == results.ZERO_POINT_BYE  # "-" with no opponent: absent
    assert byes[(6, 2)] == results.FULL_POINT_BYE
    assert game(event, 1, 13, 1).result == results.BLACK_WIN
    assert event.player(1).name == "mattderkuerschner"


@pytest.mark.parametrize(
    "name", ["javafo-example-open.trf", "online-swiss-2020-06.trf", "online-swiss-2021-03.trf", "latin-1.trf"]
)
def test_the_results_read_add_up_to_each_player_s_points_column(name):
    event = load(name)
    lines = (TRF_DIR / name).read_bytes().decode("latin-1").splitlines()
    for player in event.players:
        scored = sum(
            (results.scores(g.result)[0] if g.white == player.pin else results.scores(g.result)[1])
            for g in event.games
            if player.pin in (g.white, g.black)
        )
        assert scored == Decimal(lines[player.line - 1][80:84]), player


def test_a_file_whose_round_blocks_start_two_columns_late_reads_as_its_original():
    original = load("bunratty-masters-2011.trf")
    late = parse_file(DATA / "trf-derived" / "bunratty-rounds-two-columns-late.trf")

    assert late.ok, [str(p) for p in late.errors]
    assert [(p.surname, p.forenames, p.fide_rating) for p in late.players] == [
        (p.surname, p.forenames, p.fide_rating) for p in original.players
    ]
    assert (late.players[0].name, late.players[0].fide_rating) == ("Short, Nigel", 2658)
    assert [(g.round, g.white, g.black, g.result) for g in late.games] == [
        (g.round, g.white, g.black, g.result) for g in original.games
    ]
    shifted = [p for p in late.warnings if "not 92" in p.message]
    assert len(shifted) == 34 and shifted[0].message == (
        "the round results start at column 94, not 92; read with that shift"
    )
