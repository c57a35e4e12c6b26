import datetime
import logging

import pytest
from django.core.management import call_command
from django.db.models import Count

from events.models import Event, Game
from grading.demo.federation import load_demo
from grading.engine.rules.prating import score_percent
from grading.engine.rules.tables import DP_BY_PERCENT
from grading.models import Flag, ListEntry, PlayerRating, RatingPeriod, RatingRun
from players.models import Club, Player, years_before

pytestmark = pytest.mark.django_db


def test_the_demo_is_a_believable_federation():
    summary = load_demo(today=datetime.date(2026, 11, 21))

    assert (str(summary.first_month), str(summary.last_month)) == ("2026-05", "2026-10")
    assert summary.players == Player.objects.count() == 320
    juniors = Player.objects.filter(birth_date__gt=years_before(datetime.date(2026, 11, 21), 18))
    assert 40 < juniors.count() < 110
    assert Player.objects.exclude(fide_title="").count() >= 8
    assert Player.objects.filter(sex="F").count() >= 30
    surnames = set(Player.objects.values_list("surname", flat=True))
    assert {"Ó Briain", "D'Arcy", "Sørensen"} <= surnames and "Ó" not in surnames  # names of two words stay whole
    per_list = dict(Event.objects.values_list("rating_list__code").annotate(Count("id")))
    # Six rated months of two standard events and one of each other kind, and a blitz match in the
    # last; and the month under way's events over by the 21st (the standard ones of this seed end
    # later), for live ratings. The integrity watch's planted cases (docs/integrity.md): a club
    # night a month and a round robin in the last, held for review.
    # The FIDE standard list: an open a month and the month under way's.
    assert per_list == {"otb-standard": 12 + 6 + 1, "otb-rapid": 7, "online": 7, "otb-blitz": 8, "fide-standard": 7}
    cup = Event.objects.get(code="DEMO-2026-10-CUP")
    assert (cup.status, cup.held_from, cup.games.count()) == ("held", "approved", 15)
    assert Event.objects.filter(code__endswith="-CLUB", games__round=1).distinct().count() == 6
    # The match is against a player with no blitz rating: FIDE's conditions leave it out.
    match = Event.objects.get(code="DEMO-2026-10-MATCH")
    assert (match.games.count(), match.scheduled_rounds) == (4, 4)
    assert set(Event.objects.filter(start_date__gte=datetime.date(2026, 11, 1)).values_list("status", flat=True)) == {
        "approved"
    }
    months = {event.start_date.strftime("%Y-%m") for event in Event.objects.all()}
    assert months == {"2026-05", "2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"}
    assert max(Event.objects.values_list("end_date", flat=True)) < datetime.date(2026, 11, 21)
    assert Game.objects.filter(rated=False, unrated_reason="bye").exists()
    assert Game.objects.filter(rated=False, unrated_reason="default").exists()
    assert not Game.objects.filter(date__gte=datetime.date(2026, 11, 21)).exists()
    assert set(PlayerRating.objects.values_list("type", flat=True)) == {"full", "partial", "pending"}
    # The blitz list (Elo): ratings of at least 1000 with their peaks, and pending months.
    blitz = PlayerRating.objects.filter(rating_list__code="otb-blitz")
    assert not blitz.filter(type="partial").exists() and not blitz.filter(rating__lt=1000).exists()
    assert all(row.peak >= row.rating for row in blitz.filter(type="full"))
    assert all(row.rating is None and len(row.pending) == 1 for row in blitz.filter(type="pending"))
    assert set(PlayerRating.objects.values_list("period__month", flat=True)) == {"2026-04"}


def test_the_demo_is_the_same_every_time():
    first = load_demo(players=50, seed=3, today=datetime.date(2026, 11, 21))
    names = list(Player.objects.order_by("code").values_list("code", "surname", "birth_date"))
    games = list(Game.objects.order_by("pk").values_list("white__code", "black__code", "result"))
    Game.objects.all().delete()
    Event.objects.all().delete()
    PlayerRating.objects.all().delete()
    RatingRun.objects.all().delete()
    RatingPeriod.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()

    second = load_demo(players=50, seed=3, today=datetime.date(2026, 11, 21))

    assert first == second
    assert list(Player.objects.order_by("code").values_list("code", "surname", "birth_date")) == names
    assert list(Game.objects.order_by("pk").values_list("white__code", "black__code", "result")) == games


def test_the_command_loads_once_and_prints_an_admin_login(capsys, django_user_model):
    call_command("load_demo", "--players", "40", "--no-rating")
    first = capsys.readouterr().out
    call_command("load_demo", "--players", "40", "--no-rating")
    second = capsys.readouterr().out

    assert first.startswith("Demo federation loaded: 40 players in 8 clubs")
    assert second.startswith("Demo not loaded: the database already has players, clubs or events")
    password = second.strip().rsplit(" ", 1)[-1]
    assert django_user_model.objects.get(username="admin").check_password(password)
    assert Player.objects.count() == 40


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_command_rates_every_month_of_the_demo_on_every_list(capsys, caplog):
    with caplog.at_level(logging.INFO):
        call_command("load_demo", "--players", "40", "--no-admin")

    assert "Rated 30 periods: every list from " in capsys.readouterr().out
    # A list's month kept as taken on reads no other list: nothing asks to revise it.
    assert "no run for" not in caplog.text
    published = RatingPeriod.objects.published().exclude(ratings__method="import")
    assert published.count() == 30
    assert ListEntry.objects.filter(period__in=published).exists()
    # The FIDE standard list: rated by fide-2017, then by fide-2025 from two months before the
    # last, that month beginning with FIDE's adjustment (a row for every rating under 2000 raised).
    fide = RatingPeriod.objects.filter(rating_list__code="fide-standard").order_by("month")
    assert [period.rule_set for period in fide] == ["fide-2017"] * 4 + ["fide-2025"] * 3  # from 2026-08
    change_month = fide[4].month
    raised = PlayerRating.objects.filter(rating_list__code="fide-standard", month=change_month)
    assert raised.exclude(adjusted_from=None).exists()
    assert all(row.rating > row.adjusted_from for row in raised.filter(method="adjust"))
    assert not PlayerRating.objects.filter(rating_list__code="fide-standard", rating__lt=1400, month__gte=change_month)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_demos_planted_cases_are_on_the_review_page_and_the_held_one_left_out_of_its_run(capsys):
    call_command("load_demo", "--no-admin")

    assert "Integrity watch: 2 findings in " in capsys.readouterr().out
    flags = dict(Flag.objects.values_list("kind", "summary"))
    assert set(flags) == {"improbable", "pairing"}
    assert " scored 5 of 5 in DEMO-" in flags["improbable"] and "-CUP, expected 0." in flags["improbable"]
    assert "met 6 times in 6 events" in flags["pairing"]
    cup = Event.objects.get(code__endswith="-CUP")
    run = RatingRun.objects.filter(period__rating_list__code="otb-standard").order_by("-pk").first()
    assert f"1 event awaiting review left out: {cup.code}" in run.message


def test_the_demos_imported_records_are_performances_that_give_their_ratings():
    load_demo(players=120, seed=7, today=datetime.date(2026, 11, 21))

    # Each imported state's games, points and opponents' total give back its rating as a
    # performance (docs/rules.md section 4: T / G + dp(p)), within the rounding of the average: a good
    # score with them raises a rating, a poor one lowers it.
    for rating in PlayerRating.objects.filter(method="import").exclude(type="pending"):
        share = score_percent(int(2 * rating.points), rating.games)
        performance = rating.opponents_total / rating.games + DP_BY_PERCENT[share]
        assert abs(performance - rating.rating) <= 1 or rating.opponents_total == rating.games * 100, rating
