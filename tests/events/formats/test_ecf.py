"""The ECF results submission file: the spec's example, and every kind of broken file."""

import datetime

import pytest

from chess import results
from tests.builders import ECF_EXAMPLE_FILE, messages, parse, parse_file

DETAILS = """#EVENT DETAILS
#EVENT CODE=NQ241002
#SUBMISSION INDEX=2
#EVENT NAME=Northquay League 2026
#EVENT DATE=01/10/2026
#FINAL RESULT DATE=31/10/2026
#RESULTS OFFICER=R. Officer
#RESULTS OFFICER ADDRESS=1 Quay Street
#TREASURER=T. Reasurer
#TREASURER ADDRESS=2 Quay Street
#MINUTES FOR GAME=75
#SECONDS PER MOVE=15
"""
PLAYERS = """#PLAYER LIST
#PIN=1#ECF CODE=123456A#NAME=Abbott, Alice
#PIN=2#ECF CODE=234567B#NAME=Baker, Brian
#PIN=3#ECF CODE=345678C#NAME=Carter, Chloe
"""


def ecf(results_part, details=DETAILS, players=PLAYERS, finish="#FINISH\n"):
    return details + players + results_part + finish


def test_it_reads_the_spec_s_example_file():
    event = parse_file(ECF_EXAMPLE_FILE)
    assert event.ok and not event.warnings, [str(p) for p in event.problems]
    assert (event.format, event.code, event.submission_index) == ("ECF", "NQ241001", 1)
    assert event.name == "Northquay Autumn Congress 2026 Open"
    assert (event.start_date, event.end_date) == (datetime.date(2026, 10, 3), datetime.date(2026, 10, 4))
    tc = event.time_control
    assert (tc.moves_first_session, tc.base_minutes, tc.minutes_rest_of_game) == (40, 90, 30)
    assert tc.minutes_per_player() == 120
    assert len(event.players) == 4 and len(event.games) == 6
    alice = event.player(1)
    assert (alice.name, alice.federation_code, alice.sex, alice.birth_date, alice.club_name) == (
        "Abbott, Alice",
        "123456A",
        "F",
        datetime.date(1990, 5, 12),
        "Northquay",
    )
    assert event.player(4).federation_code is None
    # Round 3: PIN 1 had black and drew with PIN 3.
    g = next(g for g in event.games if g.round == 3 and 1 in (g.white, g.black))
    assert (g.white, g.black, g.result, g.date) == (3, 1, results.DRAW, datetime.date(2026, 10, 4))
    default = next(g for g in event.games if g.round == 2 and g.white == 2)
    assert (default.black, default.result) == (3, results.WHITE_WIN_BY_DEFAULT)
    assert all(g.section == "Open" for g in event.games)
    assert event.kind == "round-robin"


def test_it_ignores_spaces_in_names_and_line_breaks_between_fields_and_knows_the_old_aliases():
    text = ecf(
        "#SECTION RESULTS=Open\n#PIN1=1 #SCORE=10\n#PIN2=2#ROUND=1\n#GAME DATE=03/10/2026\n",
        details=DETAILS.replace("#EVENT CODE=", "#EVENTCODE=").replace("\n#SUB", "#SUB"),
        players="#PLAYER LIST\n#PIN=1#BCF CODE=123456a#NAME=Abbott,\n Alice#CLUB=Quay\n"
        "#PIN=2#SURNAME=Baker#INITIALS=B#BCF NO=A1234\n",
    )
    event = parse(text)
    assert event.ok and not event.warnings, [str(p) for p in event.problems]
    assert event.code == "NQ241002"
    alice, brian = event.players
    assert (alice.name, alice.federation_code, alice.club_name) == ("Abbott, Alice", "123456A", "Quay")
    assert brian.name == "Baker, B"
    assert event.time_control.minutes_per_player() == 90  # 75 + 60 x 15 s


@pytest.mark.parametrize(
    "field",
    [
        "EVENT CODE",
        "SUBMISSION INDEX",
        "EVENT NAME",
        "EVENT DATE",
        "FINAL RESULT DATE",
        "RESULTS OFFICER",
        "TREASURER ADDRESS",
    ],
)
def test_it_refuses_a_file_missing_a_mandatory_field_naming_it(field):
    details = "".join(line + "\n" for line in DETAILS.splitlines() if not line.startswith(f"#{field}="))
    event = parse(ecf("#SECTION RESULTS=Open\n#PIN1=1#SCORE=10#PIN2=2#GAME DATE=03/10/2026\n", details=details))
    assert f"#{field} is missing" in [p.message for p in event.errors]


def test_it_refuses_a_file_without_a_time_control():
    details = DETAILS.replace("#MINUTES FOR GAME=75\n", "")
    event = parse(ecf("", details=details))
    assert any(p.message.startswith("the time control is missing") for p in event.errors)


def test_it_refuses_an_incomplete_session_time_control_naming_the_missing_field():
    details = DETAILS.replace("#MINUTES FOR GAME=75", "#MOVES FIRST SESSION=40\n#MINUTES FIRST SESSION=90")
    event = parse(ecf("", details=details))
    assert (11, "the time control has no #MINUTES REST OF GAME") in messages(event)


def test_it_refuses_a_game_without_a_score_naming_its_line():
    event = parse(ecf("#SECTION RESULTS=Open\n#PIN1=1#SCORE=10#PIN2=2\n#PIN1=3#PIN2=1\n"))
    assert messages(event) == [(19, "the game starting #PIN1=3 has no #SCORE")]


def test_it_refuses_a_game_against_a_pin_not_in_the_player_list():
    event = parse(ecf("#SECTION RESULTS=Open\n#PIN1=1#SCORE=10#PIN2=7#ROUND=1\n"))
    assert messages(event) == [(18, "the game refers to player 7, who is not in the player list")]


def test_it_refuses_duplicate_pins():
    players = PLAYERS + "#PIN=2#NAME=Dunn, David\n"
    event = parse(ecf("", players=players))
    assert messages(event) == [(17, "PIN 2 is used twice (lines 15 and 17)")]


def test_it_refuses_a_player_paired_with_themself():
    event = parse(ecf("#SECTION RESULTS=Open\n#PIN1=2#SCORE=55#PIN2=2\n"))
    assert messages(event) == [(18, "player 2 is paired with themself")]


def test_it_refuses_a_player_with_two_games_in_one_round():
    event = parse(ecf("#SECTION RESULTS=Open\n#PIN1=1#SCORE=10#PIN2=2#ROUND=1\n#PIN1=3#SCORE=01#PIN2=1#ROUND=1\n"))
    assert messages(event) == [(19, "player 1 has 2 games in round 1 (lines 18, 19)")]


@pytest.mark.parametrize("score", ["11", "20", "1/2", "d0"])
def test_it_refuses_an_unknown_score(score):
    event = parse(ecf(f"#SECTION RESULTS=Open\n#PIN1=1#SCORE={score}#PIN2=2\n"))
    assert messages(event) == [(18, f"#SCORE {score!r} is not one of 10, 01, 55 (played) or 1d, d1, dd (defaults)")]


def test_it_refuses_a_malformed_game_date():
    event = parse(ecf("#SECTION RESULTS=Open\n#PIN1=1#SCORE=10#PIN2=2\n#GAME DATE=2026-10-03\n"))
    assert messages(event) == [(19, "#GAME DATE '2026-10-03' is not a date dd/mm/yyyy")]


def test_it_refuses_a_game_dated_outside_the_event():
    event = parse(ecf("#SECTION RESULTS=Open\n#PIN1=1#SCORE=10#PIN2=2#GAME DATE=01/11/2026\n"))
    assert messages(event) == [
        (
            18,
            "game 1 (Abbott, Alice) v 2 (Baker, Brian) is dated 01/11/2026, outside the event "
            "(01/10/2026 to 31/10/2026)",
        )
    ]


def test_it_refuses_a_file_cut_short_before_finish():
    event = parse(ecf("#SECTION RESULTS=Open\n#PIN1=1#SCORE=10#PIN2=2\n", finish=""))
    assert (None, "the file has no #FINISH: it may have been cut short") in messages(event)


def test_it_warns_about_a_malformed_ecf_code_and_ignores_it():
    players = PLAYERS.replace("234567B", "23456B")
    event = parse(ecf("", players=players))
    assert event.ok
    assert (15, "PIN 2: #ECF CODE '23456B' is not six digits and a check letter; it is ignored") in messages(
        event, "warning"
    )
    assert event.player(2).federation_code is None


def test_it_reads_a_team_match_with_boards_white_on_odd_and_a_defaulted_board():
    event = parse(
        ecf(
            "#MATCH RESULTS=Quay A v Bank B\n#RESULTS DATE=14/10/2026\n#WHITE ON=ODD\n"
            "#PIN1=1#SCORE=01#PIN2=2#BOARD=1\n"
            "#PIN1=3#SCORE=10#PIN2=2#BOARD=2#COLOUR=WHITE\n"
            "#PIN1=0#SCORE=d1#PIN2=3#BOARD=3\n"
        )
    )
    assert event.ok, [str(p) for p in event.problems]
    assert event.kind == "team-match"
    board1, board2, board3 = event.games
    assert (board1.white, board1.black, board1.result, board1.board) == (1, 2, "0-1", 1)
    assert board1.date == datetime.date(2026, 10, 14)
    assert (board2.white, board2.black, board2.result) == (3, 2, "1-0")  # COLOUR beats WHITE ON
    assert (board3.white, board3.black, board3.result) == (3, None, results.WHITE_WIN_BY_DEFAULT)
    assert board3.section == "Quay A v Bank B"


def test_it_reads_colour_black_as_pin1_having_black():
    event = parse(ecf("#OTHER RESULTS=Friendlies\n#PIN1=1#SCORE=10#PIN2=2#COLOUR=BLACK\n#GAME DATE=05/10/2026\n"))
    [g] = event.games
    assert (g.white, g.black, g.result, g.section) == (2, 1, results.BLACK_WIN, "Friendlies")
    assert event.kind == "other"


def test_it_warns_about_an_unknown_field_and_refuses_one_out_of_place():
    event = parse(ecf("#SECTION RESULTS=Open\n#SCORE=10\n#PIN1=1#SCORE=10#PIN2=2#FAVOURITE=tea\n"))
    assert messages(event) == [(18, "#SCORE is out of place: each game starts with #PIN1=")]
    assert (19, "unknown field #FAVOURITE is ignored") in messages(event, "warning")


def test_a_double_default_is_read_and_never_rated():
    event = parse(ecf("#SECTION RESULTS=Open\n#PIN1=1#SCORE=dd#PIN2=2#GAME DATE=05/10/2026\n"))
    [g] = event.games
    assert g.result == results.DOUBLE_DEFAULT
    assert results.unrated_reason(g.result) == "default"
