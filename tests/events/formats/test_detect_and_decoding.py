"""Recognising the format from the content, and turning any encoding into text."""

import codecs
import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chess.decoding import decode
from events.formats import detect_format, parse_event_file
from events.formats.base import ParsedEvent, ParsedGame, ParsedPlayer
from events.uploads.checking import Check, EventDetails
from tests.builders import DATA, ECF_EXAMPLE_FILE, TRF_DIR, trf, trf_player

CSV = b"white,black,result,date\n123456A,234567B,1-0,2026-10-03\n"


@pytest.mark.parametrize(
    "data, expected",
    [
        ((TRF_DIR / "bunratty-masters-2011.trf").read_bytes(), "TRF16"),
        (ECF_EXAMPLE_FILE.read_bytes(), "ECF"),
        (CSV, "CSV"),
    ],
)
@pytest.mark.parametrize("filename", ["", "upload.txt", "upload.csv", "upload.trf"])
def test_it_detects_the_format_from_the_content_whatever_the_file_is_called(data, expected, filename):
    assert parse_event_file(data, filename).format == expected


def test_it_refuses_an_unrecognisable_file_saying_what_it_expected():
    event = parse_event_file(b"Results of the club championship\nAlice beat Brian\n", "r.txt")
    assert event.format == "" and not event.ok
    [problem] = event.errors
    assert problem.message.startswith("the file's format is not recognised. Expected one of: a FIDE TRF file")
    assert "white, black, result, date" in problem.message


def test_it_refuses_a_spreadsheet_asking_for_csv():
    event = parse_event_file(b"PK\x03\x04rest of a zip", "results.xlsx")
    assert "save it as CSV" in event.errors[0].message


def test_it_refuses_an_empty_file():
    assert not parse_event_file(b"", "empty.csv").ok


def test_the_file_name_only_breaks_a_tie():
    # A header naming CSV columns and lines that look like TRF records: the name decides.
    text = "white,black,result,date\n001 x\n012 y\n"
    assert detect_format(text, "games.csv") == "csv"
    assert detect_format(text, "games.trf") == "trf"


@pytest.mark.parametrize(
    "data, text, encoding",
    [
        (codecs.BOM_UTF8 + "Läs\r\nVégas\r".encode(), "Läs\nVégas\n", "utf-8"),
        (codecs.BOM_UTF16_LE + "Örr\r\n".encode("utf-16-le"), "Örr\n", "utf-16"),
        ("Örr “quoted”\n".encode("cp1252"), "Örr “quoted”\n", "cp1252"),
        (b"\x81\xd6rr\n", "\x81Örr\n", "latin-1"),  # 0x81 is undefined in CP1252
    ],
)
def test_it_decodes_boms_utf_16_cp1252_and_latin_1_and_normalises_line_ends(data, text, encoding):
    assert decode(data) == (text, encoding)


def test_a_trf_file_in_utf_16_with_crlf_parses():
    text = trf(trf_player(1, "Örr, Mârk", (2, "w", "1")), trf_player(2, "Baker, Brian", (1, "b", "0")))
    event = parse_event_file(text.replace("\n", "\r\n").encode("utf-16"), "x.trf")
    assert event.ok and event.player(1).name == "Örr, Mârk" and event.encoding == "utf-16"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600))
def test_it_never_raises_on_arbitrary_bytes(data):
    parse_event_file(data, "x")


REAL = [(TRF_DIR / "javafo-example-open.trf").read_text(), ECF_EXAMPLE_FILE.read_text(), CSV.decode()]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(REAL),
    st.integers(0, 10_000),
    st.integers(0, 40),
    st.text(alphabet="0123456789 #=-+wbWBHUZ/.,;\n", max_size=12),
)
def test_it_never_raises_on_a_real_file_with_a_stretch_replaced(text, at, length, junk):
    at %= len(text)
    event = parse_event_file((text[:at] + junk + text[at + length :]).encode(), "x")
    assert all(p.message for p in event.problems)


def test_a_dos_end_of_file_mark_at_the_end_is_dropped():
    event = parse_event_file(ECF_EXAMPLE_FILE.read_bytes().rstrip(b"\n") + b"\x1a")

    assert event.format == "ECF" and event.ok


def test_it_refuses_every_line_holding_a_control_character_and_names_it():
    data = CSV + b"123456A,234567B,0-1\x07,2026-10-03\n" + b"345678C,234567B,1-0,2026-10-04\x1a\n"

    event = parse_event_file(data)

    assert not event.ok
    assert [(problem.line, problem.message.split(",")[0]) for problem in event.problems] == [
        (3, "contains the control character U+0007"),
        (4, "contains the control character U+001A"),
    ]


def test_an_image_is_refused_as_not_a_text_file_of_results_not_as_two_encodings():
    # Its bytes hold pairs UTF-8 would write for accented letters: read as text, it looked like
    # a file saved in two encodings.
    event = parse_event_file((DATA / "not-results" / "chart.png").read_bytes(), "results.trf")

    assert [(problem.line, problem.message.split(". ")[0]) for problem in event.errors] == [
        (None, "this is a PNG image, not a text file of results")
    ]


@pytest.mark.parametrize(
    ("start", "what"),
    [(b"\xff\xd8\xff\xe0", "a JPEG image"), (b"%PDF-1.7\n", "a PDF document"), (b"\x01\x02\x00\x03", "a binary file")],
)
def test_other_files_that_are_not_text_say_what_they_are(start, what):
    event = parse_event_file(start + "é".encode() * 3 + b"\x00\x00", "results.csv")

    assert event.errors[0].message.startswith(f"this is {what}, not a text file of results.")


def test_a_file_that_only_looks_like_utf_16_is_refused_not_an_error():
    # A UTF-16 byte-order mark and then an odd number of bytes: not UTF-16 after all.
    event = parse_event_file(b"\xfe\xff\x00\x00\x00\x00\x00\x00\x00", "x")

    assert not event.ok and "binary file" in event.errors[0].message


def test_an_events_dates_from_its_games_are_worked_out_once_not_once_a_game():
    # Checking a file whose dates come from its games asked for them once a game, and each time
    # went through every game: 16,000 games took 10 s. bench/upload.py measures the whole check.

    parsed = ParsedEvent(format="CSV", games=[ParsedGame(1, 2, "1-0", date=datetime.date(2026, 10, 3))])
    check = Check(parsed, EventDetails())
    assert check.start_date == datetime.date(2026, 10, 3)
    parsed.games.append(ParsedGame(1, 2, "1-0", date=datetime.date(2026, 10, 1)))
    assert check.start_date == datetime.date(2026, 10, 3)  # the first answer stands: not worked out again


def test_a_player_is_found_by_pin_as_players_are_added():
    event = ParsedEvent(format="CSV", players=[ParsedPlayer(1, "Abbott")])
    assert event.player(1).surname == "Abbott" and event.player(2) is None
    event.players += [ParsedPlayer(2, "Baker"), ParsedPlayer(2, "Second")]
    assert event.player(2).surname == "Baker"  # the first of a pin, as before
