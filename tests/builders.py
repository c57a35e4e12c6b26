"""Builders for the tests: factories, event files, uploads, take-ons and rated events. Tests
import them from here; conftest files hold fixtures only."""

import datetime
import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import factory
import psycopg
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection, transaction
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from chess import results
from chess.months import Month
from events.formats import parse_event_file
from events.models import Entry, Event, Game
from events.uploads import storing
from events.uploads.checking import EventDetails, check_upload
from grading.demo.federation import load_demo
from grading.engine import rate_period
from grading.engine.files.rate_file import format_result, parse_rate_file
from grading.models import PlayerRating, RatingList, RatingPeriod, RatingRun
from grading.rule_set_changes import do_change_rule_set
from grading.run.publishing import as_columns, publish
from grading.selectors.history import lists_for_uploads
from grading.takeon import do_import_ratings
from players.models import Club, Player


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    code = factory.Sequence(lambda n: f"C{n:03d}")
    name = factory.Sequence(lambda n: f"Club {n}")
    county = "Northshire"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    code = factory.Sequence(lambda n: f"{200000 + n:06d}A")
    surname = factory.Sequence(lambda n: f"Player{n}")
    forenames = "Pat"
    birth_date = datetime.date(1980, 1, 1)
    sex = "M"
    club = factory.SubFactory(ClubFactory)


# Events, games and published ratings, for the public site's tests.


def rating_list(code="otb-standard"):
    return RatingList.objects.get(code=code)


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "events.Event"

    code = factory.Sequence(lambda n: f"EV{n:04d}")
    name = factory.Sequence(lambda n: f"Congress {n}")
    kind = "swiss"
    rating_list = factory.LazyFunction(rating_list)
    start_date = datetime.date(2026, 9, 5)
    end_date = datetime.date(2026, 9, 6)
    time_control = "90 min + 30 sec"
    status = "rated"


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "events.Entry"

    event = factory.SubFactory(EventFactory)
    pin = factory.Sequence(lambda n: n + 1)
    player = factory.SubFactory(PlayerFactory)
    surname = factory.LazyAttribute(lambda entry: entry.player.surname if entry.player else "Unknown")
    forenames = factory.LazyAttribute(lambda entry: entry.player.forenames if entry.player else "")
    code = factory.LazyAttribute(lambda entry: entry.player.code if entry.player else "")
    club_name = factory.LazyAttribute(
        lambda entry: entry.player.club.name if entry.player and entry.player.club else ""
    )


def play(white, black, result, round=1, board=1, date=None):
    """A Game between two entries (``black`` None for a bye)."""

    reason = results.unrated_reason(result)
    return Game.objects.create(
        event=white.event,
        round=round,
        board=board,
        date=date or white.event.start_date,
        white_entry=white,
        black_entry=black,
        white=white.player,
        black=black.player if black else None,
        result=result,
        rated=not reason,
        unrated_reason=reason,
    )


def publish_month(list_code, month, rows, on_commit=True):
    """Publish ``rows`` (dicts of PlayerRating fields with ``player``) as the period's next
    publication, the way a rating run does; without ``on_commit``, as another process would (what
    it does when it commits is not done here). Returns (period, {player id: PlayerRating})."""

    the_list = rating_list(list_code)
    period, _ = RatingPeriod.objects.get_or_create(rating_list=the_list, month=month)
    now = timezone.now()
    run = RatingRun.objects.create(period=period, trigger="test", started_at=now, finished_at=now, outcome="succeeded")
    defaults = {
        "type": "full",
        "category": "imported",
        "method": "import",
        "last_played": month,
        "games": 0,
        "opponents_total": 0,
        "points": 0,
    }
    new = [
        {**defaults, **{key: value for key, value in row.items() if key != "player"}, "player_id": row["player"].pk}
        for row in rows
    ]
    # Publishing locks the list, inside a transaction; what it does on commit (forgetting the
    # publications kept in the cache) is done as a real commit would.
    with TestCase.captureOnCommitCallbacks(execute=on_commit), transaction.atomic():
        publish(period, run, as_columns(new))
    period.refresh_from_db()
    return period, {row.player_id: row for row in PlayerRating.objects.filter(run=run)}


def rate_game(
    rating, game, colour, score, opponent_rating, opponent_type="full", pass1_opponent_rating=None, increment=None
):
    """Add ``rating``'s player's side of ``game`` to the rating's breakdown (grading.run.breakdown.LINE)."""

    micro = None if increment is None else int(Decimal(increment).scaleb(6))
    rating.breakdown = [
        *rating.breakdown,
        [game.pk, colour, int(Decimal(score) * 2), opponent_rating, opponent_type, pass1_opponent_rating, micro],
    ]
    rating.save(update_fields=["breakdown"])


# Where the real files from other software are (tests/data/README.md gives their sources).
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
TRF_DIR = DATA / "trf"
ECF_EXAMPLE_FILE = DATA / "ecf" / "example-ecf-results.txt"
ECF_EXAMPLE = ECF_EXAMPLE_FILE.read_bytes()


def parse(text: str, filename: str = "", encoding: str = "utf-8"):
    return parse_event_file(text.encode(encoding), filename)


def parse_file(path: Path):
    return parse_event_file(path.read_bytes(), path.name)


def trf_player(rank, name, *rounds, points="", sex="m", title="", rating="", fed="", fide_id="", birth=""):
    """A TRF 001 record with every field in its columns; rounds are (opponent, colour, result)."""
    line = (
        f"001 {rank:>4} {sex:1}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide_id:>11} "
        f"{birth:<10} {points:>4} {'':>4}  "
    )
    for opponent, colour, result in rounds:
        line += f"{opponent:>4} {colour:1} {result:1}  "
    return line.rstrip()


HEADER = ("012 Test Open", "042 2026/10/03", "052 2026/10/04", "122 90 min + 30 sec")


def trf(*lines, header=HEADER):
    return "\n".join([*header, *lines]) + "\n"


def messages(event, severity="error"):
    return [(p.line, p.message) for p in event.problems if p.severity == severity]


def ecf_file(**changes):
    """The spec's example ECF file with fields replaced, e.g. submission_index=2."""
    text = ECF_EXAMPLE.decode()
    for name, value in changes.items():
        field = "#" + name.upper().replace("_", " ") + "="
        start = text.index(field) + len(field)
        end = text.index("\n", start)
        text = text[:start] + str(value) + text[end:]
    return text.encode()


def stored_event(user, data=ECF_EXAMPLE, **details):
    """An event file checked and stored as the upload page does."""
    check = check_upload(data, "results.txt", EventDetails(**details), lists_for_uploads())
    return storing.do_store_upload(check, data, "results.txt", acting_user=user)


def change_form_data(response) -> dict:
    """The POST of an admin change page as it was shown: its form and inlines' initial values."""
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    data = {}
    for form in forms:
        for field in form:
            value = field.value()
            if value is None or value is False:
                continue
            data[field.html_name] = [str(item) for item in value] if isinstance(value, list) else str(value)
    return data


def upload(client, data, filename="results.txt", **fields):
    """The arbiters' upload page, posted."""
    return client.post(reverse("arbiter-upload"), {"file": SimpleUploadedFile(filename, data), **fields})


def post_nameless_file(client, url, data, **fields):
    """A multipart POST of ``data`` as the field ``file`` with an empty filename (``filename=""``),
    as a program that forgets the name sends it (and a browser with no file chosen, with no data):
    Django reads such a part as a plain field, not a file."""
    boundary = "NamelessFileBoundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename=""\r\n'.encode()]
    parts.append(b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n")
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return client.post(url, body, content_type=f"multipart/form-data; boundary={boundary}")


def take_on(list_code, month, *lines):
    """Publish ratings for ``month`` as the previous system left them: "CODE,rating,type,games,
    opponents_total,points,last_played" lines."""
    data = "code,rating,type,games,opponents_total,points,last_played\n" + "".join(line + "\n" for line in lines)
    do_import_ratings(data.encode(), RatingList.objects.get(code=list_code), Month.parse(month))


def elo_federation():
    """Five players; otb-standard taken on by the ECF method for 2026-09 and rated by
    fide-2017 from 2026-10: two Full ratings (1500, 1900), a Partial record (D) and a Full
    rating below the Elo floor (E); C has no record."""
    for code, born in [("111111A", 1980), ("222222B", 1975), ("333333C", 1990), ("444444D", 1985), ("555555E", 1970)]:
        PlayerFactory(code=code, birth_date=datetime.date(born, 1, 1))
    take_on(
        "otb-standard",
        "2026-09",
        "111111A,1500,full,50,75000,25,2026-09",
        "222222B,1900,full,50,95000,25,2026-09",
        "444444D,1200,partial,5,6000,2.5,2026-08",
        "555555E,900,full,12,11400,4,2026-09",
    )
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-10"), "fide-2017", acting_user=None)


def elo_october():
    """elo_federation's October event: A beats B (1900), draws with C (no record) and beats D
    (Partial before October)."""
    return approved_event(
        "OCT",
        "otb-standard",
        datetime.date(2026, 10, 10),
        [("111111A", "222222B", "1-0"), ("333333C", "111111A", "1/2-1/2"), ("111111A", "444444D", "1-0")],
    )


def elo_refused_events():
    """Two events of elo_federation's October that FIDE's conditions refuse (docs/rules.md
    part 4): MATCH, A (1500) against C (no rating) over two games, and FAST, at 45 minutes and
    30 seconds a move (75 minutes for 60 moves) with B (1900) among its three players."""
    match = approved_event(
        "MATCH",
        "otb-standard",
        datetime.date(2026, 10, 17),
        [("111111A", "333333C", "1-0"), ("333333C", "111111A", "1/2-1/2")],
    )
    fast = approved_event(
        "FAST",
        "otb-standard",
        datetime.date(2026, 10, 24),
        [("222222B", "444444D", "1-0"), ("444444D", "555555E", "0-1"), ("555555E", "222222B", "1/2-1/2")],
        time_control="45 min + 30 s/move",
    )
    return match, fast


# Months rated from rate-file documents (docs/rate-file.md), for tests that check the database
# against the engine run from files.


def rated_demo(lists, players=80, seed=11, today=datetime.date(2026, 11, 21)):
    """The demo federation with ``lists`` rated month by month through ``rate_period``, as the
    monthly schedule would have; returns the demo's summary."""
    summary = load_demo(players=players, seed=seed, today=today)
    month = summary.first_month
    while month <= summary.last_month:
        for code in lists:
            call_command("rate_period", str(month), "--list", code)
        month += 1
    return summary


def file_state(row, peak=True) -> dict:
    """A stored rating row as a rate-file state (points as a number); without its peak for the
    ECF method, whose file keeps none without floors."""
    state = {
        "rating": row.rating,
        "type": row.type,
        "games": row.games,
        "opponents_total": row.opponents_total,
        "points": float(row.points),
        "last_played": row.last_played or None,
    }
    if peak and row.peak is not None:
        state["peak"] = row.peak
    if row.type == "pending":
        state["pending"] = [{**month, "points": float(month["points"])} for month in row.pending]
    return state


def rated_from_file(rules, list_code, month, people, games, states) -> dict:
    """rate-file's output for a month of ``list_code``: ``games`` as (white id, black id, result,
    date[, event code]), ``people`` the players by id, ``states`` {list: {player code: state}}."""
    ids = sorted({pk for white, black, *_ in games for pk in (white, black)})
    document = {
        "rules": rules,
        "list": list_code,
        "period": str(month),
        "players": [
            {
                "id": people[pk].code,
                "birth_date": people[pk].birth_date.isoformat() if people[pk].birth_date else None,
                "title": people[pk].fide_title or None,
                "ratings": {name: kept[people[pk].code] for name, kept in states.items() if people[pk].code in kept},
            }
            for pk in ids
        ],
        "games": [
            {
                "white": people[white].code,
                "black": people[black].code,
                "result": result,
                "date": day.isoformat(),
                **({"event": event[0]} if event else {}),
            }
            for white, black, result, day, *event in games
        ],
    }
    return json.loads(format_result(rate_period(parse_rate_file(json.dumps(document)))))


def approved_event(code, list_code, day, games, status=Event.Status.APPROVED, time_control="90 min + 30 s/move"):
    """An approved event on a list: games as (white code, black code, result) on ``day``, each
    round of its own, at ``time_control`` (by default one any Elo list rates, docs/rules.md 16.1)."""
    event = Event.objects.create(
        code=code,
        name=code,
        rating_list=RatingList.objects.get(code=list_code),
        start_date=day,
        end_date=day,
        time_control=time_control,
        status=status,
    )
    players = {}
    for white, black, _ in games:
        for code_ in (white, black):
            if code_ not in players:
                player = Player.objects.get(code=code_)
                players[code_] = Entry.objects.create(
                    event=event, pin=len(players) + 1, surname=player.surname, player=player, match="code"
                )
    Game.objects.bulk_create(
        Game(
            event=event,
            round=number,
            date=day,
            white_entry=players[white],
            black_entry=players[black],
            white=players[white].player,
            black=players[black].player,
            result=result,
        )
        for number, (white, black, result) in enumerate(games, start=1)
    )
    return event


def succeeded(run):
    assert run.outcome == RatingRun.Outcome.SUCCEEDED, run.message
    return run


# The public site's small federation with known numbers, published the way rating runs publish.
#
# OTB standard: taken on for 2025-10, rated for 2026-09 (David Fletcher K-rated 1850 -> 1848,
# Alice Fletcher P-rated 1150P -> 1400P), and 2026-10 published then revised (Grace Dunn 1690,
# revised to 1695). 55 filler players of Southbank (1000 to 1270) keep the list over one page (50 a page).


FILLERS = 55


@dataclass
class Federation:
    northquay: object
    southbank: object
    alice: object
    david: object
    grace: object
    odd: object
    congress: object
    ratings: dict  # (player code, month) -> PlayerRating on otb-standard


def build_federation():
    northquay = ClubFactory(code="NQC", name="Northquay")
    southbank = ClubFactory(code="SBK", name="Southbank")
    alice = PlayerFactory(
        code="200001A",
        surname="Fletcher",
        forenames="Alice",
        sex="F",
        birth_date=datetime.date(2015, 3, 1),
        club=northquay,
    )
    david = PlayerFactory(
        code="200002B",
        surname="Fletcher",
        forenames="David",
        sex="M",
        birth_date=datetime.date(1980, 6, 1),
        club=northquay,
    )
    grace = PlayerFactory(
        code="200003C", surname="Dunn", forenames="Grace", sex="F", birth_date=datetime.date(1955, 1, 1), club=southbank
    )
    odd = PlayerFactory(
        code="200004D", surname="O'Neil <script>alert(1)</script>", forenames="Bob & Co", club=southbank
    )
    fillers = [
        PlayerFactory(
            code=f"3{n:05d}A",
            surname=f"Filler{n:02d}",
            forenames="Sam",
            club=southbank,
            birth_date=datetime.date(1990, 1, 1),
        )
        for n in range(FILLERS)
    ]

    taken_on = [
        {"player": alice, "rating": 1150, "type": "partial", "games": 4, "opponents_total": 4800, "points": 2},
        {"player": david, "rating": 1850, "games": 120, "opponents_total": 200000, "points": 60},
        {"player": grace, "rating": 1700, "games": 300, "opponents_total": 500000, "points": 150},
        {"player": odd, "rating": 1500, "games": 20, "opponents_total": 30000, "points": 10},
    ] + [
        {"player": filler, "rating": 1000 + 5 * n, "games": 50, "opponents_total": 50000, "points": 25}
        for n, filler in enumerate(fillers)
    ]
    _, first = publish_month("otb-standard", "2025-10", [{**row, "last_played": "2025-10"} for row in taken_on])
    publish_month(
        "online",
        "2025-10",
        [{"player": alice, "rating": 1100, "type": "partial", "games": 3, "last_played": "2025-10"}],
    )

    congress = EventFactory(
        code="NQ2609",
        name="Northquay Congress",
        start_date=datetime.date(2026, 9, 5),
        end_date=datetime.date(2026, 9, 6),
    )
    pins = {
        player.pk: EntryFactory(event=congress, pin=pin, player=player)
        for pin, player in enumerate([david, alice, grace], start=1)
    }
    d, a, g = pins[david.pk], pins[alice.pk], pins[grace.pk]
    r1 = play(d, g, "1-0", round=1, board=1)
    play(a, None, "BYE-1", round=1, board=2)
    r2 = play(a, g, "1-0", round=2, board=1)
    play(d, None, "BYE-1/2", round=2, board=2)
    r3 = play(d, a, "1/2-1/2", round=3, board=1, date=datetime.date(2026, 9, 6))

    _, september = publish_month(
        "otb-standard",
        "2026-09",
        [
            # K: (-4.0 + 10) x 20 / 20 = +6.0 against Grace, (-8.4 + 0) x 20 / 20 = -8.4 against Alice:
            # 1850 - 2.4 = 1847.6, rounded 1848.
            {
                "player": david,
                "rating": 1848,
                "games": 122,
                "opponents_total": 200000 + 1700 + 1400,
                "points": 61.5,
                "category": "full",
                "method": "K",
                "prior_rating": 1850,
                "k_factor": 20,
                "age": 46,
            },
            # P: G = 4 + 2 + 1 = 7, T = 4800 + 1850 + 1700 + 1100 = 9450, S = 2 + 1.5 + 0.5 = 4,
            # p = 0.5714 -> 0.57, dp = +50, 9450 / 7 + 50 = 1400.
            {
                "player": alice,
                "rating": 1400,
                "type": "partial",
                "games": 6,
                "opponents_total": 8350,
                "points": 3.5,
                "category": "partial",
                "method": "P",
                "prior_rating": 1150,
                "dummy_rating": 1100,
                "pass1": 1400,
                "pass2": 1400,
                "age": 11,
            },
        ],
    )
    rate_game(september[david.pk], r1, "w", 1, 1700, increment="6.0")
    rate_game(september[david.pk], r3, "w", "0.5", 1400, opponent_type="partial", increment="-8.4")
    rate_game(september[alice.pk], r2, "w", 1, 1700, pass1_opponent_rating=1700)
    rate_game(september[alice.pk], r3, "b", "0.5", 1850, pass1_opponent_rating=1850)

    publish_month(
        "otb-standard",
        "2026-10",
        [
            {"player": grace, "rating": 1690, "games": 301, "category": "full", "method": "K", "prior_rating": 1700},
        ],
    )
    publish_month(
        "otb-standard",
        "2026-10",
        [
            {"player": grace, "rating": 1695, "games": 301, "category": "full", "method": "K", "prior_rating": 1700},
        ],
    )
    ratings = {
        (player.code, month): row
        for month, rows in [("2025-10", first), ("2026-09", september)]
        for player_id, row in rows.items()
        for player in (alice, david, grace)
        if player.pk == player_id
    }
    return Federation(northquay, southbank, alice, david, grace, odd, congress, ratings)


def side_connection(autocommit=False):
    """Another session of the test database (PostgreSQL), in a transaction of its own unless
    ``autocommit``: what holds a lock, or watches one held, beside the test's own."""
    settings = connection.settings_dict
    return psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        password=settings["PASSWORD"] or None,
        autocommit=autocommit,
    )
