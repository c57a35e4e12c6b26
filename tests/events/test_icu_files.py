"""The Irish Chess Union's TRF files: a column ruler, clubs in the federation column, the ICU's own
numbers in the FIDE-ID column, half-point byes written as a blank round (issue 26)."""

from decimal import Decimal

import pytest

from chess import results
from events import approval, workflow
from events.standings import swiss_crosstable
from players.models import Club, Player
from tests.builders import DATA, messages, parse, parse_event_file, stored_event, trf, trf_player

ICU_WEEKENDER = (DATA / "trf-derived" / "icu-weekender-2011.trf").read_bytes()


def weekender():
    return parse_event_file(ICU_WEEKENDER, "icu-weekender-2011.trf")


def test_a_column_ruler_of_digits_is_not_read_as_record_012_the_events_name():
    event = weekender()

    assert event.name == "Kilkenny Weekender 2011"
    assert event.ok


def test_a_ruler_alone_does_not_name_the_event():
    text = trf(
        trf_player(1, "Abbott, Alice", (2, "w", "1"), points="1.0"),
        trf_player(2, "Baker, Brian", (1, "b", "0"), points="0.0"),
        header=("0123456789" * 10, "042 2026/10/03", "122 90 min + 30 sec"),
    )

    event = parse(text)

    assert event.name == ""
    assert (None, "no event name (record 012)") in messages(event, "warning")


def test_clubs_in_the_federation_column_are_read_as_clubs_with_one_warning():
    event = weekender()

    clubs = {p.pin: (p.fide_federation, p.club_name) for p in event.players}
    assert clubs == {
        1: ("IRL", ""),
        2: ("", "SAR"),
        3: ("", "ST."),
        4: ("", "C.I"),
        5: ("", "SAR"),
        6: ("", ""),
        7: ("ENG", ""),
        8: ("", "ST."),
    }
    assert [message for line, message in messages(event, "warning") if "federation column" in message] == [
        "the federation column (54-56) of 5 players gives C.I, SAR, ST., which are not FIDE federations: "
        "each is read as the player's club, not a federation (lines 13, 14, 15, 16, 19)"
    ]


def test_a_federation_written_in_lower_case_is_still_a_federation():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1"), points="1.0", fed="irl"),
            trf_player(2, "Baker, Brian", (1, "b", "0"), points="0.0", fed="Sco"),
        )
    )

    assert [(p.fide_federation, p.club_name) for p in event.players] == [("irl", ""), ("Sco", "")]
    assert not [message for _, message in messages(event, "warning") if "federation column" in message]


def test_numbers_in_the_fide_id_column_that_cannot_be_fide_ids_are_dropped_with_a_warning_each():
    event = weekender()

    assert {p.pin: p.fide_id for p in event.players if p.fide_id} == {1: 2500035, 7: 400041}
    assert [(line, message) for line, message in messages(event, "warning") if "FIDE ID" in message] == [
        (13, "starting rank 2: '204' is not a FIDE ID (6 to 9 digits): it is ignored"),
        (14, "starting rank 3: '4191' is not a FIDE ID (6 to 9 digits): it is ignored"),
    ]


def test_a_ten_digit_fide_id_is_dropped_too():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1"), points="1.0", fide_id="1234567890"),
            trf_player(2, "Baker, Brian", (1, "b", "0"), points="0.0", fide_id="100000"),
        )
    )

    assert [p.fide_id for p in event.players] == [None, 100000]


def test_blank_rounds_the_points_column_counts_as_half_a_point_are_half_point_byes_with_one_warning():
    event = weekender()

    byes = [(g.round, g.white, g.result) for g in event.games if g.black is None]
    assert byes == [(2, 4, results.HALF_POINT_BYE), (2, 6, results.HALF_POINT_BYE)]
    assert [g.date.isoformat() for g in event.games if g.black is None] == ["2011-11-26", "2011-11-26"]
    assert [message for _, message in messages(event, "warning") if "points" in message] == [
        "the points column (81-84) counts half a point for each round left blank, for 2 players: "
        "those rounds are read as half-point byes (lines 15, 17)"
    ]


def test_a_blank_last_round_cut_off_the_line_is_a_bye_too():
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1"), (3, "b", "="), points="1.5"),
            trf_player(2, "Baker, Brian", (1, "b", "0"), points="0.5"),
            trf_player(3, "Carter, Chloe", (4, "w", "="), (1, "w", "="), points="1.0"),
            trf_player(4, "Dunn, David", (3, "b", "="), points="1.0"),
        )
    )

    assert [(g.round, g.white, g.result) for g in event.games if g.black is None] == [
        (2, 2, results.HALF_POINT_BYE),
        (2, 4, results.HALF_POINT_BYE),
    ]
    assert not [message for _, message in messages(event, "warning") if "add up" in message]


def test_a_blank_round_the_points_column_does_not_count_is_no_game():
    # Absent in round 2: the points column says 1.0, what the one result adds up to.
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1"), (3, "b", "1"), points="2.0"),
            trf_player(2, "Baker, Brian", (1, "b", "0"), points="0.0"),
            trf_player(3, "Carter, Chloe", (4, "w", "1"), (1, "w", "0"), points="1.0"),
            trf_player(4, "Dunn, David", (3, "b", "0"), points="0.0"),
        )
    )

    assert [g for g in event.games if g.black is None] == []
    assert not [message for _, message in messages(event, "warning") if "points" in message]


def test_points_that_differ_otherwise_are_still_warned_about_player_by_player():
    # Two blank rounds but only half a point more: which round was the bye cannot be told.
    event = parse(
        trf(
            trf_player(1, "Abbott, Alice", (2, "w", "1"), points="1.5"),
            trf_player(2, "Baker, Brian", (1, "b", "0"), (3, "w", "1"), (4, "b", "="), points="1.5"),
            trf_player(3, "Carter, Chloe", (4, "w", "="), (2, "b", "0"), points="0.5"),
            trf_player(4, "Dunn, David", (3, "b", "="), (0, "", ""), (2, "w", "="), points="1.0"),
        )
    )

    assert [g for g in event.games if g.black is None] == []
    assert [(line, message) for line, message in messages(event, "warning") if "points" in message] == [
        (5, "player 1 has 1.5 points in columns 81-84 but their results add up to 1.0")
    ]


@pytest.mark.django_db
def test_the_upload_report_warns_once_for_each_convention_and_stores_no_icu_number_as_a_fide_id(arbiter):
    event = stored_event(arbiter, ICU_WEEKENDER, code="KWE2011")

    report = event.uploads.get().report
    warnings = [warning["message"] for warning in report["warnings"]]
    assert sum("federation column" in warning for warning in warnings) == 1
    assert sum("half-point byes" in warning for warning in warnings) == 1
    assert not [warning for warning in warnings if "add up to" in warning]
    assert "of other federations (IRL)" in " ".join(warnings)
    stored = {entry.pin: (entry.fide_id, entry.federation, entry.club_name) for entry in event.entries.all()}
    assert stored == {
        1: (2500035, "IRL", ""),
        2: (None, "", "SAR"),
        3: (None, "", "ST."),
        4: (None, "", "C.I"),
        5: (None, "", "SAR"),
        6: (None, "", ""),
        7: (400041, "ENG", ""),
        8: (None, "", "ST."),
    }


@pytest.mark.django_db
def test_only_the_player_of_a_real_other_federation_waits_and_the_clubs_become_the_new_records_clubs(arbiter, officer):
    sarsfield = Club.objects.create(code="SAR", name="Sarsfields")
    event = workflow.do_submit_event(stored_event(arbiter, ICU_WEEKENDER, code="KWE2011"), acting_user=arbiter)

    event = approval.do_approve_event(event, acting_user=officer)

    assert [entry.name for entry in approval.unregistered_visitors(event)] == ["Walsh, Declan"]
    assert {player.surname: player.club for player in Player.objects.filter(surname__in=["Byrne", "Doyle"])} == {
        "Byrne": sarsfield,
        "Doyle": sarsfield,
    }
    assert not Player.objects.filter(fide_id__in=[204, 4191]).exists()


@pytest.mark.django_db
def test_the_crosstable_shows_the_files_points_beside_its_ranks(arbiter):
    event = stored_event(arbiter, ICU_WEEKENDER, code="KWE2011")

    rows = swiss_crosstable(event.entries.all(), event.games.all())["rows"]

    assert [(row["entry"].rank, row["entry"].pin, row["points"]) for row in rows] == [
        (1, 1, Decimal("2.5")),
        (2, 3, Decimal("2.0")),
        (3, 4, Decimal("1.5")),
        (4, 2, Decimal("1.5")),
        (5, 8, Decimal("1.5")),
        (6, 6, Decimal("1.0")),
        (7, 5, Decimal("1.0")),
        (8, 7, Decimal("1.0")),
    ]
