"""FIDE's conditions on which events an Elo list rates (docs/rules.md part 4), each at its
boundary through what a federation does: an arbiter uploads a TRF file, a rating officer
approves it, the month is rated and the list exported. The engine's own tests
(tests/engine/test_event_conditions.py) hold the rules; these hold that the site applies them."""

import datetime
import json

import pytest
from django.core.management import call_command

from chess.months import Month
from events import approval, workflow
from events.models import Event
from grading.live.computing import compute_live
from grading.models import GameNotRated, LiveRating, PlayerRating, RatingList, RatingPeriod
from grading.rule_set_changes import do_change_rule_set
from grading.selectors.event_ratings import PUBLISHED
from laboratory.models import SimulatedRating
from laboratory.rerating import run_simulation
from laboratory.simulations import do_start_simulation
from tests.builders import PlayerFactory, stored_event, succeeded, take_on, trf_player

pytestmark = pytest.mark.django_db

# Nine players with FIDE IDs, taken on by the ECF method for 2026-07 (so that an event begun in
# August has ratings at its start); otb-standard is rated by fide-2017 from 2026-10. E to I have
# no rating.
PLAYERS = [
    ("111111A", 4100001, "Abbott, Alice", "2250"),
    ("222222B", 4100002, "Baker, Brian", "2100"),
    ("333333C", 4100003, "Carter, Cara", "1900"),
    ("444444D", 4100004, "Dunn, David", "1800"),
    ("555555E", 4100005, "Evans, Emma", None),
    ("666666F", 4100006, "Fox, Frank", None),
    ("777777G", 4100007, "Gray, Gina", None),
    ("888888H", 4100008, "Hall, Hugo", None),
    ("999999I", 4100009, "Ince, Iris", None),
]
RESULTS = {"1-0": ("1", "0"), "1/2-1/2": ("=", "="), "0-1": ("0", "1")}
OCTOBER = datetime.date(2026, 10, 5)


@pytest.fixture
def elo_standard():
    for code, fide_id, name, _ in PLAYERS:
        surname, forenames = name.split(", ")
        PlayerFactory(code=code, fide_id=fide_id, surname=surname, forenames=forenames)
    take_on(
        "otb-standard",
        "2026-07",
        *(f"{code},{rating},full,50,{int(rating) * 50},25,2026-07" for code, _, _, rating in PLAYERS if rating),
    )
    do_change_rule_set(
        RatingList.objects.get(code="otb-standard"), Month.parse("2026-10"), "fide-2017", acting_user=None
    )


def event_file(games, time_control="90 min + 30 s/move", start=OCTOBER, end=None, round_dates=None, extra=()):
    """A TRF file of the players of ``games`` ((round, white pin, black pin, result); the pins
    are PLAYERS' places from 1), a round a day from ``start`` unless ``round_dates`` says."""
    rounds = max(number for number, *_ in games)
    round_dates = round_dates or [start + datetime.timedelta(days=n) for n in range(rounds)]
    end = end or max(round_dates)
    sides: dict = {}
    for number, white, black, result in games:
        sides[white, number] = (black, "w", RESULTS[result][0])
        sides[black, number] = (white, "b", RESULTS[result][1])
    pins = sorted({pin for pin, _ in sides})
    lines = []
    for pin in pins:
        code, fide_id, name, rating = PLAYERS[pin - 1]
        played = [sides.get((pin, number), ("0000", "-", "Z")) for number in range(1, rounds + 1)]
        points = sum({"1": 1, "=": 0.5}.get(result, 0) for _, _, result in played)
        lines.append(trf_player(pin, name, *played, points=f"{points:.1f}", rating=rating or "", fide_id=str(fide_id)))
    header = [
        "012 Conditions Open",
        f"042 {start:%Y/%m/%d}",
        f"052 {end:%Y/%m/%d}",
        f"122 {time_control}",
        *extra,
        "132" + " " * 88 + "".join(f"{day:%y/%m/%d}  " for day in round_dates),
    ]
    return ("\n".join(header + lines) + "\n").encode()


def uploaded_and_approved(arbiter, officer, data, code="COND"):
    """The file as an arbiter uploads and submits it and a rating officer approves it."""
    event = stored_event(arbiter, data, code=code)
    assert event.rating_list.code == "otb-standard", event.rating_list
    workflow.do_submit_event(event, acting_user=arbiter)
    approval.do_approve_event(event, acting_user=officer)
    return event


def exported(tmp_path, month="2026-10"):
    """The list as `manage.py export_list` writes it: {code: rating}."""
    path = tmp_path / f"otb-standard-{month}.json"
    call_command("export_list", "--list", "otb-standard", "--period", month, "--format", "json", "-o", str(path))
    return {player["code"]: player["rating"] for player in json.loads(path.read_text())["players"]}


def reasons(event):
    return sorted(set(GameNotRated.objects.filter(game__event=event).values_list("reason", flat=True)))


def rating(code, month="2026-10"):
    return PlayerRating.objects.filter(player__code=code, month=month, superseded_at=None).first()


# A Swiss of four over two rounds: A (2250) the highest rating.
SWISS = [(1, 1, 2, "1-0"), (1, 3, 4, "1/2-1/2"), (2, 1, 3, "1/2-1/2"), (2, 2, 4, "1-0")]


def test_an_event_with_a_2250_is_rated_at_120_minutes_for_60_moves(elo_standard, arbiter, officer, rate, tmp_path):
    event = uploaded_and_approved(arbiter, officer, event_file(SWISS, "90 min + 30 s/move"))

    succeeded(rate("otb-standard", "2026-10"))

    assert reasons(event) == []
    # A 2250 (50 games, under 2400: K 20) beats B 2100 (D 150: PD 0.70, 20 x 0.30 = +6.0) and
    # draws with C 1900 (D 350: PD 0.89, 20 x -0.39 = -7.8): 2250 - 1.8 = 2248.2 -> 2248.
    assert exported(tmp_path)["111111A"] == 2248
    assert Event.objects.get(pk=event.pk).status == "rated"


def test_an_event_with_a_2250_is_not_rated_at_119_minutes_for_60_moves(elo_standard, arbiter, officer, rate, tmp_path):
    event = uploaded_and_approved(arbiter, officer, event_file(SWISS, "89 min + 30 s/move"))

    run = succeeded(rate("otb-standard", "2026-10"))

    assert reasons(event) == [
        "not rated: the time control gives 119 minutes for 60 moves; an event with a 2250 needs 120"
    ]
    assert GameNotRated.objects.filter(run=run).count() == 4
    # Nobody's rating moved: the list is the one taken on.
    assert exported(tmp_path) == {"111111A": 2250, "222222B": 2100, "333333C": 1900, "444444D": 1800}
    assert rating("111111A") is None
    assert "4 games of 1 events not rated" in run.message


# 16.2 Twelve hours a day: a game of 90 + 30 s a move lasts 2 x 120 = 240 minutes.
ALL_PLAY_ALL_OF_FOUR = [
    (1, 1, 2, "1-0"),
    (1, 3, 4, "1/2-1/2"),
    (2, 1, 3, "1/2-1/2"),
    (2, 2, 4, "1-0"),
    (3, 1, 4, "1-0"),
    (3, 2, 3, "0-1"),
]


def test_three_games_on_one_day_are_twelve_hours_and_rated(elo_standard, arbiter, officer, rate, tmp_path):
    # Every round on 5 October: each player's 3 games are 3 x 240 = 720 minutes, 12 hours.
    event = uploaded_and_approved(arbiter, officer, event_file(ALL_PLAY_ALL_OF_FOUR, round_dates=[OCTOBER] * 3))

    succeeded(rate("otb-standard", "2026-10"))

    assert reasons(event) == []
    # A: +6.0 (B), -7.8 (C) as above, and beats D 1800 (D 450 counts as 400: PD 0.92, +1.6):
    # 2250 - 0.2 = 2249.8 -> 2250.
    assert rating("111111A").games == 53 and exported(tmp_path)["111111A"] == 2250


def test_four_games_on_one_day_are_sixteen_hours_and_not_rated(elo_standard, arbiter, officer, rate, tmp_path):
    # A fourth round, the same day: 4 x 240 = 960 minutes.
    games = [*ALL_PLAY_ALL_OF_FOUR, (4, 2, 1, "1-0"), (4, 4, 3, "0-1")]
    event = uploaded_and_approved(arbiter, officer, event_file(games, round_dates=[OCTOBER] * 4))

    succeeded(rate("otb-standard", "2026-10"))

    assert reasons(event) == [
        "not rated: a player has 4 games of 240 minutes (both clocks) on one day, 16 hours; at most 12 are allowed"
    ]
    assert exported(tmp_path)["111111A"] == 2250 and rating("111111A") is None


# 16.3 Ninety days: an event begun on 3 August may end on 31 October (89 days later), not on 1
# November, unless a rating officer approves its length.


@pytest.mark.parametrize(
    "end, not_rated",
    [
        (datetime.date(2026, 10, 31), []),
        (
            datetime.date(2026, 11, 1),
            ["not rated: the event lasted 91 days, more than 90, and a rating officer has not approved its length"],
        ),
    ],
)
def test_an_event_of_ninety_days_is_rated_and_one_of_ninety_one_is_not(
    elo_standard, arbiter, officer, rate, tmp_path, end, not_rated
):
    begun = datetime.date(2026, 8, 3)
    in_october = [OCTOBER, OCTOBER + datetime.timedelta(days=1)]
    event = uploaded_and_approved(arbiter, officer, event_file(SWISS, start=begun, end=end, round_dates=in_october))

    succeeded(rate("otb-standard", "2026-10"))

    assert reasons(event) == not_rated
    # Rated, A counts the ratings of 3 August (July's list, the same): 2248 as in October's Swiss.
    assert exported(tmp_path)["111111A"] == (2250 if not_rated else 2248)


# 16.4 Round robins: with unrated players, at least a third of them rated.


def all_play_all(pins):
    """A single round robin of ``pins`` by the circle method: len(pins) - 1 rounds, all drawn."""
    pins = list(pins)
    games = []
    for number in range(1, len(pins)):
        for board in range(len(pins) // 2):
            games.append((number, pins[board], pins[-1 - board], "1/2-1/2"))
        pins = [pins[0], pins[-1], *pins[1:-1]]
    return games


def test_a_round_robin_of_six_with_two_rated_is_rated_and_with_one_it_is_not(elo_standard, arbiter, officer, rate):
    # A, B and E to H: 3 x 2 = 6 players. 15 games over 5 rounds, a round a day.
    two_rated = uploaded_and_approved(arbiter, officer, event_file(all_play_all([1, 2, 5, 6, 7, 8])), "RR2")
    # A and E to I: 3 x 1 < 6.
    one_rated = uploaded_and_approved(arbiter, officer, event_file(all_play_all([1, 5, 6, 7, 8, 9])), "RR1")

    run = succeeded(rate("otb-standard", "2026-10"))

    assert reasons(two_rated) == []
    assert reasons(one_rated) == ["not rated: a round robin of 6 players with 1 rated; at least a third must be rated"]
    assert GameNotRated.objects.filter(run=run).count() == 15
    # I played only in the round robin not rated: no state at all. E played in both: only the
    # rated one's games against rated players (A and B) count towards a first rating.
    assert rating("555555E").pending[0]["games"] == 2


def test_an_unrated_zero_scorer_of_a_round_robin_has_none_of_its_games_rated(elo_standard, arbiter, officer, rate):
    # E (unrated) scores 1.5 of 2 against A and B in a Swiss first, then loses all four games of
    # a round robin with A to D. Rated with those games E would have 6 games and 1.5 points: a
    # first rating. Section 16.4 leaves E out of the round robin with all their games, for
    # everyone: E keeps 2 pending games, and A's games are the 50 taken on, the Swiss's 1
    # against D (a rated player's game against an unrated one does not count) and the round
    # robin's 3 against B, C and D.
    swiss = [(1, 1, 5, "1/2-1/2"), (1, 3, 4, "1-0"), (2, 5, 2, "1-0"), (2, 4, 1, "0-1")]
    uploaded_and_approved(arbiter, officer, event_file(swiss), "SW")
    pins = [0, 1, 2, 3, 4, 5]  # 0: the bye of the circle method
    games = [
        (number, white, black, "0-1" if white == 5 else "1-0" if black == 5 else "1/2-1/2")
        for number, white, black, _ in all_play_all(pins)
        if 0 not in (white, black)
    ]
    start = OCTOBER + datetime.timedelta(days=5)
    robin = uploaded_and_approved(arbiter, officer, event_file(games, start=start), "RR0")

    succeeded(rate("otb-standard", "2026-10"))

    zero_scorer = "not rated: an unrated player who scored nothing in a round robin is left out with all their games"
    assert reasons(robin) == [zero_scorer]
    assert GameNotRated.objects.filter(game__event=robin).count() == 4
    assert rating("555555E").rating is None and rating("555555E").pending[0]["games"] == 2
    assert rating("111111A").games == 50 + 1 + 3


# 16.5 Matches.


def test_the_game_after_a_match_was_decided_is_not_rated(elo_standard, arbiter, officer, rate):
    # A and B, four games (the file gives no number of rounds: four are scheduled): 2.5-0.5 after
    # game 3, more than half of 4: game 4 is not rated.
    games = [(1, 1, 2, "1-0"), (2, 2, 1, "1/2-1/2"), (3, 1, 2, "1-0"), (4, 2, 1, "1-0")]
    event = uploaded_and_approved(arbiter, officer, event_file(games))

    succeeded(rate("otb-standard", "2026-10"))

    assert reasons(event) == ["not rated: played after the match was decided (2.5-0.5 after game 3 of 4)"]
    left_out = GameNotRated.objects.get(game__event=event).game
    assert (left_out.round, left_out.result) == (4, "1-0")
    assert rating("111111A").games == 53  # 50 taken on and three of the match


def test_a_match_against_an_unrated_player_does_not_count(elo_standard, arbiter, officer, rate):
    event = uploaded_and_approved(arbiter, officer, event_file([(1, 1, 5, "0-1"), (2, 5, 1, "1/2-1/2")]))

    succeeded(rate("otb-standard", "2026-10"))

    assert reasons(event) == ["not rated: a match against an unrated player does not count"]
    assert rating("555555E") is None and rating("111111A") is None


# An event over two months is decided once, alike in both.


def test_an_event_over_two_months_is_decided_whole_in_each(elo_standard, arbiter, officer, rate, tmp_path):
    # Rounds 1 and 2 on 30 and 31 October, a round a day; rounds 3 to 6 all on 2 November: 4
    # games of 240 minutes that day. October's games are not rated either.
    days = [datetime.date(2026, 10, 30), datetime.date(2026, 10, 31)] + [datetime.date(2026, 11, 2)] * 4
    games = [
        *ALL_PLAY_ALL_OF_FOUR,
        (4, 2, 1, "1-0"),
        (4, 4, 3, "0-1"),
        (5, 3, 1, "0-1"),
        (5, 4, 2, "1/2-1/2"),
        (6, 1, 4, "1-0"),
        (6, 3, 2, "0-1"),
    ]
    event = uploaded_and_approved(arbiter, officer, event_file(games, round_dates=days))

    october = succeeded(rate("otb-standard", "2026-10"))
    november = succeeded(rate("otb-standard", "2026-11", today=datetime.date(2026, 12, 3)))

    reason = "not rated: a player has 4 games of 240 minutes (both clocks) on one day, 16 hours; at most 12 are allowed"
    assert set(GameNotRated.objects.filter(run=october).values_list("reason", flat=True)) == {reason}
    assert GameNotRated.objects.filter(run=october).count() == 4  # rounds 1 and 2
    assert GameNotRated.objects.filter(run=november).count() == 8  # rounds 3 to 6
    assert reasons(event) == [reason]
    assert exported(tmp_path, "2026-11")["111111A"] == 2250


# The live ratings read the months not yet published as a run would: the same games left out.


def test_the_live_rating_leaves_out_what_the_run_will(elo_standard, arbiter, officer, rate):
    uploaded_and_approved(arbiter, officer, event_file([(1, 1, 5, "0-1"), (2, 5, 1, "1/2-1/2")]), "MATCH")
    uploaded_and_approved(arbiter, officer, event_file(SWISS), "SWISS")

    compute_live(RatingList.objects.get(code="otb-standard"), today=datetime.date(2026, 11, 21))

    live = dict(LiveRating.objects.filter(month="2026-10").values_list("player__code", "rating"))
    # The Swiss as rated above (A 2248); the match against unrated E not at all: E has no live state.
    assert live["111111A"] == 2248 and "555555E" not in live
    succeeded(rate("otb-standard", "2026-10"))
    assert rating("111111A").rating == 2248 and rating("555555E") is None


# A simulation of the Elo method reads the events as a run by that method would.


def test_a_simulation_by_the_elo_method_leaves_out_what_a_run_would(elo_standard, arbiter, officer, rate):
    uploaded_and_approved(arbiter, officer, event_file([(1, 1, 5, "0-1"), (2, 5, 1, "1/2-1/2")]), "MATCH")
    uploaded_and_approved(arbiter, officer, event_file(SWISS), "SWISS")
    succeeded(rate("otb-standard", "2026-10"))
    october = Month.parse("2026-10")

    simulation = do_start_simulation(
        RatingList.objects.get(code="otb-standard"), october, october, "fide-2017", acting_user=None, queue=False
    )
    run_simulation(simulation.pk)

    simulated = dict(SimulatedRating.objects.filter(simulation=simulation).values_list("player__code", "rating"))
    # The Swiss (K 20 for all): A 2248 as above; B loses to A (PD 0.30: -6.0) and beats D (D 300,
    # PD 0.85: +3.0): 2097; C draws D (PD 0.64: -2.8) and A (PD 0.11: +7.8): 1905; D draws C
    # (PD 0.36: +2.8) and loses to B (PD 0.15: -3.0): 1799.8 -> 1800. The match with E: nothing.
    assert simulated == {"111111A": 2248, "222222B": 2097, "333333C": 1905, "444444D": 1800}
    assert simulated == {code: rating(code).rating for code in simulated}


def test_a_match_scheduled_for_six_games_is_not_decided_at_two_and_a_half(elo_standard, arbiter, officer, rate):
    # The same four games, the file scheduling six (XXR 6): 2.5 is not more than 3, all rated.
    games = [(1, 1, 2, "1-0"), (2, 2, 1, "1/2-1/2"), (3, 1, 2, "1-0"), (4, 2, 1, "1-0")]
    event = uploaded_and_approved(arbiter, officer, event_file(games, extra=["XXR 6"]))

    succeeded(rate("otb-standard", "2026-10"))

    assert event.scheduled_rounds == 6
    assert reasons(event) == []
    assert rating("111111A").games == 54


def test_an_event_left_out_whole_and_sent_back_revises_its_month(
    elo_standard, arbiter, officer, rate, django_capture_on_commit_callbacks
):
    # The publication that left its games out names them; sent back, the month is published again
    # without them (its runs read the event: an event sent back revises the months that read it).
    event = uploaded_and_approved(arbiter, officer, event_file(SWISS, "89 min + 30 s/move"))
    uploaded_and_approved(arbiter, officer, event_file(ALL_PLAY_ALL_OF_FOUR, round_dates=[OCTOBER] * 3), "OTHER")
    first = succeeded(rate("otb-standard", "2026-10"))
    assert len(reasons(event)) == 1 and first.events.filter(pk=event.pk).exists()

    with django_capture_on_commit_callbacks(execute=True):
        workflow.do_send_back_event(Event.objects.get(pk=event.pk), "wrong time control", acting_user=officer)

    assert GameNotRated.objects.filter(PUBLISHED).count() == 0
    assert RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10").revision == 1
