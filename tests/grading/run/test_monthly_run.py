import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from chess.months import Month
from events import approval, workflow
from events.models import Event
from grading.models import ListEntry, PlayerRating, RatingList, RatingPeriod, RatingRun
from grading.run import runs
from grading.run.breakdown import rated_games
from grading.run.runs import RunRefused, do_start_rating, recover_interrupted_runs
from tests.builders import ClubFactory, PlayerFactory, approved_event, succeeded, take_on

pytestmark = pytest.mark.django_db
OCT = datetime.date(2026, 10, 10)
DECEMBER = datetime.date(2026, 12, 2)


@pytest.fixture
def federation():
    club = ClubFactory(code="NQC", name="Northquay")
    PlayerFactory(code="111111A", surname="Abbott", forenames="Alice", birth_date=datetime.date(1980, 1, 1), club=club)
    PlayerFactory(code="222222B", surname="Baker", forenames="Brian", birth_date=datetime.date(1975, 1, 1), club=club)
    PlayerFactory(code="333333C", surname="Carter", forenames="Chloe", birth_date=datetime.date(2014, 3, 1), club=None)
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1900,full,50,95000,25,2026-09")


def test_a_month_is_rated_published_and_explained(federation, rate):
    event = approved_event(
        "OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0"), ("333333C", "111111A", "1/2-1/2")]
    )

    run = succeeded(rate("otb-standard", "2026-10"))

    # Alice (adult, full 1500): beats Brian 1900: D = 400, offset 8.4, (8.4 + 10) x 20/20 = 18.4;
    # draws with Chloe, whose pass-2 rating is 1350: D = -150, offset -4.0, (-4.0 + 0) = -4.0;
    # 1500 + 18.4 - 4.0 = 1514.4 -> 1514.
    # Brian: loses to Alice: D = -400, (-8.4 - 10) = -18.4; 1900 - 18.4 = 1881.6 -> 1882 (half up).
    # Chloe (new junior, 12 on 1 October 2026): dummy 12 x 100 = 1200; one draw with Alice 1500:
    # G = 2, T = 1500 + 1200 = 2700, S = 0.5 + 0.5 = 1, p = 0.50, dp = 0: 2700 / 2 = 1350, Partial.
    ratings = {r.player.code: r for r in PlayerRating.objects.filter(run=run).select_related("player")}
    assert {code: (r.rating, r.type, r.category, r.method) for code, r in ratings.items()} == {
        "111111A": (1514, "full", "full", "K"),
        "222222B": (1882, "full", "full", "K"),
        "333333C": (1350, "partial", "new", "P"),
    }
    alice = ratings["111111A"]
    assert (alice.games, alice.opponents_total, alice.points, alice.last_played) == (
        52,
        78250,
        Decimal("26.5"),
        "2026-10",
    )
    assert (alice.prior_rating, alice.k_factor) == (1500, Decimal("20.000000"))
    assert (ratings["333333C"].dummy_rating, ratings["333333C"].pass1, ratings["333333C"].pass2) == (1200, 1350, 1350)
    lines = [
        (line.opponent.code, line.score, line.opponent_rating, line.increment)
        for line in rated_games([alice])[alice.pk]
    ]
    assert lines == [
        ("222222B", Decimal("1.0"), 1900, Decimal("18.400000")),
        ("333333C", Decimal("0.5"), 1350, Decimal("-4.000000")),
    ]
    assert alice.breakdown[0][1:] == ["w", 2, 1900, "full", None, 18_400_000]
    [chloe_line] = rated_games([ratings["333333C"]])[ratings["333333C"].pk]
    assert (chloe_line.opponent_rating, chloe_line.pass1_opponent_rating, chloe_line.increment) == (1500, 1500, None)
    assert run.events.get() == event

    period = RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10")
    assert (period.status, period.revision, run.revision) == ("published", 0, 0)
    assert run.message == "otb-standard 2026-10: 3 players rated on 2 games, original list published"
    event.refresh_from_db()
    assert event.status == "rated"
    assert event.changes.last().note == "rated in otb-standard 2026-10"


def test_the_admin_shows_a_ratings_breakdown_as_json(federation, rate, admin_client):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))
    alice = PlayerRating.objects.get(player__code="111111A", month="2026-10")

    page = admin_client.get(f"/admin/grading/playerrating/{alice.pk}/change/").content.decode()

    # Alice (1500) beats Brian (1900): (8.4 + 10) x 20/20 = +18.4, kept in millionths.
    game = alice.breakdown[0][0]
    assert f"[[{game}, &quot;w&quot;, 2, 1900, &quot;full&quot;, null, 18400000]]" in page


def test_the_export_is_the_published_list(federation, rate, capsys):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0"), ("333333C", "111111A", "1/2-1/2")])
    succeeded(rate("otb-standard", "2026-10"))

    call_command("export_list", "--list", "otb-standard", "--period", "2026-10")

    assert capsys.readouterr().out == (
        "rank,code,name,title,fide_id,rating,previous,change,type,category,games,last_played,club,age\n"
        '1,222222B,"Baker, Brian",,,1882,1900,-18,full,full,51,2026-10,Northquay,Senior 50+\n'  # 51
        '2,111111A,"Abbott, Alice",,,1514,1500,14,full,full,52,2026-10,Northquay,\n'  # 46: no age group
        ',333333C,"Carter, Chloe",,,1350,,,partial,new,1,2026-10,,U14\n'  # a new Partial rating: no rank; 12
    )


def test_rerunning_a_month_with_the_same_data_changes_nothing_and_exports_the_same_bytes(federation, rate, tmp_path):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))
    call_command("export_list", "--list", "otb-standard", "--period", "2026-10", "-o", str(tmp_path / "first.csv"))

    again = rate("otb-standard", "2026-10")
    call_command("export_list", "--list", "otb-standard", "--period", "2026-10", "-o", str(tmp_path / "second.csv"))

    assert (again.outcome, again.message) == ("unchanged", "otb-standard 2026-10: unchanged, nothing published")
    assert (tmp_path / "first.csv").read_bytes() == (tmp_path / "second.csv").read_bytes()
    assert RatingPeriod.objects.get(month="2026-10", rating_list__code="otb-standard").revision == 0


def test_a_late_result_revises_its_month_and_every_later_one_and_the_original_stays(federation, rate, capsys):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))
    approved_event("NOV", "otb-standard", datetime.date(2026, 11, 5), [("222222B", "111111A", "1/2-1/2")])
    succeeded(rate("otb-standard", "2026-11", today=DECEMBER))
    approved_event("LATE", "otb-standard", datetime.date(2026, 10, 20), [("222222B", "111111A", "1-0")])

    run = succeeded(rate("otb-standard", "2026-11", today=DECEMBER))

    october = RatingPeriod.objects.get(month="2026-10", rating_list__code="otb-standard")
    november = RatingPeriod.objects.get(month="2026-11", rating_list__code="otb-standard")
    assert (october.revision, november.revision) == (1, 1)
    assert run.message == (
        "otb-standard 2026-11: 2 players rated on 1 games, revision 1 published; "
        "otb-standard 2026-10: 2 players rated on 2 games, revision 1 published"
    )
    # October as first published: Alice 1500 beat Brian 1900: +18.4 -> 1518; Brian -18.4 -> 1882.
    call_command("export_list", "--list", "otb-standard", "--period", "2026-10", "--original")
    assert capsys.readouterr().out.splitlines()[1:] == [
        '1,222222B,"Baker, Brian",,,1882,1900,-18,full,full,51,2026-10,Northquay,Senior 50+',
        '2,111111A,"Abbott, Alice",,,1518,1500,18,full,full,51,2026-10,Northquay,',
    ]
    # October revised, with the late game Brian beat Alice too: Alice +18.4, then the loss to a
    # player 400 above: (8.4 - 10) x 20/20 = -1.6; 1500 + 16.8 = 1516.8 -> 1517.
    # Brian: -18.4, then the win against a player 400 below: (-8.4 + 10) = +1.6; 1883.2 -> 1883.
    call_command("export_list", "--list", "otb-standard", "--period", "2026-10")
    assert capsys.readouterr().out.splitlines()[1:] == [
        '1,222222B,"Baker, Brian",,,1883,1900,-17,full,full,52,2026-10,Northquay,Senior 50+',
        '2,111111A,"Abbott, Alice",,,1517,1500,17,full,full,52,2026-10,Northquay,',
    ]
    # November is rated again from the revised October: the draw Brian 1883 v Alice 1517:
    # D = -366 -> offset 8.0; Brian (-8.0 + 0) = -8.0 -> 1875; Alice +8.0 -> 1525.
    november_ratings = dict(
        PlayerRating.objects.filter(period=november, superseded_at=None).values_list("player__code", "rating")
    )
    assert november_ratings == {"222222B": 1875, "111111A": 1525}


def test_approving_a_late_result_starts_the_revision_itself(
    federation, rate, django_user_model, django_capture_on_commit_callbacks
):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))
    late = approved_event(
        "LATE",
        "otb-standard",
        datetime.date(2026, 10, 20),
        [("222222B", "111111A", "1-0")],
        status=Event.Status.SUBMITTED,
    )

    with django_capture_on_commit_callbacks(execute=True):
        approval.do_approve_event(late, acting_user=django_user_model.objects.create_user("officer"))

    run = RatingRun.objects.get(trigger="late change to LATE")
    assert (run.outcome, run.revision) == ("succeeded", 1)
    late.refresh_from_db()
    assert late.status == "rated"


def test_a_withdrawn_event_is_taken_out_of_the_months_it_was_rated_in(federation, rate, django_user_model):
    officer = django_user_model.objects.create_user("officer")
    event = approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    approved_event("OCT2", "otb-standard", OCT, [("111111A", "333333C", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))

    workflow.do_send_back_event(event, "the wrong crosstable was sent", acting_user=officer)
    run = succeeded(rate("otb-standard", "2026-10"))

    assert run.revision == 1
    current = PlayerRating.objects.filter(period__month="2026-10", superseded_at=None)
    assert set(current.values_list("player__code", flat=True)) == {"111111A", "333333C"}
    rated = {line[0] for rating in current for line in rating.breakdown}
    assert rated.isdisjoint(event.games.values_list("pk", flat=True))
    assert rated == set(Event.objects.get(code="OCT2").games.values_list("pk", flat=True))


def test_a_month_not_yet_over_is_refused(federation):
    with pytest.raises(RunRefused, match="2026-11 has not ended yet"):
        do_start_rating(
            RatingList.objects.get(code="online"), Month(2026, 11), "test", today=datetime.date(2026, 11, 21)
        )


def test_a_second_start_while_one_is_queued_is_refused(federation):
    online = RatingList.objects.get(code="online")
    do_start_rating(online, Month(2026, 10), "test", today=datetime.date(2026, 11, 21))  # on_commit never runs here

    with pytest.raises(RunRefused, match="a rating run of online is already queued"):
        do_start_rating(online, Month(2026, 10), "test", today=datetime.date(2026, 11, 21))


def test_players_lapsed_from_the_window_leave_the_published_list(rate):
    for code in ("111111A", "222222B", "444444D", "555555E"):
        PlayerFactory(code=code)
    # ecf-2024's window is 36 months: for 2026-10 a state is active if last played 2023-10 or later.
    take_on(
        "otb-standard",
        "2026-09",
        "111111A,1500,full,50,75000,25,2026-09",
        "222222B,1900,full,50,95000,25,2026-09",
        "444444D,1700,full,30,51000,15,2023-10",
        "555555E,1600,full,30,48000,15,2023-09",
    )
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])

    succeeded(rate("otb-standard", "2026-10"))

    on_list = ListEntry.objects.filter(period__month="2026-10").values_list("player__code", flat=True)
    assert sorted(on_list) == ["111111A", "222222B", "444444D"]
    september = ListEntry.objects.filter(period__month="2026-09").values_list("player__code", flat=True)
    assert sorted(september) == ["111111A", "222222B", "444444D", "555555E"]


def test_a_revision_reaches_the_list_of_a_later_month_its_player_did_not_play_in(federation, rate):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))
    approved_event("NOV", "otb-standard", datetime.date(2026, 11, 5), [("111111A", "333333C", "1-0")])
    succeeded(rate("otb-standard", "2026-11", today=DECEMBER))
    approved_event("LATE", "otb-standard", datetime.date(2026, 10, 20), [("222222B", "111111A", "1-0")])

    succeeded(rate("otb-standard", "2026-11", today=DECEMBER))

    # Brian plays in October only. Revised October: -18.4 against Alice 1500, then +1.6 for
    # beating her: 1900 - 16.8 = 1883.2 -> 1883. November's list shows it, revised.
    november = RatingPeriod.objects.get(month="2026-11", rating_list__code="otb-standard")
    assert november.revision == 1
    entries = dict(
        ListEntry.objects.filter(period=november).values_list("revision", "rating").filter(player__code="222222B")
    )
    assert entries == {0: 1882, 1: 1883}


def test_the_months_taken_on_from_the_previous_system_are_not_rated(federation, rate):
    approved_event("SEP", "otb-standard", datetime.date(2026, 9, 12), [("111111A", "222222B", "1-0")])

    with pytest.raises(RunRefused, match="otb-standard was taken on from the previous system for 2026-09"):
        rate("otb-standard", "2026-09")

    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1/2-1/2")])
    run = succeeded(rate("otb-standard", "2026-10"))
    # October alone: the September game is the previous system's to have rated.
    assert run.message == "otb-standard 2026-10: 2 players rated on 1 games, original list published"


def test_rerating_an_earlier_month_by_hand_carries_on_through_the_later_published_ones(federation, rate, client):
    PlayerFactory(code="444444D", surname="Dunn", forenames="Dan", birth_date=datetime.date(1970, 1, 1))
    take_on(
        "otb-standard",
        "2026-09",
        "111111A,1500,full,50,75000,25,2026-09",
        "222222B,1900,full,50,95000,25,2026-09",
        "444444D,2500,full,50,125000,25,2026-09",
    )
    october = approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))
    approved_event("NOV", "otb-standard", datetime.date(2026, 11, 5), [("111111A", "444444D", "0-1")])
    succeeded(rate("otb-standard", "2026-11", today=DECEMBER))
    cached = client.get("/lists/otb-standard/").content.decode()  # an anonymous visitor's page is kept
    october.games.update(result="1/2-1/2")  # corrected in the database: no late result to notice

    run = succeeded(rate("otb-standard", "2026-10", today=DECEMBER))

    assert run.message == (
        "otb-standard 2026-10: 2 players rated on 1 games, revision 1 published; "
        "otb-standard 2026-11: 2 players rated on 1 games, revision 1 published"
    )
    # October as a draw: Alice 1500 v Brian 1900, D = 400 -> 8.4: Alice 1508.4 -> 1508.
    # November, Alice lost to Dan 2500: D = 992 -> 8.4, (8.4 - 10) = -1.6: from the original
    # October 1518 - 1.6 = 1516.4 -> 1516; from the revised one 1508 - 1.6 = 1506.4 -> 1506.
    alice = dict(
        ListEntry.objects.filter(player__code="111111A", period__month="2026-11").values_list("revision", "rating")
    )
    assert alice == {0: 1516, 1: 1506}
    assert (
        PlayerRating.objects.filter(player__code="111111A", superseded_at=None).latest("period__month").rating == 1506
    )
    # The list page kept before the revision is not served again: its period menu has changed.
    assert "2026-10 (revised)" not in cached
    assert "2026-10 (revised)" in client.get("/lists/otb-standard/").content.decode()


def test_a_month_not_yet_over_is_refused_by_the_command_in_one_line(federation, capsys):
    with pytest.raises(CommandError) as error:
        call_command("rate_period", "2099-01")

    assert (error.value.returncode, str(error.value)) == (
        2,
        "2099-01 has not ended yet: a month is rated once it is over",
    )
    assert not RatingRun.objects.exclude(trigger=RatingRun.IMPORT).exists()


def test_export_to_a_place_that_cannot_be_written_says_so(federation, rate, tmp_path):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))

    with pytest.raises(CommandError) as error:
        call_command(
            "export_list", "--list", "otb-standard", "--period", "2026-10", "-o", str(tmp_path / "no" / "x.csv")
        )

    assert error.value.returncode == 2
    assert str(error.value).startswith(f"-o: cannot write {tmp_path / 'no' / 'x.csv'}: No such file or directory")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)  # the run starts on commit, as in production
def test_a_run_that_fails_in_process_is_reported_in_the_admin_not_a_server_error(federation, admin_client):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    period = RatingPeriod.objects.create(
        rating_list=RatingList.objects.get(code="otb-standard"), month="2026-10", rule_set="ecf-2024", adjustment_b=5
    )  # beyond what the engine takes

    response = admin_client.post(
        "/admin/grading/ratingrun/add/", {"rating_list": period.rating_list.pk, "month": "2026-10"}, follow=True
    )

    run = RatingRun.objects.get(period=period)
    assert response.status_code == 200 and run.outcome == "failed"
    assert (
        f"2026-10: rating run {run.pk} failed: EngineInputError: adjustment_b: 5.000000 is out of range (-1 to 1)"
        in response.content.decode()
    )


def test_a_month_never_rated_is_rated_on_the_way_not_skipped(federation, rate):
    approved_event("NOV", "otb-standard", datetime.date(2026, 11, 5), [("111111A", "222222B", "1/2-1/2")])

    # The run for December, with October and November never rated (a missed schedule).
    run = succeeded(rate("otb-standard", "2026-12", today=datetime.date(2027, 1, 2)))

    published = dict(
        RatingPeriod.objects.published().filter(rating_list__code="otb-standard").values_list("month", "revision")
    )
    assert published == {"2026-09": 0, "2026-10": 0, "2026-11": 0, "2026-12": 0}
    assert "otb-standard 2026-11: 2 players rated on 1 games, original list published" in run.message
    # The November draw, Alice 1500 v Brian 1900: D = 400 -> 8.4; Alice 1508.4 -> 1508.
    assert PlayerRating.objects.get(player__code="111111A", period__month="2026-11").rating == 1508
    assert Event.objects.get(code="NOV").status == "rated"


def test_results_approved_while_a_run_works_start_the_next_run_at_once(federation, rate, monkeypatch):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))
    rate_one_period = runs.rate_one_period

    def approve_a_late_result_meanwhile(period, run, report):
        if not Event.objects.filter(code="LATE").exists():
            approved_event("LATE", "otb-standard", datetime.date(2026, 10, 20), [("222222B", "111111A", "1-0")])
        return rate_one_period(period, run, report)

    monkeypatch.setattr(runs, "rate_one_period", approve_a_late_result_meanwhile)
    first = succeeded(rate("otb-standard", "2026-11", today=DECEMBER))

    follow_up = RatingRun.objects.get(trigger=f"results changed during run {first.pk}")
    assert follow_up.outcome == "succeeded"
    # October revised with the late game: Alice 1518 - 1.6 = 1516.8 -> 1517 (as in the late-result test).
    october = RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10")
    assert october.revision == 1
    assert PlayerRating.objects.get(player__code="111111A", period=october, superseded_at=None).rating == 1517


def test_a_worker_that_starts_takes_up_the_runs_a_killed_worker_left(federation, django_capture_on_commit_callbacks):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    run = do_start_rating(RatingList.objects.get(code="otb-standard"), Month(2026, 10), "test")  # never delivered
    RatingRun.objects.filter(pk=run.pk).update(outcome="running", progress="writing")  # and its worker killed

    with django_capture_on_commit_callbacks(execute=True):
        requeued = recover_interrupted_runs()

    run.refresh_from_db()
    assert requeued == [run.pk]
    assert (run.outcome, run.message) == (
        "succeeded",
        "otb-standard 2026-10: 2 players rated on 1 games, original list published",
    )


def test_a_revision_of_the_standard_list_revises_the_rapid_months_that_read_it(
    rate, django_user_model, django_capture_on_commit_callbacks
):
    PlayerFactory(code="700001A", surname="Xu", forenames="Fay", fide_title="FM", birth_date=datetime.date(1980, 1, 1))
    PlayerFactory(code="700002B", surname="Young", forenames="Yan", birth_date=datetime.date(1980, 1, 1))
    PlayerFactory(code="700003C", surname="Zane", forenames="Zoe", birth_date=datetime.date(1980, 1, 1))
    take_on(
        "otb-standard", "2026-08", "700001A,1400,partial,9,13500,4.5,2026-08", "700003C,1500,full,50,75000,25,2026-08"
    )
    take_on("otb-rapid", "2026-08", "700002B,1500,full,50,75000,25,2026-08")
    september = approved_event("SEP", "otb-standard", datetime.date(2026, 9, 12), [("700001A", "700003C", "1/2-1/2")])
    succeeded(rate("otb-standard", "2026-09"))  # Fay's tenth game: her standard rating is Full now
    approved_event("ROCT", "otb-rapid", datetime.date(2026, 10, 10), [("700001A", "700002B", "1/2-1/2")])
    succeeded(rate("otb-rapid", "2026-10"))
    fay = PlayerRating.objects.filter(player__code="700001A", rating_list__code="otb-rapid")
    # New on rapid, with a Full standard rating her FM title does not count: dummy 1800 - 100 =
    # 1700. G = 1 + 1 = 2, T = 1500 (Yan) + 1700 = 3200, S = 0.5 + 0.5 = 1, p = 0.50, dp = 0: 1600.
    assert fay.get(superseded_at=None).rating == 1600

    with django_capture_on_commit_callbacks(execute=True):
        workflow.do_send_back_event(
            september, "wrong section", acting_user=django_user_model.objects.create_user("officer")
        )

    # Standard September without that game: Fay keeps her partial rating of 9 games, so on rapid
    # her title counts: dummy FM 2200 - 100 = 2100; T = 1500 + 2100 = 3600, / 2 = 1800.
    assert RatingRun.objects.filter(trigger__startswith="otb-standard republished", outcome="succeeded").exists()
    assert RatingPeriod.objects.get(rating_list__code="otb-rapid", month="2026-10").revision == 1
    assert fay.get(superseded_at=None).rating == 1800
    # The online list reads the standard one too, but has nothing published to revise.
    assert not RatingPeriod.objects.published().filter(rating_list__code="online").exists()


def test_rating_again_with_nothing_changed_leaves_no_run_records_for_the_later_months(federation, rate):
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))
    succeeded(rate("otb-standard", "2026-11", today=DECEMBER))

    again = rate("otb-standard", "2026-10", today=DECEMBER)

    assert again.outcome == "unchanged"
    assert again.message == (
        "otb-standard 2026-10: unchanged, nothing published; otb-standard 2026-11: unchanged, nothing published"
    )
    assert RatingRun.objects.filter(period__month="2026-11").count() == 1  # November's own run only
