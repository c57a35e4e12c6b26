"""Time controls from TRF free text, the TRF-2026 code, and the ECF fields."""

import subprocess
import sys
from decimal import Decimal

import pytest

from chess.time_controls import TimeControl
from tests.builders import ROOT


@pytest.mark.parametrize(
    "text, base, increment, minutes",
    [
        ("90 min + 30 sec", 90, 30, 120),
        ("90'+30\"", 90, 30, 120),
        ("90’ + 30”", 90, 30, 120),
        ("G/60", 60, 0, 60),
        ("15+10", 15, 10, 25),
        ("3 min + 2 sec", 3, 2, 5),
        ("1:30 + 10 from move 1", 90, 10, 100),
        ("G/90 +30s", 90, 30, 120),
        ("Rapid 25 min", 25, 0, 25),
        ("2h", 120, 0, 120),
        ("1h30", 90, 0, 90),
        ("game in 45 min", 45, 0, 45),
        ("15 min each + 10 sec per move", 15, 10, 25),
        ("90 minutes + 30 seconds increment", 90, 30, 120),
        ("5400+30", 90, 30, 120),  # the TRF-2026 code written into record 122
    ],
)
def test_it_reads_free_text_for_a_single_period(text, base, increment, minutes):
    tc = TimeControl.from_text(text)
    assert (tc.base_minutes, tc.increment_seconds, tc.moves_first_session) == (base, increment, None)
    assert tc.minutes_per_player() == minutes


@pytest.mark.parametrize(
    "text, moves, base, rest, increment, minutes",
    [
        ("40/120, 30", 40, 120, 30, 0, 150),
        ("40/90 + 30 + 30s", 40, 90, 30, 30, 150),
        ("90/40+30+30", 40, 90, 30, 30, 150),
        ("90 min/40 moves + 30 min + 30 sec/move from move 1", 40, 90, 30, 30, 150),
        ("40 moves in 2 hours, then 1 hour", 40, 120, 60, 0, 180),
        ("120 min for 40 moves + 60 min", 40, 120, 60, 0, 180),
    ],
)
def test_it_reads_free_text_with_sessions(text, moves, base, rest, increment, minutes):
    tc = TimeControl.from_text(text)
    assert (tc.moves_first_session, tc.base_minutes, tc.minutes_rest_of_game, tc.increment_seconds) == (
        moves,
        base,
        rest,
        increment,
    )
    assert tc.minutes_per_player() == minutes


def test_a_session_that_starts_after_move_60_does_not_count():
    tc = TimeControl.from_text("40/120, 20/60, 30")
    assert (tc.moves_second_session, tc.minutes_second_session) == (20, 60)
    assert tc.minutes_per_player() == 180
    assert str(tc) == "40 moves in 120 min, then 20 moves in 60 min, then 30 min"


def test_the_online_flag_is_set_when_the_text_says_so():
    assert TimeControl.from_text("3+2 lichess").online is True
    assert TimeControl.from_text("3+2").online is None


@pytest.mark.parametrize("text", ["", "moves/time, increment", "as usual", "90/40/30/20", "40/120, 30, 20, 10"])
def test_it_returns_none_for_text_it_cannot_read(text):
    assert TimeControl.from_text(text) is None


@pytest.mark.parametrize(
    "code, minutes, text",
    [
        ("5400+30", 120, "90 min + 30 s/move"),
        ("40/6000+30:900+30", 145, "40 moves in 100 min, then 15 min + 30 s/move"),
        ("40/7200:1800+30", 160, "40 moves in 120 min, then 30 min + 30 s/move from move 41"),
        ("W300-B240", 4, "4 min"),  # Armageddon: the shorter clock decides
        ("600+5", 15, "10 min + 5 s/move"),
    ],
)
def test_it_reads_the_trf_2026_coded_record_222(code, minutes, text):
    tc = TimeControl.from_trf222(code)
    assert tc.minutes_per_player() == minutes
    assert str(tc) == text


def test_it_returns_none_for_a_malformed_222_code():
    assert TimeControl.from_trf222("90 minutes") is None


def test_it_reads_the_ecf_fields():
    assert TimeControl.from_ecf({"MINUTES FOR GAME": "60"}).minutes_per_player() == 60
    tc = TimeControl.from_ecf({"MINUTES FOR GAME": "15", "SECONDS PER MOVE": "10"})
    assert tc.minutes_per_player() == 25
    tc = TimeControl.from_ecf(
        {
            "MOVES FIRST SESSION": "40",
            "MINUTES FIRST SESSION": "100",
            "MOVES SECOND SESSION": "20",
            "MINUTES SECOND SESSION": "50",
            "MINUTES REST OF GAME": "15",
            "SECONDS PER MOVE": "30",
        }
    )
    assert (
        tc.moves_first_session,
        tc.base_minutes,
        tc.moves_second_session,
        tc.minutes_second_session,
        tc.minutes_rest_of_game,
    ) == (40, 100, 20, 50, 15)
    assert tc.minutes_per_player() == Decimal(180)
    assert TimeControl.from_ecf({}) is None


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"MOVES FIRST SESSION": "40", "MINUTES FIRST SESSION": "90"}, "the time control has no #MINUTES REST OF GAME"),
        (
            {"MINUTES FOR GAME": "60", "MOVES FIRST SESSION": "40"},
            "give either #MINUTES FOR GAME or the session fields, not both",
        ),
        ({"MINUTES FOR GAME": "sixty"}, "#MINUTES FOR GAME must be a number, not 'sixty'"),
        ({"MINUTES FOR GAME": "0"}, "#MINUTES FOR GAME must be more than 0, not '0'"),
        (
            {
                "MOVES FIRST SESSION": "40",
                "MINUTES FIRST SESSION": "90",
                "MINUTES REST OF GAME": "30",
                "MOVES SECOND SESSION": "20",
            },
            "the time control has no #MINUTES SECOND SESSION",
        ),
    ],
)
def test_it_refuses_incomplete_or_malformed_ecf_fields(fields, message):
    with pytest.raises(ValueError) as raised:
        TimeControl.from_ecf(fields)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    "text, category",
    [
        ("5+3", "blitz"),
        ("10 min", "rapid"),
        ("15+10", "rapid"),
        ("50+10", "standard"),
        ("G/60", "standard"),
        ("45+15", "standard"),
        ("G/59", "rapid"),
    ],
)
def test_minutes_per_player_puts_events_in_the_bands_the_lists_use(text, category):
    minutes = TimeControl.from_text(text).minutes_per_player()
    found = "standard" if minutes >= 60 else "rapid" if minutes >= 10 else "blitz"
    assert found == category


def test_the_parsers_import_no_django():
    code = (
        "import sys, events.formats, chess.time_controls; "
        "loaded = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
        "assert not loaded, loaded"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
