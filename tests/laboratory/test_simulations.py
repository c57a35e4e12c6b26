"""Simulations (docs/laboratory.md): a span of a list's months rated again, in tables of its own.

Under the list's own rule set a simulation gives the published ratings exactly; under another,
the ratings that rule set gives when the same months are rated from the same starting states
(the engine run month by month from rate-file documents, as tests/grading/run/test_chained_periods.py
checks the runs)."""

import csv
import datetime
import io
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from grading.models import ListEntry, PlayerRating, RatingList, RatingRun
from grading.run.loading import rated_games
from laboratory.models import SimulatedPlayer, SimulatedRating, Simulation
from laboratory.rerating import run_simulation
from laboratory.simulations import do_start_simulation, simulation_csv
from players.models import Player
from tests.builders import PlayerFactory, file_state, publish_month, rated_from_file
from tests.builders import rated_demo as rated_lists

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
TODAY = datetime.date(2026, 11, 21)
LISTS = ["otb-standard", "otb-rapid", "online"]


@pytest.fixture
def rated_demo():
    """The demo federation (80 players), every list rated month by month, as published."""
    return rated_lists(LISTS, today=TODAY)


def simulated(list_code, first, last, rules):
    simulation = do_start_simulation(
        RatingList.objects.get(code=list_code), first, last, rules, acting_user=None, queue=False
    )
    run_simulation(simulation.pk)
    simulation.refresh_from_db()
    assert simulation.status == "done", simulation.message
    return simulation


def by_month(rows) -> dict:
    out = {}
    for month, player, rating, kind in rows:
        out.setdefault(month, set()).add((player, rating, kind))
    return out


def test_the_lists_own_rules_reproduce_the_published_ratings_exactly(rated_demo):
    first, last = rated_demo.first_month + 2, rated_demo.last_month
    published_before = {
        table: PlayerRating.objects.count() if table == "ratings" else ListEntry.objects.count()
        for table in ("ratings", "entries")
    }
    runs = RatingRun.objects.count()

    simulation = simulated("otb-standard", first, last, "ecf-2024")

    published = PlayerRating.objects.filter(
        rating_list__code="otb-standard", month__gte=str(first), superseded_at=None
    ).values_list("month", "player_id", "rating", "type")
    mine = SimulatedRating.objects.filter(simulation=simulation).values_list("month", "player_id", "rating", "type")
    assert by_month(mine) == by_month(published) and len(mine) > 60
    compared = SimulatedPlayer.objects.filter(simulation=simulation)
    assert {row.difference for row in compared} == {0} and compared.count() > 30
    assert simulation.summary["compared"]["moved"] == 0
    assert [m["published"] == m["simulated"] for m in simulation.summary["months"]] == [True] * (
        last.index - first.index + 1
    )
    # Nothing published, run or listed was touched.
    assert (PlayerRating.objects.count(), ListEntry.objects.count(), RatingRun.objects.count()) == (
        published_before["ratings"],
        published_before["entries"],
        runs,
    )


def test_another_rule_set_gives_what_that_rule_set_gives_from_the_same_starting_states(rated_demo):
    first, last = rated_demo.first_month + 2, rated_demo.last_month
    simulation = simulated("otb-rapid", first, last, '{"base": "ecf-2020", "activity_window_months": 48}')

    # The same months from rate-file documents: the rapid list chained from its states published
    # before the span, the lists the rules read as published before each month.
    people = {p.pk: p for p in Player.objects.all()}

    def published_before(code, month):
        latest = {}
        for row in PlayerRating.objects.filter(
            rating_list__code=code, month__lt=str(month), superseded_at=None
        ).order_by("month"):
            latest[people[row.player_id].code] = file_state(row, peak=False)
        return latest

    chain = published_before("otb-rapid", first)
    expected, month = {}, first
    rules = {"base": "ecf-2020", "activity_window_months": 48}
    while month <= last:
        states = {"otb-rapid": chain, "otb-standard": published_before("otb-standard", month)}
        games = list(
            rated_games(RatingList.objects.get(code="otb-rapid"), month)
            .order_by("date", "pk")
            .values_list("white_id", "black_id", "result", "date")
        )
        output = rated_from_file(rules, "otb-rapid", month, people, games, states)
        chain = {**chain, **{player["id"]: player["state"] for player in output["players"]}}
        expected[str(month)] = {(player["id"], player["rating"], player["type"]) for player in output["players"]}
        month += 1

    codes = {pk: p.code for pk, p in people.items()}
    mine = {}
    for month_, player, rating, kind in SimulatedRating.objects.filter(simulation=simulation).values_list(
        "month", "player_id", "rating", "type"
    ):
        mine.setdefault(month_, set()).add((codes[player], rating, kind))
    assert mine == expected
    assert simulation.summary["compared"]["moved"] > 0  # the rules differ, and so do ratings


def test_the_command_prints_what_moves_and_writes_the_csv(rated_demo, tmp_path, capsys):
    first, last = rated_demo.first_month + 1, rated_demo.last_month
    target = tmp_path / "diff.csv"

    call_command(
        "simulate",
        "--list",
        "otb-standard",
        "--from",
        str(first),
        "--to",
        str(last),
        "--rules",
        '{"base": "ecf-2024", "floors": true}',
        "--csv",
        str(target),
    )

    out = capsys.readouterr().out
    assert f"{first}: rating" in out and "players with a rating in the span" in out
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8-sig"))))
    assert list(rows[0]) == [
        "code",
        "name",
        "published_rating",
        "published_type",
        "simulated_rating",
        "simulated_type",
        "difference",
    ]
    simulation = Simulation.objects.get()
    assert len(rows) == simulation.players.count() == simulation.summary["players"]
    for row in rows:  # floors only hold ratings up
        if row["difference"]:
            assert int(row["difference"]) == int(row["simulated_rating"]) - int(row["published_rating"]) >= 0
    assert target.read_text(encoding="utf-8") == "\ufeff" + simulation_csv(simulation)  # as the admin sends it

    simulation.delete()
    assert not SimulatedRating.objects.exists() and not SimulatedPlayer.objects.exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--list", "otb-standard", "--from", "2026-10", "--to", "2026-09", "--rules", "ecf-2024"], "is after --to"),
        (["--list", "otb-standard", "--from", "2026-10", "--to", "2027-01", "--rules", "ecf-2024"], "published up to"),
        (["--list", "nowhere", "--from", "2026-10", "--to", "2026-10", "--rules", "ecf-2024"], "no rating list"),
        (["--list", "otb-standard", "--from", "2026-10", "--to", "2026-10", "--rules", "ecf-2099"], "--rules: unknown"),
        (
            [
                "--list",
                "otb-standard",
                "--from",
                "2026-10",
                "--to",
                "2026-10",
                "--rules",
                '{"base": "ecf-2024", "k": 1}',
            ],
            "--rules.k: unknown parameter",
        ),
        (["--list", "otb-standard", "--from", "2026-1", "--to", "2026-10", "--rules", "ecf-2024"], "not a month"),
    ],
)
@pytest.mark.django_db
def test_bad_options_are_refused_by_name_and_nothing_is_stored(arguments, message):
    publish_month("otb-standard", "2026-10", [{"player": PlayerFactory(), "rating": 1500}])

    with pytest.raises(CommandError, match=message):
        call_command("simulate", *arguments)
    assert not Simulation.objects.exists()


def test_a_simulation_runs_on_a_real_worker(celery_worker_process):
    summary = rated_lists(["otb-standard"], players=40, seed=5, today=TODAY)

    simulation = do_start_simulation(
        RatingList.objects.get(code="otb-standard"),
        summary.first_month,
        summary.last_month,
        "ecf-2024",
        acting_user=None,
    )
    deadline = time.monotonic() + 60
    while simulation.status in ("queued", "running"):
        assert time.monotonic() < deadline, f"not done a minute later: {simulation.status} {simulation.progress}"
        time.sleep(0.1)
        simulation.refresh_from_db()
    assert simulation.status == "done" and simulation.seconds > 0
    assert simulation.summary["compared"]["moved"] == 0 and simulation.summary["players"] > 10


def test_a_rating_officer_starts_a_simulation_in_the_admin_and_reads_its_figures(rated_demo, client, officer):
    client.force_login(officer)
    first, last = rated_demo.first_month + 2, rated_demo.last_month
    form = client.get("/admin/laboratory/simulation/add/").content.decode()
    assert "ecf-2024+floors" in form

    refused = client.post(
        "/admin/laboratory/simulation/add/",
        {
            "rating_list": "otb-standard",
            "first_month": "2026-13",
            "last_month": str(last),
            "rules": "ecf-2024",
        },
    )
    assert "&#x27;2026-13&#x27; is not a month" in refused.content.decode() and not Simulation.objects.exists()

    started = client.post(
        "/admin/laboratory/simulation/add/",
        {
            "rating_list": "otb-standard",
            "first_month": str(first),
            "last_month": str(last),
            "rules": "ecf-2024+floors",
        },
    )
    simulation = Simulation.objects.get()  # rated in this process: tasks run eagerly here
    assert started["Location"] == f"/admin/laboratory/simulation/{simulation.pk}/change/"
    page = client.get(started["Location"]).content.decode()
    assert "Download every player (CSV)" in page and 'id="chart-specs"' in page
    assert f"{simulation.summary['players']} players have a rating in the span" in page
    download = client.get(f"/admin/laboratory/simulation/{simulation.pk}/csv/")
    assert download.content.decode("utf-8-sig") == simulation_csv(simulation)

    confirm = client.get(f"/admin/laboratory/simulation/{simulation.pk}/delete/").content.decode()
    ratings = SimulatedRating.objects.count()
    assert f"Simulated ratings: {ratings}" in confirm  # counted, not listed row by row
    assert confirm.count("<li>") < 10
    client.post(f"/admin/laboratory/simulation/{simulation.pk}/delete/", {"post": "yes"})
    assert not Simulation.objects.exists() and not SimulatedRating.objects.exists()
