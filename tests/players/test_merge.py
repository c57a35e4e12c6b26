"""Merging two records of one person, rated in the same month: the month is rated again with
all of the kept record's games."""

import datetime

import pytest

from chess.months import Month
from grading.merging import MergeRefused, do_merge_players, merge_revisions
from grading.models import ListEntry, PlayerMerge, PlayerRating, RatingPeriod, RatingRun
from grading.run.periods import changed_months
from players.models import Player
from tests.builders import PlayerFactory, approved_event, succeeded, take_on

pytestmark = pytest.mark.django_db
OCT = datetime.date(2026, 10, 10)


@pytest.fixture
def alice_twice(rate):
    """Alice on two records, each rated in October 2026: 111111A beat Brian, 444444D (a record
    opened for her by mistake) drew with Carol."""
    for code, surname in (("111111A", "Abbott"), ("222222B", "Baker"), ("333333C", "Carter"), ("444444D", "Abbott")):
        PlayerFactory(
            code=code,
            surname=surname,
            forenames="Alice" if surname == "Abbott" else "X",
            birth_date=datetime.date(1980, 1, 1),
        )
    take_on(
        "otb-standard",
        "2026-09",
        "111111A,1500,full,50,75000,25,2026-09",
        "222222B,1900,full,50,95000,25,2026-09",
        "333333C,1700,full,50,85000,25,2026-09",
    )
    approved_event("OCT-A", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    approved_event("OCT-B", "otb-standard", OCT, [("444444D", "333333C", "1/2-1/2")])
    succeeded(rate("otb-standard", "2026-10"))
    return Player.objects.get(code="111111A"), Player.objects.get(code="444444D")


def test_records_rated_in_the_same_month_merge_and_the_month_is_rated_again_with_all_the_games(
    alice_twice, officer, django_capture_on_commit_callbacks
):
    alice, duplicate = alice_twice
    october = RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10")
    assert PlayerRating.objects.get(player=alice, period=october).rating == 1518  # 1500 + 18.4, her win alone
    assert merge_revisions(alice, [duplicate]) == [october]

    with django_capture_on_commit_callbacks(execute=True):
        assert do_merge_players(alice, [duplicate], acting_user=officer) == 1

    # The merge's history: the duplicate's one game and its October rating moved, by the officer.
    merge = PlayerMerge.objects.get()
    assert (merge.kept, merge.merged, merge.merged_by, merge.games, merge.ratings) == (alice, duplicate, officer, 1, 1)
    # Alice (adult, Full 1500, K 20) with both games: beats Brian 1900: D = +400, offset 8.4, +10
    # for the win: +18.4; draws with Carol 1700: D = +200, offset 5.2, 0 for the draw: +5.2.
    # 1500 + 18.4 + 5.2 = 1523.6 -> 1524.
    october.refresh_from_db()
    assert (october.revision, october.revision_due) == (1, False)
    current = PlayerRating.objects.filter(period=october, superseded_at=None)
    assert dict(current.values_list("player__code", "rating")) == {"111111A": 1524, "222222B": 1882, "333333C": 1695}
    run = RatingRun.objects.get(trigger="merge of 444444D into 111111A")
    assert (run.outcome, run.revision) == ("succeeded", 1)
    # The original list stays as it was published, with both records on it.
    assert set(ListEntry.objects.filter(period=october, revision=0).values_list("player__code", flat=True)) == {
        "111111A",
        "222222B",
        "333333C",
        "444444D",
    }
    assert "444444D" not in set(
        ListEntry.objects.filter(period=october, revision=1).values_list("player__code", flat=True)
    )


def test_a_month_marked_for_revision_is_rated_again_by_a_run_already_queued(alice_twice):
    alice, duplicate = alice_twice
    october = RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10")

    do_merge_players(alice, [duplicate])  # its own run never starts here: no commit

    october.refresh_from_db()
    assert october.revision_due

    assert Month(2026, 10) in changed_months(october.rating_list, Month(2026, 11))


def test_records_both_taken_on_in_one_month_merge_and_the_kept_records_rating_stands():
    a, b = PlayerFactory(code="111111A"), PlayerFactory(code="222222B")
    take_on("online", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1200,partial,5,6000,2,2026-09")

    assert do_merge_players(a, [b]) == 1

    assert list(PlayerRating.objects.filter(superseded_at=None).values_list("player__code", "rating")) == [
        ("111111A", 1500)
    ]
    assert not RatingPeriod.objects.filter(revision_due=True).exists()  # a month taken on is not rated again


def test_a_record_merged_since_it_was_read_is_not_kept():
    a, b, c = PlayerFactory(code="111111A"), PlayerFactory(code="222222B"), PlayerFactory(code="333333C")
    Player.objects.filter(pk=a.pk).update(merged_into=c)  # another officer's merge, after ``a`` was read

    with pytest.raises(MergeRefused, match="was itself merged into another record: keep that one"):
        do_merge_players(a, [b])

    b.refresh_from_db()
    assert b.merged_into is None


def test_the_merge_page_shows_each_records_ratings_and_what_will_be_revised(alice_twice, admin_client):
    alice, duplicate = alice_twice

    page = admin_client.post(
        "/admin/players/player/", {"action": "merge_selected", "_selected_action": [alice.pk, duplicate.pk]}
    ).content.decode()

    assert "otb-standard 1518 (2026-10, last played 2026-10)" in page  # Alice's win alone
    # Kept, either record revises October of otb-standard, the list the other was rated on, only.
    assert page.count("otb-standard from 2026-10") == 2 and "online from" not in page
    assert "A merge is not undone" in page

    response = admin_client.post(
        "/admin/players/player/",
        {"action": "merge_selected", "keep": alice.pk, "_selected_action": [alice.pk, duplicate.pk]},
        follow=True,
    )

    assert (
        "1 record merged into Abbott, Alice (111111A). Revising otb-standard from 2026-10." in response.content.decode()
    )
