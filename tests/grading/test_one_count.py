"""One count of an event's games wherever it is shown (grading.selectors.game_counts): an
arbiter's events hitting every reason of docs/rules.md part 4 go through the API's upload, the
arbiter's page, the officers' decision page, approval, the live ratings, the event page, the
API's event and the month page, then the month's run; every place shows the same numbers, and
they are what the rules give. (An event with no time control, the one reason of part 4 not
here, cannot be uploaded: the check asks for one; tests/arbiters/test_conditions_preview.py has
it.)"""

import datetime
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from events import approval, workflow
from events.models import Event
from events.tokens import do_create_token
from grading.live.computing import compute_live
from grading.models import GameNotRated, LiveList, RatingList, RatingRun
from tests.builders import ECF_EXAMPLE, succeeded
from tests.grading.run.test_event_conditions_run import (  # noqa: F401 (elo_standard: a fixture)
    ALL_PLAY_ALL_OF_FOUR,
    OCTOBER,
    SWISS,
    all_play_all,
    elo_standard,
    event_file,
)

pytestmark = pytest.mark.django_db

DAY = datetime.timedelta(days=1)


def robin_with_a_zero_scorer():
    """A to E, five rounds by the circle method; E (unrated) loses all four games."""
    return [
        (number, white, black, "0-1" if white == 5 else "1-0" if black == 5 else "1/2-1/2")
        for number, white, black, _ in all_play_all([0, 1, 2, 3, 4, 5])
        if 0 not in (white, black)
    ]


def double_robin(pins):
    """Two cycles of the circle method over ``pins`` (0: the bye), colours swapped in the second."""
    first = [(number, white, black) for number, white, black, _ in all_play_all(pins) if 0 not in (white, black)]
    rounds = len(pins) - 1
    return [(number, white, black, "1/2-1/2") for number, white, black in first] + [
        (number + rounds, black, white, "1/2-1/2") for number, white, black in first
    ]


# code: (the TRF file, (games, rated)) as the rules give them.
EVENTS = {
    # 16.1: A 2250 needs 120 minutes for 60 moves: 89 + 30 gives 119. None of 4.
    "SLOW": (event_file(SWISS, "89 min + 30 s/move", start=OCTOBER), (4, 0)),
    # 16.2: four rounds on one day, 16 hours. None of 8.
    "DAY": (
        event_file([*ALL_PLAY_ALL_OF_FOUR, (4, 2, 1, "1-0"), (4, 4, 3, "0-1")], round_dates=[OCTOBER] * 4),
        (8, 0),
    ),
    # 16.3: begun 3 August, ended 1 November: 91 days. None of 4.
    "LONG": (
        event_file(
            SWISS, start=datetime.date(2026, 8, 3), end=datetime.date(2026, 11, 1), round_dates=[OCTOBER, OCTOBER + DAY]
        ),
        (4, 0),
    ),
    # 16.4: A and E to I, one rated of six. None of 15.
    "RR1": (event_file(all_play_all([1, 5, 6, 7, 8, 9]), start=OCTOBER + 7 * DAY), (15, 0)),
    # 16.4: E (unrated) scores nothing: their 4 games out, the other 6 rated.
    "RR0": (event_file(robin_with_a_zero_scorer(), start=OCTOBER + 14 * DAY), (10, 6)),
    # 16.5: A against E (unrated). None of 2.
    "MU": (event_file([(1, 1, 5, "0-1"), (2, 5, 1, "1/2-1/2")], start=OCTOBER + 20 * DAY), (2, 0)),
    # 16.5: 2.5-0.5 after game 3 of 4: game 4 out.
    "MD": (
        event_file(
            [(1, 1, 2, "1-0"), (2, 2, 1, "1/2-1/2"), (3, 1, 2, "1-0"), (4, 2, 1, "1-0")], start=OCTOBER + 22 * DAY
        ),
        (4, 3),
    ),
    # 16.4: A, B, C and E (unrated) all play all in 3 rounds, fewer than 4. None of 6.
    "RR3": (
        event_file(
            [(n, 5 if w == 4 else w, 5 if b == 4 else b, r) for n, w, b, r in ALL_PLAY_ALL_OF_FOUR],
            start=OCTOBER + 3 * DAY,
        ),
        (6, 0),
    ),
    # 16.4: a double round robin of five with E and F unrated, fewer than six. None of 20.
    "DRR": (event_file(double_robin([0, 1, 2, 3, 5, 6]), start=OCTOBER + 8 * DAY), (20, 0)),
    # Every player rated, 120 minutes: all 4 rated.
    "OK": (event_file(SWISS, start=OCTOBER + 24 * DAY), (4, 4)),
}


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def counted(page: str, label="Games") -> tuple[int, int]:
    """(games, rated) as a page writes them: "Games 8, of which 0 rated; ..." or "Games 4"."""
    found = re.search(rf"{label}:? (\d+)(?:, of which (\d+) rated)?", page)
    assert found, page[:3000]
    games = int(found[1])
    return games, int(found[2]) if found[2] is not None else games


def in_month(page: str, code: str) -> int:
    """An event's games rated in the month page's table: "8 (0 rated)" or "4"."""
    cell = r'</a></td><td>[^<]*</td><td class="num">(\d+)(?: <span class="muted">\((\d+) rated\))?'
    found = re.search(rf'href="/events/{code}/">[^<]*' + cell, page)
    assert found, code
    return int(found[2]) if found[2] is not None else int(found[1])


def api_counted(client, code) -> tuple[int, int]:
    body = client.get(f"/api/v1/events/{code}/").json()
    return body["games_counted"]["games"], body["games_counted"]["rated"]


@pytest.mark.usefixtures("elo_standard")
def test_every_page_and_answer_counts_an_events_games_as_the_run_rates_them(
    arbiter, officer, client, rate, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path / "media"
    _, secret = do_create_token("Swiss Manager", acting_user=arbiter)
    program = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    arbiters, officers = Client(), Client()
    arbiters.force_login(arbiter)
    officers.force_login(officer)
    events = {}
    for code, (data, expected) in EVENTS.items():
        upload = {"file": SimpleUploadedFile("results.trf", data), "code": code}
        response = program.post("/api/v1/events/", upload)
        assert response.status_code == 201, (code, response.content.decode()[:600])
        answer = response.json()
        event = events[code] = Event.objects.get(code=code)
        # Before approval, with today's ratings: the API's answer, the arbiter's page, the decision page.
        assert (answer["event"]["games_counted"]["games"], answer["event"]["games_counted"]["rated"]) == expected, code
        assert answer["event"]["games_counted"]["decided"] == "today"
        assert answer["report"]["games"]["rated"] == expected[1], code  # one number in one answer
        assert counted(text(arbiters.get(reverse("arbiter-event", args=[event.pk])))) == expected, code
        workflow.do_submit_event(event, acting_user=arbiter)
        decision = text(officers.get(reverse("admin:events_event_decide", args=[event.pk])))
        assert counted(decision) == expected, code
        approval.do_approve_event(event, acting_user=officer)

    # Approved: the live ratings decide, as the run will; every page reads their decision.
    live = compute_live(RatingList.objects.get(code="otb-standard"))
    month_page = client.get("/lists/otb-standard/2026-10/").content.decode()
    for code, (_, expected) in EVENTS.items():
        assert counted(text(client.get(f"/events/{code}/"))) == expected, code
        assert api_counted(client, code) == expected, code
        assert counted(text(arbiters.get(reverse("arbiter-event", args=[events[code].pk])))) == expected, code
        if code != "LONG":  # its games of October only: all of them here
            assert in_month(month_page, code) == expected[1], code
    long = text(arbiters.get(reverse("arbiter-event", args=[events["LONG"].pk])))
    assert "FIDE's conditions on events OTB standard is rated by the Elo method (fide-2017)" in long
    october_rated = sum(rated for code, (_, (_, rated)) in EVENTS.items())
    assert LiveList.objects.get(pk=live.pk).games == october_rated == 6 + 3 + 4
    assert f"of which {october_rated} rated" in text(client.get("/lists/otb-standard/2026-10/"))

    # Rated: the publication's decision, the same numbers.
    with django_capture_on_commit_callbacks(execute=True):
        run = succeeded(rate("otb-standard", "2026-10"))
    assert RatingRun.objects.get(pk=run.pk).games == october_rated
    left_out = sum(games - rated for _, ((games, rated)) in (value for value in EVENTS.values()))
    assert GameNotRated.objects.filter(run=run).count() == left_out
    for code, (_, expected) in EVENTS.items():
        assert counted(text(client.get(f"/events/{code}/"))) == expected, code
        assert api_counted(client, code) == expected, code
        assert counted(text(arbiters.get(reverse("arbiter-event", args=[events[code].pk])))) == expected, code


def test_an_event_on_a_list_rated_by_the_ecf_method_is_counted_alike_everywhere(
    arbiter, officer, client, settings, tmp_path
):
    # The ECF example: six games, one a default (not rated by the file); no conditions.
    settings.MEDIA_ROOT = tmp_path / "media"
    _, secret = do_create_token("Swiss Manager", acting_user=arbiter)
    answer = Client(HTTP_AUTHORIZATION=f"Bearer {secret}").post(
        "/api/v1/events/", {"file": SimpleUploadedFile("results.txt", ECF_EXAMPLE)}
    )
    counts = answer.json()["event"]["games_counted"]
    assert (counts["games"], counts["rated"], counts["not_rated_by_file"], counts["decided"]) == (6, 5, 1, None)
    event = Event.objects.get(code="NQ241001")
    arbiters = Client()
    arbiters.force_login(arbiter)
    assert counted(text(arbiters.get(reverse("arbiter-event", args=[event.pk])))) == (6, 5)
    workflow.do_submit_event(event, acting_user=arbiter)
    officers = Client()
    officers.force_login(officer)
    decision = text(officers.get(reverse("admin:events_event_decide", args=[event.pk])))
    assert counted(decision) == (6, 5) and "FIDE's conditions" not in decision
    approval.do_approve_event(event, acting_user=officer)
    page = text(client.get("/events/NQ241001/"))
    assert counted(page) == (6, 5) and "1 not rated by the file" in page and "FIDE's conditions" not in page
    assert api_counted(client, "NQ241001") == (6, 5)
