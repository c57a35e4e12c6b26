"""FIDE's TRF-2026 records: the rounds the event has (142), the points of each result (162), a
team match forfeited (330), and dates written YYYY/MM/DD (042, 052, 132). The files in
tests/data/trf-2026/ are written by hand to FIDE's published format (tests/data/README.md)."""

import datetime

import pytest

from chess import results
from events.formats.trf_records import FORFEITED_MATCH
from tests.builders import DATA, messages, parse, trf, trf_player

TRF_2026 = DATA / "trf-2026"
SWISS = (TRF_2026 / "northquay-spring-swiss-3-1-0.trf").read_text()
LEAGUE = (TRF_2026 / "northquay-league-forfeited-match.trf").read_text()
RAPID = (TRF_2026 / "quayside-rapid-league-long-dates.trf").read_text()
RECORD_162 = "162  W 3.0    D 1.0    L 0.0    A 0.0"


def points_warnings(event):
    return [(line, text) for line, text in messages(event, "warning") if "add up to" in text]


def test_the_swiss_scored_three_one_nothing_is_read_with_its_own_points_and_no_warning():
    event = parse(SWISS, "spring.trf")

    assert event.ok and event.format == "TRF-2026"
    assert not event.warnings, [str(p) for p in event.warnings]
    assert event.scheduled_rounds == 5  # record 142 (no XXR in the file)
    assert (event.start_date, event.end_date) == (datetime.date(2026, 3, 14), datetime.date(2026, 3, 22))
    assert str(event.time_control) == "90 min + 30 s/move"  # record 222, 5400+30
    # 14 games played, 4 pairing-allocated byes (U), 1 half-point bye (H) and 1 forfeit (+/-).
    played = [game for game in event.games if game.result in results.PLAYED]
    assert (len(event.games), len(played)) == (20, 14)


def test_the_same_results_without_record_162_do_not_add_up_to_the_files_three_one_nothing_points():
    event = parse(SWISS.replace(RECORD_162 + "\n", ""), "spring.trf")

    warnings = points_warnings(event)
    # Player 1 won four games and drew one: 3+3+1+3+3 = 13 points in the file, 1+1+½+1+1 = 4.5 by
    # FIDE's points. Player 5: a draw, a forfeit loss, a half-point bye, a win, a pairing-allocated
    # bye: 1+0+1+3+3 = 8 in the file, ½+0+½+1+1 = 3.
    assert (19, "player 1 has 13.0 points in columns 81-84 but their results add up to 4.5") in warnings
    assert (23, "player 5 has 8.0 points in columns 81-84 but their results add up to 3.0") in warnings
    assert len(warnings) == 7


def test_a_total_that_does_not_add_up_under_record_162_is_warned_with_the_records_line():
    wrong = SWISS.replace(" 9.0    2 ", " 8.0    2 ", 1)  # player 2: 1+3+1+3+1 = 9, not 8

    warnings = points_warnings(parse(wrong, "spring.trf"))

    assert warnings == [
        (
            21,
            "player 2 has 8.0 points in columns 81-84 but their results add up to 9.0 with the points of record 162 "
            "(line 14)",
        )
    ]


def test_a_pairing_allocated_bye_counts_what_record_162_gives_p_and_a_full_point_bye_what_it_gives_w():
    # W 3, P 2: Alice's pairing-allocated bye (U) 2 and win 3 make 5; Brian's full-point bye (F) 3
    # and loss 0 make 3.
    text = trf(
        trf_player(1, "Abbott, Alice", (0, "-", "U"), (2, "w", "1"), points="5.0"),
        trf_player(2, "Baker, Brian", (0, "-", "F"), (1, "b", "0"), points="3.0"),
        header=("012 Test", "042 2026/10/03", "052 2026/10/03", "122 90 min + 30 sec", "162  W 3.0    P 2.0"),
    )

    event = parse(text)

    assert event.ok and not points_warnings(event), messages(event, "warning")


def test_a_round_left_blank_under_three_one_nothing_is_a_half_point_bye_worth_a_draws_point():
    # Carter drew round 1 (1 point) and has nothing in round 2, yet the file gives 2: the blank
    # round is a half-point bye, worth a draw's 1 point under record 162.
    text = trf(
        trf_player(1, "Abbott, Alice", (3, "w", "="), (2, "b", "1"), points="4.0"),
        trf_player(2, "Baker, Brian", (0, "-", "H"), (1, "w", "0"), points="1.0"),
        trf_player(3, "Carter, Chloe", (1, "b", "="), points="2.0"),
        header=("012 Test", "042 2026/10/03", "052 2026/10/03", "122 90 min + 30 sec", "162  W 3.0    D 1.0"),
    )

    event = parse(text)

    bye = next(game for game in event.games if game.white == 3 and game.round == 2)
    assert bye.result == results.HALF_POINT_BYE
    assert (
        8,
        "the points column (81-84) counts a draw's 1.0 point (record 162) for each round left blank, for 1 player: "
        "those rounds are read as half-point byes (lines 8)",
    ) in messages(event, "warning")
    assert not points_warnings(event)


@pytest.mark.parametrize(
    "record, message, column",
    [
        (
            "162  Q 2.0",
            "record 162: 'Q' is no result letter (W, D, L, A, P or X): it is ignored",
            6,
        ),
        (
            "162  W 300",
            "record 162: W's points, 300, are not from 0 to 99.9: they are ignored",
            6,
        ),
        (
            "162  W three",
            "record 162, the points of each result: cannot read 'W three'; expected a result letter (W, D, L, A, P "
            "or X) and its points, as '162  W 3.0    D 1.0    L 0.0': what cannot be read is ignored",
            5,
        ),
        (
            "162",
            "record 162, the points of each result: cannot read 'an empty record'; expected a result letter (W, D, "
            "L, A, P or X) and its points, as '162  W 3.0    D 1.0    L 0.0': what cannot be read is ignored",
            5,
        ),
    ],
)
def test_a_record_162_that_cannot_be_read_is_a_warning_naming_its_line_and_fides_points_count(record, message, column):
    event = parse(SWISS.replace(RECORD_162, record), "spring.trf")

    assert event.ok
    assert any(p.line == 14 and p.column == column and p.message == message for p in event.warnings), [
        str(p) for p in event.warnings
    ]
    # FIDE's points then count: player 1's 13.0 is four wins and a draw at 1 and ½, 4.5.
    assert (20, "player 1 has 13.0 points in columns 81-84 but their results add up to 4.5") in points_warnings(event)


def test_a_result_letter_given_twice_in_record_162_keeps_the_first():
    event = parse(SWISS.replace(RECORD_162, RECORD_162 + "    W 2.0"), "spring.trf")

    assert (14, "record 162 gives W again (line 14 gives it first): the first counts") in messages(event, "warning")
    assert not points_warnings(event)  # W stays 3


THREE_ROUNDS = (
    trf_player(1, "Abbott, Alice", (2, "w", "1"), (3, "b", "="), (0, "-", "H"), points="2.0"),
    trf_player(2, "Baker, Brian", (1, "b", "0"), (0, "-", "H"), (3, "w", "1"), points="1.5"),
    trf_player(3, "Carter, Cath", (0, "-", "H"), (1, "w", "="), (2, "b", "0"), points="1.0"),
)
HEADER = ("012 Test Open", "042 2026/10/03", "052 2026/10/04", "122 90 min + 30 sec")


def with_records(*records):
    return trf(*THREE_ROUNDS, header=(*HEADER, *records))


def test_record_142_is_the_number_of_rounds_as_xxr_is():
    event = parse(with_records("142 7"))

    assert event.ok and event.scheduled_rounds == 7
    assert not [text for _, text in messages(event, "warning") if "142" in text]


def test_where_142_and_xxr_disagree_fides_record_counts_with_a_warning():
    event = parse(with_records("142 7", "XXR 9"))

    assert event.scheduled_rounds == 7
    assert (6, "record XXR says the event has 9 rounds, record 142 (line 5) says 7: record 142 counts") in messages(
        event, "warning"
    )


@pytest.mark.parametrize(
    "records, rounds, message",
    [
        (("142 nine",), None, "record 142, the number of rounds: 'nine' is not a whole number; it is ignored"),
        (("142 nine", "XXR 9"), 9, "record 142, the number of rounds: 'nine' is not a whole number; it is ignored"),
        (
            ("142 2",),
            None,
            "record 142 says the event has 2 rounds, but the file has round 3: it is ignored (the rounds played "
            "count as scheduled)",
        ),
    ],
)
def test_a_record_142_that_cannot_count_is_a_warning_naming_its_line(records, rounds, message):
    event = parse(with_records(*records))

    assert event.ok and event.scheduled_rounds == rounds
    assert (5, message) in messages(event, "warning")


def test_the_leagues_forfeited_matches_keep_their_games_as_written_and_not_rated():
    event = parse(LEAGUE, "league.trf")

    assert event.ok and not event.warnings, [str(p) for p in event.problems]
    assert event.scheduled_rounds == 3
    forfeited = {(g.round, g.white, g.black): g.result for g in event.games if g.unrated_reason == FORFEITED_MATCH}
    # Round 2, Saltmarsh (7, 8) v Riverside (3, 4), who did not come: the boards' forfeits; round 3,
    # Riverside (3, 4) v Castle Hill (5, 6), awarded to Riverside: the boards as played.
    assert forfeited == {
        (2, 7, 3): results.WHITE_WIN_BY_DEFAULT,
        (2, 4, 8): results.BLACK_WIN_BY_DEFAULT,
        (3, 3, 5): results.DRAW,
        (3, 6, 4): results.WHITE_WIN,
    }
    assert len(event.games) == 12  # 4 boards a round, 3 rounds: 8 of them rated


def test_the_team_records_013_number_their_teams_in_order_for_record_330():
    text = trf(
        trf_player(1, "Abbott, Alice", (3, "w", "1"), points="1.0"),
        trf_player(2, "Baker, Brian", (4, "b", "="), points="0.5"),
        trf_player(3, "Carter, Cath", (1, "b", "0"), points="0.0"),
        trf_player(4, "Dunn, Dora", (2, "w", "="), points="0.5"),
        "013 Northquay A".ljust(36) + "   1    2",
        "013 Riverside".ljust(36) + "   3    4",
        "330 -+ 001 002 001",
    )

    event = parse(text)

    assert event.ok, [str(p) for p in event.errors]
    assert {game.unrated_reason for game in event.games} == {FORFEITED_MATCH}


@pytest.mark.parametrize(
    "record, message",
    [
        (
            "330 +- 003",
            "record 330 '+- 003' cannot be read: a forfeited match is written as '330 +- 004 023 047' (the forfeit "
            "+-, -+ or --, the round, the white team's and the black team's pairing numbers)",
        ),
        (
            "330 ++ 003 002 003",
            "record 330 '++ 003 002 003' cannot be read: a forfeited match is written as '330 +- 004 023 047' (the "
            "forfeit +-, -+ or --, the round, the white team's and the black team's pairing numbers)",
        ),
        ("330 +- 003 002 009", "record 330 names team 9, which has no team record (310)"),
        ("330 +- 003 002 002", "record 330 pairs team 2 with itself"),
    ],
)
def test_a_record_330_that_cannot_be_read_is_an_error_naming_its_line(record, message):
    event = parse(LEAGUE.replace("330 +- 003 002 003", record), "league.trf")

    assert (34, message) in messages(event)


def test_the_rapid_leagues_round_dates_written_yyyy_mm_dd_twelve_columns_apart_date_every_round():
    event = parse(RAPID, "rapid.trf")

    assert event.ok and not event.warnings, [str(p) for p in event.problems]
    assert (event.start_date, event.end_date) == (datetime.date(2026, 5, 5), datetime.date(2026, 6, 2))
    assert str(event.time_control) == "25 min + 10 s/move"  # record 222, 1500+10
    # Rounds 4 and 5 start at columns 128 and 140: ten columns a round from 92 would read them as
    # rounds 5 and 6.
    assert {game.round: game.date for game in event.games} == {
        1: datetime.date(2026, 5, 5),
        2: datetime.date(2026, 5, 12),
        3: datetime.date(2026, 5, 19),
        4: datetime.date(2026, 5, 26),
        5: datetime.date(2026, 6, 2),
    }


def test_round_dates_written_yyyy_mm_dd_one_against_the_next_are_taken_apart():
    touching = "132" + " " * 88 + "2026/10/032026/10/04"
    event = parse(trf(touching, trf_player(1, "Abbott, Alice", (0, "-", "H"), (0, "-", "F"))))

    assert event.ok, [str(p) for p in event.errors]
    assert [(game.round, game.date) for game in event.games] == [
        (1, datetime.date(2026, 10, 3)),
        (2, datetime.date(2026, 10, 4)),
    ]


def test_points_in_quarters_are_written_with_both_decimals():
    # D 1.25 for a draw: two draws are 2.5, written with one decimal; Alice's 2.25 is not.
    text = trf(
        trf_player(1, "Abbott, Alice", (2, "w", "="), (2, "b", "="), points="2.25"),
        trf_player(2, "Baker, Brian", (1, "b", "="), (1, "w", "="), points="2.5"),
        header=("012 Test", "042 2026/10/03", "052 2026/10/03", "122 90 min + 30 sec", "162  D1.25"),
    )

    assert points_warnings(parse(text)) == [
        (
            6,
            "player 1 has 2.25 points in columns 81-84 but their results add up to 2.5 with the points of record "
            "162 (line 5)",
        )
    ]
