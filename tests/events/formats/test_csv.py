"""Our CSV of games, and the template arbiters download."""

import datetime

from chess import results
from events.formats import CSV_COLUMNS, check_dates, parse_csv, parse_event_file
from tests.builders import ROOT, messages, parse

HEADER = "white,black,result,date,round\n"


def test_the_downloadable_template_parses_cleanly_and_names_every_column():
    path = ROOT / "static" / "events" / "results-template.csv"
    event = parse(path.read_text(encoding="utf-8"), path.name)
    assert event.format == "CSV"
    assert event.ok and not event.warnings, [str(p) for p in event.problems]
    assert len(event.games) == 2
    assert path.read_text().splitlines()[0] == ",".join(CSV_COLUMNS)
    assert event.player(1).name == "Abbott, Alice"


def test_it_reads_games_players_and_dates():
    event = parse(
        HEADER + "123456A,234567B,1-0,2026-10-03,1\n"
        "345678C,123456A,1/2-1/2,04/10/2026,2\n"
        "234567B,345678C,0-1F,2026-10-05,3\n"
    )
    assert event.ok and not event.warnings, [str(p) for p in event.problems]
    assert [p.federation_code for p in event.players] == ["123456A", "234567B", "345678C"]
    first, second, third = event.games
    assert (first.white, first.black, first.result, first.date, first.round, first.lines) == (
        1,
        2,
        results.WHITE_WIN,
        datetime.date(2026, 10, 3),
        1,
        (2,),
    )
    assert (second.white, second.result, second.date) == (3, results.DRAW, datetime.date(2026, 10, 4))
    assert third.result == results.BLACK_WIN_BY_DEFAULT
    # A CSV has no event dates: they come from the upload form, which the games must fall within.
    assert (event.start_date, event.end_date) == (None, None)


def test_it_reads_a_semicolon_separated_file_with_loose_headers_and_result_spellings():
    event = parse(
        "White;Black;Result;Date;White Name\n"
        "123456a;234567B;½-½;2026-10-03;Abbott, Alice\n"
        "123456A;234567B;0 - 1;2026-10-04;\n"
    )
    assert event.ok, [str(p) for p in event.problems]
    assert [g.result for g in event.games] == [results.DRAW, results.BLACK_WIN]
    assert event.player(1).name == "Abbott, Alice"


def test_it_refuses_a_header_without_the_required_columns():
    event = parse("white,black,result\n123456A,234567B,1-0\n", "games.csv")
    assert messages(event) == [(1, "the header has no column date; expected at least white,black,result,date")]


def test_it_refuses_a_malformed_federation_code_naming_line_and_column():
    event = parse(HEADER + "123456A,234567B,1-0,2026-10-03,1\n12345A,234567B,0-1,2026-10-03,2\n")
    [problem] = event.errors
    assert (problem.line, problem.column) == (3, 1)
    assert problem.message == ("white '12345A' is not a federation code (six digits and a check letter)")


def test_it_refuses_a_check_letter_outside_the_alphabet():
    event = parse(HEADER + "123456I,234567B,1-0,2026-10-03,1\n")
    assert not event.ok


def test_it_refuses_an_unknown_result():
    event = parse(HEADER + "123456A,234567B,1-1,2026-10-03,1\n")
    assert [(p.line, p.column, p.message) for p in event.errors] == [
        (2, 3, "result '1-1' is not one of 1-0, 0-1, 1/2-1/2, 1-0F, 0-1F, 0-0F")
    ]


def test_it_refuses_a_malformed_date():
    event = parse(HEADER + "123456A,234567B,1-0,10/31/2026,1\n")
    assert messages(event) == [(2, "date '10/31/2026' is not a date yyyy-mm-dd (or dd/mm/yyyy)")]


def test_it_refuses_a_player_paired_with_themself():
    event = parse(HEADER + "123456A,123456a,1-0,2026-10-03,1\n")
    assert messages(event) == [(2, "white and black are the same player")]


def test_it_refuses_a_player_with_two_games_in_one_round():
    event = parse(HEADER + "123456A,234567B,1-0,2026-10-03,1\n345678C,123456A,0-1,2026-10-03,1\n")
    assert messages(event) == [(3, "player 1 has 2 games in round 1 (lines 2, 3)")]


def test_it_refuses_a_row_with_more_values_than_the_header():
    event = parse(HEADER + "123456A,234567B,1-0,2026-10-03,1,extra\n")
    assert messages(event) == [(2, "6 values where the header has 5")]


def test_it_accepts_a_player_without_a_code_by_name_with_a_warning():
    event = parse('white,black,result,date,black_name\n123456A,,1-0,2026-10-03,"Newman, Nora"\n')
    assert event.ok
    assert event.player(2).name == "Newman, Nora" and event.player(2).federation_code is None
    assert (2, "'Newman, Nora' has no federation code; staff will match or register them by name") in messages(
        event, "warning"
    )


def test_the_django_side_checks_games_against_the_dates_of_the_upload_form():
    event = parse_csv(HEADER + "123456A,234567B,1-0,2026-10-03,1\n")
    [problem] = check_dates(event, datetime.date(2026, 10, 4), datetime.date(2026, 10, 5))
    assert problem.line == 2
    assert "outside the event (04/10/2026 to 05/10/2026)" in problem.message


def test_it_refuses_a_header_with_no_games():
    event = parse(HEADER)
    assert messages(event) == [(None, "the file has a header but no games")]


def test_another_federation_s_code_pattern_is_honoured():
    data = b"white,black,result,date\nAB1234,CD5678,1-0,2026-10-03\n"
    assert not parse_event_file(data, "g.csv").ok
    event = parse_event_file(data, "g.csv", code_pattern=r"[A-Z]{2}[0-9]{4}")
    assert event.ok and event.player(1).federation_code == "AB1234"
    [problem] = parse_event_file(data.replace(b"AB1234", b"AB12"), "g.csv", code_pattern=r"[A-Z]{2}[0-9]{4}").errors
    assert problem.message == "white 'AB12' is not a federation code (the pattern [A-Z]{2}[0-9]{4})"


def test_it_warns_about_an_unknown_column_and_a_code_named_two_ways():
    event = parse(
        "white,black,result,date,white_name,venue\n"
        '123456A,234567B,1-0,2026-10-03,"Abbott, Alice",Quay\n'
        '123456A,345678C,1-0,2026-10-04,"Abbot, Alicia",Quay\n'
    )
    assert event.ok
    assert [(p.line, p.column, p.message) for p in event.warnings] == [
        (1, 6, "unknown column 'venue' is ignored"),
        (3, 1, "123456A is named 'Abbot, Alicia' here but 'Abbott, Alice' on line 2"),
    ]


def test_it_warns_of_each_name_a_spreadsheet_would_take_for_a_formula_naming_its_line():
    event = parse(
        "white,black,result,date,white_name,black_name\n"
        '123456A,,1-0,2026-10-03,"=HYPERLINK(""http://evil.example""), Bob","+Plus, Pat"\n'
        '123456A,,0-1,2026-10-04,,"-Minus, Mo"\n'
        '123456A,,1/2-1/2,2026-10-05,,"@Sum, Sam"\n'
        '123456A,,1-0,2026-10-06,,"Ordinary-Name, Ann"\n'
    )

    assert event.ok
    formulas = [(line, message) for line, message in messages(event, "warning") if "formula" in message]
    assert formulas == [
        (
            2,
            "white_name '=HYPERLINK(\"http://evil.example\"), Bob' starts with '=', which a spreadsheet runs as "
            "a formula: is it the player's name? (Downloads write it with an apostrophe before it.)",
        ),
        (
            2,
            "black_name '+Plus, Pat' starts with '+', which a spreadsheet runs as a formula: is it the player's "
            "name? (Downloads write it with an apostrophe before it.)",
        ),
        (
            3,
            "black_name '-Minus, Mo' starts with '-', which a spreadsheet runs as a formula: is it the player's "
            "name? (Downloads write it with an apostrophe before it.)",
        ),
        (
            4,
            "black_name '@Sum, Sam' starts with '@', which a spreadsheet runs as a formula: is it the player's "
            "name? (Downloads write it with an apostrophe before it.)",
        ),
    ]
