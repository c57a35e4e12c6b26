"""A player's request about their data, as a rating officer answers it (docs/privacy.md): a copy of
everything held (one JSON file), their name restricted to initials on every public page, and an
erasure that keeps every game and rating, theirs and their opponents', as published."""

import datetime
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from alerts.models import Follow, Follower
from corrections.models import Report
from corrections.reporting import send_report
from events.models import Entry, Game
from grading.models import ListEntry, LiveRating, PlayerRating
from mails.models import Delivery, Occasion
from players.models import Player, PlayerChange
from privacy.export import do_export_player_data
from privacy.services import RequestRefused, do_erase_player_data, do_lift_restriction, do_restrict_player
from tests.builders import PlayerFactory, approved_event, change_form_data, stored_event, succeeded, take_on

pytestmark = pytest.mark.django_db

ALICE = "200001A"  # born on 1 March 2015; plays David and Grace in the Northquay Congress


def follow(email, **target):
    now = timezone.now()
    follower, _ = Follower.objects.get_or_create(email=email, defaults={"key": email, "created_at": now})
    kind = next(iter(target))
    return Follow.objects.create(follower=follower, kind=kind, created_at=now, confirmed_at=now, **target)


@pytest.fixture
def requests(federation):
    """Alice's mother follows Alice and David from her address and reported an error from it;
    a stranger reported Alice's birth date and follows her too; Alice's entry in the congress
    gives her birth date as the file did."""
    follow("mum@example.net", player=federation.alice)
    follow("mum@example.net", player=federation.david)
    follow("fan@example.org", player=federation.alice)
    for address, message in [
        ("Mum@Example.net", "Her club is Northquay now."),
        ("fan@example.org", "Alice's birth date is wrong."),
    ]:
        report = send_report("details", address, message, player=federation.alice)
        acknowledged(report, address)
    Entry.objects.filter(player=federation.alice).update(birth_date=datetime.date(2015, 3, 1))
    return federation


def acknowledged(report, address):
    """The report's acknowledgement, as the role mails record it sent."""
    now = timezone.now()
    occasion = Occasion.objects.create(
        kind="report-acknowledged",
        subject=str(report.pk),
        title=f"Your report {report.reference} is received",
        created_at=now,
    )
    Delivery.objects.create(occasion=occasion, address=address, claimed_at=now, sent_at=now)


def published(player_ids=None) -> dict:
    """Every published rating, list line and game, as stored."""
    ratings = PlayerRating.objects.order_by("pk").values()
    lines = ListEntry.objects.order_by("pk").values()
    games = Game.objects.order_by("pk").values()
    return {"ratings": list(ratings), "lines": list(lines), "games": list(games)}


def test_a_restricted_name_is_initials_on_every_public_page_and_whole_for_officers(client, officer, requests):
    alice = requests.alice
    do_restrict_player(alice, acting_user=officer, reason="Her father asked by letter, 3 November.")

    pages = {
        path: client.get(path).content.decode()
        for path in [
            "/players/200001A/",
            "/players/200002B/",  # her opponent's games
            "/players/200002B/otb-standard/2026-09/",
            "/lists/otb-standard/",
            "/lists/otb-standard/2026-10/csv/",
            "/clubs/NQC/",
            "/events/NQ2609/",
            "/players/200001A/feed/",
            "/api/v1/players/200001A/",
            "/api/v1/events/NQ2609/",
            "/api/v1/players/200002B/games/",
        ]
    }
    for path, text in pages.items():
        assert "Alice" not in text, path
        assert "F., A." in text, path
    assert client.get("/api/v1/players/200001A/").json()["surname"] == "F."
    # The search does not find the whole name; the code still finds the record.
    assert "200001A" not in client.get("/players/", {"q": "alice fletcher"}).content.decode()
    assert client.get("/api/v1/players/", {"q": "fletcher alice"}).json()["count"] == 0
    assert client.get("/api/v1/players/", {"code": "200001A"}).json()["results"][0]["name"] == "F., A."
    # The officers keep the whole name, and find it.
    client.force_login(officer)
    found = client.get(reverse("admin:players_player_changelist"), {"q": "alice fletcher"}).content.decode()
    assert "200001A" in found
    change = client.get(reverse("admin:players_player_change", args=[alice.pk])).content.decode()
    assert 'value="Alice"' in change
    history = client.get(reverse("admin:players_player_personal_data", args=[alice.pk])).content.decode()
    assert "Her father asked by letter, 3 November." in history
    # A follow's page names the player as the public sees them.
    key = Follower.objects.get(email="fan@example.org").key
    client.logout()
    assert "F., A. (200001A)" in client.get(reverse("alerts-manage", args=[key])).content.decode()
    (row,) = PlayerChange.objects.filter(player=alice)
    assert (row.action, row.by, row.reason) == ("restricted", officer, "Her father asked by letter, 3 November.")


def test_a_restriction_is_lifted_with_a_reason_and_an_erasure_is_for_good(officer, requests):
    alice = requests.alice
    with pytest.raises(RequestRefused, match="not restricted"):
        do_lift_restriction(alice, acting_user=officer, reason="asked")
    do_restrict_player(alice, acting_user=officer, reason="asked")
    with pytest.raises(RequestRefused, match="already shown as initials"):
        do_restrict_player(alice, acting_user=officer, reason="asked again")
    do_lift_restriction(alice, acting_user=officer, reason="She asked to be named again.")
    assert not Player.objects.get(pk=alice.pk).name_restricted
    with pytest.raises(RequestRefused, match="say why"):
        do_restrict_player(alice, acting_user=officer, reason="   ")

    do_erase_player_data(alice, acting_user=officer, reason="Her parents asked.")

    with pytest.raises(RequestRefused, match="erased: the name stays as initials"):
        do_lift_restriction(alice, acting_user=officer, reason="asked")
    assert list(PlayerChange.objects.filter(player=alice).values_list("action", flat=True)) == [
        "restricted",
        "lifted",
        "erased",
    ]


def test_an_erasure_keeps_every_rating_and_game_and_the_opponents_ratings(officer, requests):
    alice, david = requests.alice, requests.david
    before = published()
    alices_ratings = PlayerRating.objects.filter(player=alice).count()

    change = do_erase_player_data(
        alice, acting_user=officer, reason="Her mother's e-mail of 4 November.", addresses=["MUM@example.net", ""]
    )

    assert published() == before  # every rating, line and game, field by field, theirs and others'
    assert PlayerRating.objects.filter(player=alice).count() == alices_ratings == 3
    # The age her 2026-09 run used stays with the rating, as history.
    assert PlayerRating.objects.get(player=alice, month="2026-09").age == 11
    alice.refresh_from_db()
    assert (alice.birth_date, alice.name_restricted, alice.name) == (None, True, "F., A.")
    assert not Entry.objects.filter(player=alice, birth_date__isnull=False).exists()
    # Her mother's address is gone with its follows (of Alice and of David) and its report; the
    # stranger's follow and report stay.
    assert list(Follower.objects.values_list("email", flat=True)) == ["fan@example.org"]
    assert list(Report.objects.values_list("email", flat=True)) == ["fan@example.org"]
    assert Follow.objects.filter(player=david).count() == 0
    assert change.details == {
        "birth_dates": 1,
        "entries_birth_dates": 1,
        "addresses": 1,
        "followers": 1,
        "follows": 2,
        "error_reports": 1,
        "mails_sent": 1,
    }
    # The record of the mail to her address goes; the occasion (what was mailed, to how many) stays.
    assert list(Delivery.objects.values_list("address", flat=True)) == ["fan@example.org"]
    assert Occasion.objects.count() == 2
    assert "mum" not in json.dumps(change.details) + change.reason  # the history keeps no address


def test_a_later_run_rates_the_erased_player_as_of_unknown_age_and_changes_nothing_published(officer, rate, db):
    junior = PlayerFactory(code="111111A", birth_date=datetime.date(2014, 5, 17))
    PlayerFactory(code="222222B", birth_date=datetime.date(1980, 1, 1))
    take_on("otb-standard", "2026-09", "222222B,1600,full,50,80000,25,2026-09")
    approved_event("OCT", "otb-standard", datetime.date(2026, 10, 10), [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))
    october = {row.player_id: (row.rating, row.dummy_rating, row.age) for row in PlayerRating.objects.all()}
    # A new player's P rating: one game and a draw against the dummy, 100 x 12 = 1200 for a
    # 12-year-old: (1600 + 1200) / 2 = 1400, p = 1.5 / 2 = 0.75, dp = +193: 1593.
    assert october[junior.pk] == (1593, 1200, 12)

    do_erase_player_data(junior, acting_user=officer, reason="asked")
    approved_event("NOV", "otb-standard", datetime.date(2026, 11, 7), [("111111A", "222222B", "0-1")])
    succeeded(rate("otb-standard", "2026-11", today=datetime.date(2026, 12, 5)))

    ratings = {
        (row.player_id, row.month): (row.rating, row.dummy_rating, row.age) for row in PlayerRating.objects.all()
    }
    assert {pk: state for (pk, month), state in ratings.items() if month < "2026-11"} == october
    # November rates the junior as of unknown age: an adult's dummy, 1800, and no age.
    assert ratings[junior.pk, "2026-11"][1:] == (1800, None)


def test_the_export_holds_everything_about_the_player_and_their_addresses(officer, requests):
    alice = requests.alice
    do_restrict_player(alice, acting_user=officer, reason="asked")

    data = json.loads(
        do_export_player_data(
            alice, acting_user=officer, reason="Subject access request of 5 Nov", addresses=["mum@example.net"]
        )
    )

    (record,) = data["records"]
    assert (record["code"], record["surname"], record["forenames"], record["birth_date"]) == (
        ALICE,
        "Fletcher",
        "Alice",
        "2015-03-01",
    )
    assert record["name_restricted"] is True and record["club__code"] == "NQC"
    # Her three published ratings (taken on for otb-standard and online, P-rated 2026-09).
    assert sorted((row["rating_list__code"], row["month"], row["rating"]) for row in data["ratings"]) == [
        ("online", "2025-10", 1100),
        ("otb-standard", "2025-10", 1150),
        ("otb-standard", "2026-09", 1400),
    ]
    assert next(row for row in data["ratings"] if row["month"] == "2026-09")["age"] == 11
    assert {row["period__month"] for row in data["list_lines"]} >= {"2025-10", "2026-09", "2026-10"}
    (entry,) = data["event_entries"]
    assert (entry["event__code"], entry["birth_date"]) == ("NQ2609", "2015-03-01")
    # Three games of the congress: a bye, a win over Grace, a draw with David (named as the public sees him).
    assert [
        (game["round"], game["opponent"] and game["opponent"]["name"], game["result"]) for game in data["games"]
    ] == [
        (1, None, "BYE-1"),
        (2, "Dunn, Grace", "1-0"),
        (3, "Fletcher, David", "1/2-1/2"),
    ]
    assert [(row["address"], sorted(f["what"] for f in row["follows"])) for row in data["follows"]] == [
        ("mum@example.net", ["F., A. (200001A)", "Fletcher, David (200002B)"])  # as the public sees them
    ]
    # Both reports about her; the stranger's address is not hers to have.
    assert sorted((row["message"], row["sent_from"]) for row in data["error_reports"]) == [
        ("Alice's birth date is wrong.", "another address"),
        ("Her club is Northquay now.", "mum@example.net"),
    ]
    # The acknowledgement mailed to her address, and no application for an account made from it.
    assert [(row["address"], row["kind"], row["refused"]) for row in data["mails_sent"]] == [
        ("Mum@Example.net", "report-acknowledged", False)
    ]
    assert data["applications_for_an_account"] == []
    assert [row["action"] for row in data["history"]] == ["restricted"]
    assert PlayerChange.objects.filter(player=alice).latest("at").action == "exported"
    assert LiveRating.objects.filter(player=alice).count() == len(data["live_ratings"])


def test_the_officers_page_exports_restricts_and_erases_each_with_a_reason(client, officer, requests):
    alice = requests.alice
    page = reverse("admin:players_player_personal_data", args=[alice.pk])
    client.force_login(officer)

    assert "Personal data" in client.get(reverse("admin:players_player_change", args=[alice.pk])).content.decode()
    shown = client.get(page).content.decode()
    assert "Fletcher, Alice (200001A)" in shown and "1 March 2015" in shown and "F., A." in shown

    exported = client.post(page, {"action": "export", "export-reason": "SAR of 5 Nov", "export-addresses": ""})
    assert (
        exported["Content-Disposition"]
        == f'attachment; filename="personal-data-{ALICE}-{timezone.localdate():%Y-%m-%d}.json"'
    )
    assert json.loads(exported.content)["records"][0]["code"] == ALICE

    refused = client.post(page, {"action": "erase", "erase-reason": "asked", "erase-addresses": "not an address"})
    assert refused.status_code == 200 and "This field is required." in refused.content.decode()
    refused = client.post(
        page, {"action": "erase", "erase-reason": "asked", "erase-addresses": "not-an-address", "erase-sure": "on"}
    )
    assert "Nothing was done: &#x27;not-an-address&#x27; is not an e-mail address." in refused.content.decode()
    assert Player.objects.get(pk=alice.pk).birth_date is not None

    done = client.post(page, {"action": "restrict", "restrict-reason": "Her letter"}, follow=True)
    assert "Fletcher, Alice&#x27;s name is now shown as initials on every public page." in done.content.decode()
    done = client.post(
        page,
        {"action": "erase", "erase-reason": "Her e-mail", "erase-addresses": "mum@example.net", "erase-sure": "on"},
        follow=True,
    )
    text = done.content.decode()
    assert "1 birth date(s) of the record cleared" in text and "every game and rating kept" in text
    assert [row.action for row in PlayerChange.objects.filter(player=alice)] == ["exported", "restricted", "erased"]
    assert "Show the whole name" not in text  # an erasure is for good


def test_only_an_officer_reaches_a_players_personal_data(client, django_user_model, requests):
    page = reverse("admin:players_player_personal_data", args=[requests.alice.pk])
    staff = django_user_model.objects.create_user("staff", password="pw", is_staff=True)

    assert client.get(page).status_code == 302  # to the admin's login
    client.force_login(staff)
    assert client.get(page).status_code == 403
    assert client.post(page, {"action": "erase", "erase-reason": "x", "erase-sure": "on"}).status_code == 403
    assert Player.objects.get(pk=requests.alice.pk).birth_date is not None


def test_hostile_reasons_and_address_lists_are_written_as_text_and_taken_apart(client, officer, requests):
    page = reverse("admin:players_player_personal_data", args=[requests.alice.pk])
    client.force_login(officer)

    client.post(
        page,
        {
            "action": "erase",
            "erase-reason": "<script>alert(1)</script>",
            "erase-addresses": "fan@example.org, Mum@example.net;\n",
            "erase-sure": "on",
        },
    )
    shown = client.get(page).content.decode()

    assert "<script>alert(1)</script>" not in shown and "&lt;script&gt;alert(1)&lt;/script&gt;" in shown
    # Both addresses, in any case, however they were separated: their follows and reports went.
    assert not Follower.objects.exists() and not Report.objects.exists()
    assert PlayerChange.objects.get(action="erased").details["addresses"] == 2
    unknown = client.post(page, {"action": "delete-everything"})
    assert unknown.status_code == 200 and "Nothing was done: choose what to do." in unknown.content.decode()


def test_an_erased_record_takes_no_birth_date_again_from_an_officer_or_an_arbiters_file(
    client, officer, arbiter, django_user_model
):
    chloe = PlayerFactory(code="345678C", surname="Carter", forenames="Chloe", birth_date=datetime.date(2012, 9, 1))
    do_erase_player_data(chloe, acting_user=officer, reason="Her father's letter of 2 November.")

    # The example file gives Chloe's birth date, 01/09/2012, as her club's arbiter uploads it.
    stored_event(arbiter)
    assert Entry.objects.get(player=chloe).birth_date is None

    admin = django_user_model.objects.create_superuser("root", password="pw")
    client.force_login(admin)
    page = reverse("admin:players_player_change", args=[chloe.pk])
    form = change_form_data(client.get(page))
    assert "birth_date" not in form  # shown, read only
    client.post(page, {**form, "birth_date": "01/09/2012"})
    chloe.refresh_from_db()
    assert chloe.birth_date is None
