import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Q
from django.urls import reverse

from chess.months import Month
from chess.time_controls import TimeControl
from events import approval, workflow
from events.models import Event, EventChange, Game, Upload
from events.uploads.checking import EventDetails, check_upload
from events.uploads.event_details import classify
from grading.merging import do_merge_players
from grading.models import ListEntry, PlayerRating, RatingList
from grading.selectors.history import lists_for_uploads
from grading.takeon import do_import_ratings
from players.models import Player
from players.services import check_letter, issue_codes
from tests.builders import DATA, ECF_EXAMPLE, PlayerFactory, ecf_file, stored_event, trf, trf_player

pytestmark = pytest.mark.django_db


SEPTEMBER = Month(2026, 9)


def take_on_players(rating_list, players, month=SEPTEMBER):
    lines = "".join(f"{player.code},1500,full,20,30000,10,2026-08\n" for player in players)
    do_import_ratings(
        ("code,rating,type,games,opponents_total,points,last_played\n" + lines).encode(), rating_list, month
    )


def changelist_action(client, action, events, reason=""):
    return client.post(
        reverse("admin:events_event_changelist"),
        {"action": action, "_selected_action": [event.pk for event in events], "reason": reason},
        follow=True,
    )


def test_approval_makes_new_players_federation_records_and_links_every_game(arbiter, officer):
    PlayerFactory(code="123456A")
    PlayerFactory(code="100000A")
    event = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)

    approval.do_approve_event(event, acting_user=officer)

    event.refresh_from_db()
    assert event.status == "approved"
    baker = Player.objects.get(code="234567B")
    assert (baker.surname, baker.forenames, baker.sex) == ("Baker", "Brian", "M")
    dunn = event.entries.get(pin=4).player
    # 234567B, 345678C are created with their own codes; Dunn has none and gets the next free
    # number after the highest in use (345678) with our check letter.
    assert dunn.code == "345679" + check_letter(345679)
    assert not Game.objects.filter(event=event, white=None).exists()
    assert Game.objects.filter(event=event, black=None).count() == 0
    assert event.changes.last().by == officer


def test_issued_codes_follow_the_highest_code_with_a_check_letter():
    PlayerFactory(code="123456A")
    PlayerFactory(code="200001B")

    # 200002: 2*7 + 0 + 0 + 0 + 0 + 2*2 = 18; 18 mod 11 = 7 -> the eighth letter, H.
    assert issue_codes(2) == ["200002H", "200003" + check_letter(200003)]


def test_a_rating_officer_approves_and_sends_back_in_the_admin(client, arbiter, officer):
    first = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)
    second = workflow.do_submit_event(
        stored_event(arbiter, ECF_EXAMPLE.replace(b"=NQ241001", b"=SECOND")), acting_user=arbiter
    )
    client.force_login(officer)

    changelist_action(client, "approve", [first])
    response = changelist_action(client, "send_back", [second], reason="Round 3 is missing")

    assert "1 event sent back." in response.content.decode()
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == "approved"
    assert (second.status, second.sent_back_reason) == ("sent-back", "Round 3 is missing")


def test_sending_back_needs_a_reason(client, arbiter, officer):
    event = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)
    client.force_login(officer)

    response = changelist_action(client, "send_back", [event])

    assert "say why the event is sent back" in response.content.decode()
    event.refresh_from_db()
    assert event.status == "submitted"


def test_an_arbiter_has_no_way_into_the_admin(client, arbiter):
    client.force_login(arbiter)

    response = client.get(reverse("admin:events_event_changelist"))

    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_staff_without_the_approval_permission_see_no_approve_action(client, django_user_model, arbiter):
    stored_event(arbiter)
    viewer = django_user_model.objects.create_user("viewer", password="pw", is_staff=True)

    viewer.user_permissions.add(Permission.objects.get(codename="view_event"))
    client.force_login(viewer)

    response = client.get(reverse("admin:events_event_changelist"))

    assert response.status_code == 200
    assert 'value="approve"' not in response.content.decode()


def test_an_event_cannot_be_approved_twice_or_submitted_once_approved(arbiter, officer):
    event = approval.do_approve_event(
        workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter), acting_user=officer
    )

    with pytest.raises(workflow.WorkflowError, match="only a submitted event can be approved"):
        approval.do_approve_event(event, acting_user=officer)
    with pytest.raises(workflow.WorkflowError, match="only a checked event can be submitted"):
        workflow.do_submit_event(event, acting_user=arbiter)


@pytest.mark.parametrize(
    "time_control, online, expected",
    [
        ("90+30", False, "otb-standard"),  # 90 + 60 x 30 s = 120 minutes
        ("60", False, "otb-standard"),  # exactly 60: standard
        ("45+15", False, "otb-standard"),  # 45 + 60 x 15 s = 60 minutes
        ("15+10", False, "otb-rapid"),  # 15 + 60 x 10 s = 25 minutes
        ("10", False, "otb-rapid"),  # exactly 10: rapid
        ("5+3", False, None),  # 5 + 3 = 8 minutes: blitz, on no list
        ("3+2", True, "online"),
    ],
)
def test_the_time_control_puts_the_event_on_its_list(time_control, online, expected):
    chosen = classify(TimeControl.from_text(time_control), online, lists_for_uploads())

    assert (chosen.code if chosen else None) == expected


def test_a_list_band_changed_by_staff_changes_where_events_go():
    RatingList.objects.filter(code="otb-rapid").update(min_minutes=5)

    assert classify(TimeControl.from_text("5+3"), False, lists_for_uploads()).code == "otb-rapid"


def test_players_match_by_code_then_fide_id_with_suggestions_for_the_rest(arbiter):
    kept = PlayerFactory(code="999999L", surname="Abbott", forenames="Alice")
    PlayerFactory(code="123456A", surname="Abbot", forenames="Alice", merged_into=kept)
    PlayerFactory(code="555555E", surname="Baker", forenames="Brian", fide_id=1234567)
    PlayerFactory(code="666666F", surname="Dunn", forenames="David")
    data = ECF_EXAMPLE.replace(b"#ECF CODE=234567B", b"#FIDE NO=1234567")

    check = check_upload(data, "x.txt", EventDetails(), lists_for_uploads())

    assert (check.matches[1].player.code, check.matches[1].how) == ("999999L", "code")
    assert (check.matches[2].player.code, check.matches[2].how) == ("555555E", "fide-id")
    assert check.matches[4].player is None
    assert [player.code for player in check.matches[4].suggestions] == ["666666F"]
    assert "line 15: player 1 (Abbott, Alice): the name differs" not in [str(p) for p in check.warnings]


def test_merging_moves_games_entries_and_history_to_the_kept_record(arbiter, officer):
    PlayerFactory(code="123456A")
    event = approval.do_approve_event(
        workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter), acting_user=officer
    )
    duplicate = Player.objects.get(code="234567B")
    kept = PlayerFactory(code="777777G", surname="Baker", forenames="Brian")
    take_on_players(RatingList.objects.get(code="otb-rapid"), [duplicate])

    assert do_merge_players(kept, [duplicate]) == 1

    duplicate.refresh_from_db()
    assert duplicate.merged_into == kept
    assert Game.objects.filter(event=event, white=duplicate).count() == 0
    assert (
        Game.objects.filter(event=event, white=kept).count() + Game.objects.filter(event=event, black=kept).count() == 3
    )
    assert event.entries.get(pin=2).player == kept
    assert PlayerRating.objects.get().player == kept
    # The list published for 2026-09 stays as it was published.
    assert ListEntry.objects.get().player == duplicate


@pytest.mark.parametrize(
    "name, players, games, rated, rating_list, visitors",
    [
        ("armstrong-2012-with-bom.trf", 2, 1, 1, "otb-standard", 0),
        # An Irish file: 7 players ENG, 2 with no federation, 22 with their clubs (KIL, DUB) where
        # the federation goes, read as clubs; FIN and BRA (Bray's club, but Brazil's code) are
        # other federations. Six half-point byes are written as blank rounds.
        ("bunratty-masters-2011.trf", 34, 103, 97, "otb-standard", 3),
        ("javafo-example-open.trf", 52, 115, 89, "otb-standard", 51),  # a Spanish open: one plays no rated game
        ("latin-1.trf", 3, 3, 3, "otb-standard", 0),
        ("online-swiss-2020-06.trf", 13, 74, 56, "online", 0),
        ("online-swiss-2021-03.trf", 9, 45, 36, "online", 0),
    ],
)
def test_every_real_trf_file_imports(name, players, games, rated, rating_list, visitors, officer, capsys):
    officer.is_superuser = True
    officer.save()

    call_command("import_event", str(DATA / "trf" / name), "--code", "T1", "--time-control", "90+30", "--approve")

    event = Event.objects.get(code="T1")
    assert (event.entries.count(), event.games.count(), event.games.filter(rated=True).count()) == (
        players,
        games,
        rated,
    )
    assert (event.rating_list.code, event.status) == (rating_list, "approved")
    assert len(approval.unregistered_visitors(event)) == visitors
    if visitors:
        approval.do_register_visitors(event, acting_user=officer)
    # Every rated game is between two records; a player of no rated game is registered by nobody.
    assert not event.games.filter(rated=True).filter(Q(white=None) | Q(black=None)).exists()


def test_import_event_refuses_a_broken_file_with_status_2_and_stores_nothing(tmp_path, officer):
    officer.is_superuser = True
    officer.save()
    path = tmp_path / "broken.txt"
    path.write_bytes(ECF_EXAMPLE.replace(b"#PIN1=3#SCORE=55#PIN2=4", b"#PIN1=3#SCORE=55#PIN2=3"))

    with pytest.raises(CommandError) as error:
        call_command("import_event", str(path))

    assert error.value.returncode == 2
    assert "player 3 is paired with themself" in str(error.value)
    assert str(error.value).endswith("nothing stored, 1 error(s)")
    assert not Event.objects.exists()


def test_a_rating_officer_merges_duplicates_in_the_admin(client, officer):
    kept, duplicate = PlayerFactory(code="111111A"), PlayerFactory(code="222222B")
    take_on_players(RatingList.objects.get(code="online"), [duplicate])
    client.force_login(officer)
    url = reverse("admin:players_player_changelist")
    selected = {"action": "merge_selected", "_selected_action": [kept.pk, duplicate.pk]}

    confirm = client.post(url, selected)
    done = client.post(url, {**selected, "keep": kept.pk}, follow=True)

    assert (
        "Choose the record to keep" in confirm.content.decode() and "A merge is not undone" in confirm.content.decode()
    )
    # Each record's events and ratings, to choose by: 222222B has its online rating.
    assert {player.code: player.rating_count for player in confirm.context["players"]} == {"111111A": 0, "222222B": 1}
    assert f"1 record merged into {kept}" in done.content.decode()
    duplicate.refresh_from_db()
    assert duplicate.merged_into == kept


def test_staff_without_the_merge_permission_cannot_merge(client, django_user_model):
    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_player"))
    a, b = PlayerFactory(), PlayerFactory()
    client.force_login(clerk)

    response = client.post(
        reverse("admin:players_player_changelist"),
        {"action": "merge_selected", "_selected_action": [a.pk, b.pk], "keep": a.pk},
    )

    b.refresh_from_db()
    assert b.merged_into is None
    assert response.status_code in (200, 302)


def test_merging_is_refused_where_both_records_play_in_one_event(client, arbiter, officer):
    event = approval.do_approve_event(
        workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter), acting_user=officer
    )
    abbott, baker = (Player.objects.get(code=code) for code in ("123456A", "234567B"))  # they met in round 1
    client.force_login(officer)

    response = client.post(
        reverse("admin:players_player_changelist"),
        {"action": "merge_selected", "_selected_action": [abbott.pk, baker.pk], "keep": abbott.pk},
        follow=True,
    )

    assert "both records play in NQ241001: one person cannot be two players of an event" in response.content.decode()
    baker.refresh_from_db()
    assert baker.merged_into is None
    assert event.games.filter(white=abbott, black=baker).exists()


def test_only_a_submitted_event_can_be_approved(arbiter, officer):
    checked = stored_event(arbiter)

    with pytest.raises(workflow.WorkflowError, match="only a submitted event can be approved"):
        approval.do_approve_event(checked, acting_user=officer)

    checked.refresh_from_db()
    assert checked.status == "checked"


def test_an_approved_event_and_its_entries_are_read_only_in_the_admin(client, arbiter, officer):
    event = approval.do_approve_event(
        workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter), acting_user=officer
    )
    entry = event.entries.get(pin=1)
    client.force_login(officer)
    change = reverse("admin:events_event_change", args=[event.pk])

    page = client.get(change).content.decode()
    client.post(
        change,
        {
            "name": "Renamed",
            "rating_list": RatingList.objects.get(code="otb-rapid").pk,
            "start_date": "2026-10-01",
            "end_date": "2026-10-01",
        },
    )
    client.post(reverse("admin:events_entry_change", args=[entry.pk]), {"player": ""})

    assert 'name="_save"' not in page
    event.refresh_from_db()
    entry.refresh_from_db()
    assert (event.name, event.rating_list.code, str(event.end_date)) == (
        "Northquay Autumn Congress 2026 Open",
        "otb-standard",
        "2026-10-04",
    )
    assert entry.player.code == "123456A"


def test_staff_cannot_move_a_submitted_events_dates_off_its_games(client, arbiter, officer):
    event = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)
    client.force_login(officer)
    change = reverse("admin:events_event_change", args=[event.pk])
    form = client.get(change).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(start_date="2026-10-03", end_date="2026-10-03", arbiter=arbiter.pk, rating_list=event.rating_list.pk)

    response = client.post(change, {**data, **management_forms(client.get(change).context)})

    assert "A game is dated 04/10/2026 (round 3), outside these dates" in response.content.decode()
    event.refresh_from_db()
    assert str(event.end_date) == "2026-10-04"


def management_forms(context):
    """The inline formsets' management fields and rows as the change page sends them."""
    data = {}
    for formset in context["inline_admin_formsets"]:
        for form in [formset.formset.management_form, *formset.formset.forms]:
            for name in form.fields:
                value = form[name].value()
                if value is not None and value is not False:
                    data[form.add_prefix(name)] = value.pk if hasattr(value, "pk") else value
    return data


def test_staff_read_an_uploads_report_and_download_the_file_as_it_came(client, arbiter, officer, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    stored_event(arbiter)
    upload = Upload.objects.get()
    client.force_login(officer)

    page = client.get(reverse("admin:events_upload_change", args=[upload.pk])).content.decode()
    download = client.get(reverse("admin:events_upload_original", args=[upload.pk]))

    assert "Games</dt><dd>6, of which 5 rated" in page and "Download results.txt" in page
    assert download["Content-Disposition"] == 'attachment; filename="results.txt"'
    assert download["Content-Type"] == "application/octet-stream"
    assert b"".join(download.streaming_content) == ECF_EXAMPLE


def test_an_arbiter_cannot_download_an_uploaded_file_from_the_admin(client, arbiter, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    stored_event(arbiter)
    client.force_login(arbiter)

    response = client.get(reverse("admin:events_upload_original", args=[Upload.objects.get().pk]))

    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_import_event_names_its_own_options_for_what_the_file_lacks(tmp_path, officer):
    officer.is_superuser = True
    officer.save()
    path = tmp_path / "games.csv"
    path.write_text("white,black,result,date\n123456A,234567B,1-0,2026-10-03\n")

    with pytest.raises(CommandError) as error:
        call_command("import_event", str(path))

    assert str(error.value).splitlines()[:2] == [
        f"{path}: error: file: the file gives no event code: give one in --code",
        f"{path}: error: file: the file gives no time control: give one in --time-control (or --list), e.g. 90+30",
    ]


def test_a_rating_officer_decides_on_the_events_own_page(client, arbiter, officer):
    first = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)
    second = workflow.do_submit_event(
        stored_event(arbiter, ECF_EXAMPLE.replace(b"=NQ241001", b"=SECOND")), acting_user=arbiter
    )
    client.force_login(officer)
    change = client.get(reverse("admin:events_event_change", args=[first.pk])).content.decode()
    decide = reverse("admin:events_event_decide", args=[first.pk])

    page = client.get(decide).content.decode()
    approved = client.post(decide, {"approve": "Approve for rating"}, follow=True).content.decode()
    refused = client.post(reverse("admin:events_event_decide", args=[second.pk]), {"send_back": "x", "reason": ""})
    sent = client.post(
        reverse("admin:events_event_decide", args=[second.pk]),
        {"send_back": "x", "reason": "Round 3 is missing"},
        follow=True,
    ).content.decode()

    assert "Approve or send back</a>" in change and "Games</dt><dd>6, of which 5 rated" in change
    assert 'name="approve"' in page and "Games</dt><dd>6, of which 5 rated" in page
    assert "NQ241001 is approved for rating." in approved
    assert "say why the event is sent back" in refused.content.decode()
    assert "SECOND is sent back to arbiter." in sent
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status, second.sent_back_reason) == ("approved", "sent-back", "Round 3 is missing")


def test_only_those_who_approve_reach_the_decision_page(client, arbiter, django_user_model):
    event = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)
    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    client.force_login(clerk)

    assert client.post(reverse("admin:events_event_decide", args=[event.pk]), {"approve": "1"}).status_code == 403
    event.refresh_from_db()
    assert event.status == "submitted"


def test_a_corrected_file_keeps_the_records_its_codeless_players_were_given(arbiter, officer):
    event = approval.do_approve_event(
        workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter), acting_user=officer
    )
    dunn = event.entries.get(pin=4).player  # no code in the file: registered on approval
    workflow.do_send_back_event(event, "round 2 was a default, not a loss", acting_user=officer)
    corrected = ECF_EXAMPLE.replace(b"#SUBMISSION INDEX=1", b"#SUBMISSION INDEX=2").replace(
        b"#PIN1=4#SCORE=01#PIN2=1", b"#PIN1=4#SCORE=d1#PIN2=1"
    )

    event = approval.do_approve_event(
        workflow.do_submit_event(stored_event(arbiter, corrected), acting_user=arbiter), acting_user=officer
    )

    assert event.entries.get(pin=4).player == dunn
    assert Player.objects.filter(surname="Dunn", forenames="David").count() == 1


def test_a_corrected_files_report_says_its_codeless_players_are_the_records_they_were_given(arbiter, officer):
    event = approval.do_approve_event(
        workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter), acting_user=officer
    )
    dunn = event.entries.get(pin=4).player
    workflow.do_send_back_event(event, "round 2 was a default, not a loss", acting_user=officer)
    corrected = ECF_EXAMPLE.replace(b"#SUBMISSION INDEX=1", b"#SUBMISSION INDEX=2")

    check = check_upload(corrected, "results.txt", EventDetails(), lists_for_uploads())

    report = check.report()
    [david] = [row for row in report["players"] if row["pin"] == 4]
    assert (david["match"], david["player"]) == ("name", {"code": dunn.code, "name": "Dunn, David"})
    assert not [w for w in report["warnings"] if "registered as new" in w["message"]]
    stored = stored_event(arbiter, corrected)
    assert stored.entries.get(pin=4).player == dunn
    assert stored.uploads.latest("uploaded_at").report["players"][3]["match"] == "name"


def test_a_reason_too_long_to_keep_is_refused_saying_so(client, arbiter, officer):
    event = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)
    client.force_login(officer)

    response = changelist_action(client, "send_back", [event], reason="x" * 5000)

    assert "the reason is 5,000 characters long: say it in 2,000 or fewer" in response.content.decode()
    event.refresh_from_db()
    assert event.status == "submitted"


def test_staff_cannot_give_an_event_a_code_no_address_can_hold(client, arbiter, officer):
    event = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)
    client.force_login(officer)
    change = reverse("admin:events_event_change", args=[event.pk])
    form = client.get(change).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(code="A/../admin", rating_list=event.rating_list.pk)

    response = client.post(change, {**data, **management_forms(client.get(change).context)})

    assert "A/../admin is not an event code: letters and digits, with single - _ . / between them." in (
        response.content.decode().replace("&#x27;", "'")
    )
    event.refresh_from_db()
    assert event.code == "NQ241001"


def test_a_time_control_given_with_the_upload_silences_the_files_warning_that_it_cannot_be_read(arbiter):
    data = trf(
        trf_player(1, "Abbott, Alice", (2, "w", "1")),
        trf_player(2, "Baker, Brian", (1, "b", "0")),
        header=("012 Test", "042 2026/10/03", "122 as usual"),
    ).encode()

    unread = check_upload(data, "t.trf", EventDetails(code="T1"), lists_for_uploads())
    given = check_upload(data, "t.trf", EventDetails(code="T1", time_control="90+30"), lists_for_uploads())

    assert any("cannot read the time control" in p.message for p in unread.warnings)
    assert not any("cannot read the time control" in p.message for p in given.warnings)
    assert given.rating_list.code == "otb-standard"


def test_an_officer_cannot_submit_or_approve_a_file_its_arbiter_has_not_submitted(client, arbiter, officer):
    checked = stored_event(arbiter)

    with pytest.raises(workflow.WorkflowError, match="submitted by its arbiter, or by whoever uploaded its latest"):
        workflow.do_submit_event(checked, acting_user=officer)
    with pytest.raises(workflow.WorkflowError, match="only a submitted event can be approved"):
        approval.do_approve_event(checked, acting_user=officer)
    client.force_login(officer)
    page = client.get(reverse("admin:events_event_decide", args=[checked.pk])).content.decode()
    refused = client.post(reverse("admin:events_event_decide", args=[checked.pk]), {"approve": "1"})

    assert 'name="approve"' not in page
    assert "NQ241001 is checked: only a submitted event can be approved" in refused.content.decode()
    checked.refresh_from_db()
    assert checked.status == "checked" and [change.status for change in checked.changes.all()] == [
        "uploaded",
        "checked",
    ]


def test_the_events_admin_history_shows_its_workflow(client, arbiter, officer):
    event = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)
    workflow.do_send_back_event(event, "Round 3 is missing.", acting_user=officer)
    client.force_login(officer)

    page = client.get(reverse("admin:events_event_history", args=[event.pk])).content.decode()

    assert "The event's workflow" in page
    steps = [(change.get_status_display(), change.by.username, change.note) for change in EventChange.objects.all()]
    assert steps == [
        ("uploaded", "arbiter", "results.txt, submission 1"),
        ("checked", "arbiter", "1 warning"),
        ("submitted", "arbiter", ""),
        ("sent back", "officer", "Round 3 is missing."),
    ]
    for status, by, note in steps:
        assert f"<td>{by}</td><td>{status}</td><td>{note}</td>" in page


def test_import_event_does_not_replace_an_approved_event_either(tmp_path, arbiter, officer):
    event = approval.do_approve_event(
        workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter), acting_user=officer
    )
    path = tmp_path / "corrected.txt"
    path.write_bytes(ecf_file(submission_index=2))

    with pytest.raises(CommandError) as error:
        call_command("import_event", str(path), "--user", "officer")

    assert error.value.returncode == 2
    assert str(error.value).endswith("NQ241001 has been approved: send it back first, then upload the corrected file")
    event.refresh_from_db()
    assert (event.status, event.submission_index, event.uploads.count()) == ("approved", 1, 1)
