"""Broken TRF files: each problem is reported with its line (and column)."""

import datetime

from chess import results
from events.formats import parse_event_file
from tests.builders import messages, parse, trf, trf_player


def test_it_reads_a_small_clean_file_as_the_columns_say():
    event = parse(
        trf(
            "132" + " " * 88 + "26/10/03  26/10/04",
            trf_player(
                1,
                "Abbott, Alice",
                (2, "w", "1"),
                (0, "-", "H"),
                sex="w",
                title="wf",
                rating="1850",
                fed="ENG",
                fide_id="400123",
                birth="1990/05/12",
                points="1.5",
            ),
            trf_player(2, "Baker, Brian", (1, "b", "0"), points="0.0"),
        )
    )
    assert event.ok and not event.warnings, [str(p) for p in event.problems]
    alice = event.player(1)
    assert (
        alice.name,
        alice.sex,
        alice.title,
        alice.fide_rating,
        alice.fide_federation,
        alice.fide_id,
        alice.birth_date,
    ) == ("Abbott, Alice", "F", "WFM", 1850, "ENG", 400123, datetime.date(1990, 5, 12))
    played, bye = event.games
    assert (played.white, played.black, played.result, played.round, played.lines) == (
        1,
        2,
        results.WHITE_WIN,
        1,
        (6, 7),
    )
    assert played.date == datetime.date(2026, 10, 3)
    assert (bye.white, bye.black, bye.result, bye.date) == (1, None, results.HALF_POINT_BYE, datetime.date(2026, 10, 4))


def test_it_refuses_a_file_with_duplicate_starting_ranks():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1")),
            trf_player(2, "Baker, Brian", (1, "b", "0")),
            trf_player(2, "Carter, Chloe"),
        )
    )
    assert (7, "starting rank 2 is also used on line 6") in messages(event)


def test_it_refuses_a_game_against_an_unknown_starting_rank():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (9, "w", "1")),
            trf_player(2, "Baker, Brian"),
        )
    )
    [problem] = event.errors
    assert (problem.line, problem.column) == (5, 92)
    assert problem.message == "round 1: the opponent's starting rank 9 is not in the file"


def test_it_refuses_a_player_paired_with_themself():
    event = parse(trf(trf_player(1, "Abbott, Alice", (1, "w", "1"))))
    assert (5, "round 1: player 1 is paired with themself") in messages(event)


def test_it_refuses_two_halves_that_both_claim_the_win_naming_both_lines():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1")),
            trf_player(2, "Baker, Brian", (1, "b", "1")),
        )
    )
    [problem] = event.errors
    assert problem.line == 6
    assert problem.message == (
        "round 1: lines 5 (player 1) and 6 (player 2) disagree about the result: 1 has '1', 2 has '1'"
    )
    assert not event.games


def test_it_refuses_two_halves_that_give_both_players_white():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1")),
            trf_player(2, "Baker, Brian", (1, "w", "0")),
        )
    )
    assert messages(event) == [(6, "round 1: lines 5 (player 1) and 6 (player 2) disagree: both give 1 and 2 white")]


def test_it_refuses_a_game_that_only_one_of_the_two_lines_shows():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1")),
            trf_player(2, "Baker, Brian", (3, "w", "1")),
            trf_player(3, "Carter, Chloe", (2, "b", "0")),
        )
    )
    assert messages(event) == [
        (5, "round 1: player 1 is paired with 2, but line 6 (player 2) shows no game against 1 in that round")
    ]


def test_it_refuses_a_bye_code_that_has_an_opponent():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "H")),
            trf_player(2, "Baker, Brian", (1, "b", "H")),
        )
    )
    assert (5, "round 1: 'H' is a bye, but an opponent (2) is given") in messages(event)


def test_it_refuses_a_round_block_it_cannot_read():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "x", "1")),
            trf_player(2, "Baker, Brian", (1, "b", "0")),
        )
    )
    problem = event.errors[0]
    assert (problem.line, problem.column) == (5, 92)
    assert problem.message.startswith("cannot read round 1, '   2 x 1' in columns 92-101: each round needs")


def test_it_names_the_round_whose_result_code_is_unknown():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1"), (3, "b", "X")),
            trf_player(2, "Baker, Brian", (1, "b", "0")),
            trf_player(3, "Carter, Chloe", (0, "-", "-"), (1, "w", "1")),
        )
    )

    first = event.errors[0]  # then the games Alice's line cannot confirm
    assert (first.line, first.column, first.message.split(":")[0]) == (
        5,
        102,
        "cannot read round 2, '   3 b X' in columns 102-111",
    )


def test_it_refuses_a_malformed_start_date():
    event = parse(trf(trf_player(1, "Abbott, Alice"), header=("012 Test", "042 2026/13/45", "052 2026/10/04")))
    assert (2, "cannot read the date '2026/13/45'; expected YYYY/MM/DD") in messages(event)


def test_it_refuses_a_round_date_outside_the_event_dates():
    event = parse(
        trf(
            "132" + " " * 88 + "26/10/03  26/11/04",
            trf_player(1, "Abbott, Alice", (2, "w", "1"), (2, "b", "=")),
            trf_player(2, "Baker, Brian", (1, "b", "0"), (1, "w", "=")),
        )
    )
    [problem] = event.errors
    assert (problem.line, problem.column) == (5, 102)
    assert problem.message == ("round 2 is dated 04/11/2026, outside the event (03/10/2026 to 04/10/2026)")


def test_it_warns_about_a_pairing_that_has_no_result_yet_and_leaves_it_out():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", " ")),
            trf_player(2, "Baker, Brian", (1, "b", " ")),
        )
    )
    assert event.ok and not event.games
    assert (5, "round 1: 1 and 2 are paired but have no result; the game is left out") in messages(event, "warning")


def test_it_reads_forfeits_games_of_no_move_and_double_forfeits():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "+"), (3, "b", "D")),
            trf_player(2, "Baker, Brian", (1, "b", "-"), (4, "w", "l")),
            trf_player(3, "Carter, Chloe", (4, "w", "-"), (1, "w", "D")),
            trf_player(4, "Dunn, David", (3, "b", "-"), (2, "b", "w")),
        )
    )
    assert event.ok, [str(p) for p in event.errors]
    assert {(g.round, g.white, g.black): g.result for g in event.games} == {
        (1, 1, 2): results.WHITE_WIN_BY_DEFAULT,
        (1, 3, 4): results.DOUBLE_DEFAULT,
        (2, 3, 1): results.DRAW_NO_MOVE,
        (2, 2, 4): results.BLACK_WIN_NO_MOVE,
    }


def test_it_reads_a_line_whose_rounds_drift_because_its_name_was_padded_in_bytes():
    # Software that pads names to 33 bytes of UTF-8 leaves "Örr, Mârk" two characters short.
    drifted = trf_player(2, "Örr, Mârk", (1, "b", "0"), points="0.0", rating="2100", fed="IRL").replace(
        "Mârk  ", "Mârk", 1
    )
    event = parse(trf(trf_player(1, "Abbott, Alice", (2, "w", "1"), points="1.0"), drifted))
    assert event.ok, [str(p) for p in event.errors]
    assert (6, "the round results start at column 90, not 92; read with that shift") in messages(event, "warning")
    orr = event.player(2)
    assert (orr.name, orr.fide_rating, orr.fide_federation) == ("Örr, Mârk", 2100, "IRL")
    assert event.games[0].result == results.WHITE_WIN


def test_it_reads_a_trf_2026_file_with_coded_time_control_long_round_dates_and_byes():
    text = trf(
        "132" + " " * 88 + "2026/10/03  2026/10/04",
        "222 5400+30",
        trf_player(1, "Abbott, Alice", (2, "w", "=")),
        trf_player(2, "Baker, Brian", (1, "b", "=")),
        trf_player(3, "Carter, Chloe"),
        "ENG    1".ljust(57) + "123456a".rjust(11),  # national number at columns 58-68
        "240 H   1    3",
        header=("012 Test 2026", "042 2026/10/03", "052 2026/10/04"),
    )
    event = parse(text)
    assert event.ok, [str(p) for p in event.errors]
    assert event.format == "TRF-2026"
    assert event.time_control.base_minutes == 90 and event.time_control.increment_seconds == 30
    assert event.player(1).federation_code == "123456A"
    bye = next(g for g in event.games if g.white == 3)
    assert (bye.result, bye.round, bye.date) == (results.HALF_POINT_BYE, 1, datetime.date(2026, 10, 3))


def test_it_warns_when_the_time_control_cannot_be_read():
    event = parse(trf(trf_player(1, "Abbott, Alice"), header=("012 Test", "042 2026/10/03", "122 as usual")))
    assert (3, "cannot read the time control 'as usual'; give it with the upload") in messages(event, "warning")
    assert event.time_control is None and event.time_control_text == "as usual"
    assert [p.code for p in event.warnings if p.line == 3] == ["time-control-unread"]


def test_it_refuses_a_file_without_players():
    event = parse_event_file(b"012 Empty\n042 2026/10/03\n001 \n", "x.trf")
    assert event.format == "TRF16" and not event.ok


def test_it_refuses_a_file_with_a_header_but_no_player_records():
    event = parse_event_file(b"012 Empty\n042 2026/10/03\n", "x.txt")
    assert event.format == "TRF16"
    assert (None, "the file has no player records (lines starting '001')") in messages(event)


def test_it_warns_about_a_national_rating_record_for_a_player_not_in_the_file():
    event = parse(trf(trf_player(1, "Abbott, Alice"), "ENG    7".ljust(57) + "123456A".rjust(11)))
    assert (6, "national-rating record for starting rank 7, who has no 001 record; it is ignored") in messages(
        event, "warning"
    )
