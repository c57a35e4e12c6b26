"""A believable small federation for trying the site: clubs, players, ratings and events.

Everything is drawn from a seeded random generator, so two demo databases are identical.
The months are relative to today: ratings are taken on for the period seven months back and
the events are played in the six months since, on all five lists: three rated by the ECF
method, a blitz list rated by the Elo method under FIDE's 2017 rules, and a FIDE standard list
changed to FIDE's current rules two months before the last (grading/demo/fide_list.py).
"""

import datetime
import json
import random
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from chess import results
from chess.months import Month
from events.models import Event
from grading.demo.fide_list import change_to_fides_current_rules, play_fide_opens, take_on_fide_list
from grading.demo.pairings import round_robin, swiss
from grading.demo.planted import plant_cases
from grading.demo.playing import demo_event, play, save_games
from grading.engine import numbers
from grading.engine.rules.prating import score_percent
from grading.engine.rules.tables import DP_BY_PERCENT
from grading.models import PlayerRating, RatingList, RatingPeriod
from grading.takeon import publish_taken_on
from players.models import Club, Player, years_before

CLUBS = [
    ("NQC", "Northquay", "Northshire"),
    ("SBK", "Southbank", "Northshire"),
    ("HLM", "Hillmarsh", "Westmoor"),
    ("RVT", "Riverton Knights", "Westmoor"),
    ("CST", "Castleford Juniors", "Eastdale"),
    ("EDL", "Eastdale Rooks", "Eastdale"),
    ("WTR", "Wester Ross", "Highfold"),
    ("HFD", "Highfold", "Highfold"),
]
SURNAMES = [
    name.replace("_", " ")
    for name in (
        "Abbott Baker Carter Dunn Evans Fletcher Graham Hughes Irving Jones Khan Lewis Morgan Nash Owen "
        "Patel Quinn Roberts Singh Taylor Underwood Vaughan Walsh Young Zielinski Ó_Briain Müller Nowak "
        "Okafor Fernández Chen Nguyen Kowalski D'Arcy MacLeod Ferreira Novák Sørensen"
    ).split()
]
FORENAMES_M = (
    "Adam Brian Callum David Ewan Farhan George Harry Ivan Jack Kieran Liam Mohammed Niall Oscar Piotr "
    "Rhys Sam Tomás Wei"
).split()
FORENAMES_F = (
    "Alice Beth Chloe Dana Eilidh Fatima Grace Hannah Isla Jasmine Katya Lucy Maya Niamh Olivia Priya "
    "Ruth Sofia Zofia Ana"
).split()
TITLES = ["GM", "IM", "IM", "FM", "FM", "FM", "WIM", "WFM", "CM", "CM"]
CHECK_LETTERS = "ABCDEFGHJKL"


class DemoRefused(Exception):
    pass


@dataclass
class DemoSummary:
    clubs: int
    players: int
    ratings: int
    events: int
    games: int
    first_month: Month
    last_month: Month


def load_demo(players=320, seed=2026, today=None) -> DemoSummary:
    """Fill an empty database with the demo federation, in one transaction."""
    rng = random.Random(seed)
    today = today or timezone.localdate()
    last = Month.of(today) - 1
    take_on = last - 6
    with transaction.atomic():
        if Player.objects.exists() or Club.objects.exists() or Event.objects.exists():
            raise DemoRefused(
                "the database already has players, clubs or events: the demo loads only into an empty one"
            )
        clubs = Club.objects.bulk_create([Club(code=c, name=n, county=k) for c, n, k in CLUBS])
        people = Player.objects.bulk_create(make_players(rng, players, clubs, today))
        strength = {person.pk: player_strength(rng, person, today) for person in people}
        ratings = take_on_ratings(rng, people, strength, take_on)
        ratings += take_on_blitz(rng, people, strength, take_on)
        events, games = play_events(rng, people, strength, take_on + 1, last)
        events, games = events + 1, games + play_blitz_match(people, strength, last)
        planted_events, planted_games = plant_cases(random.Random(seed + 1), people, strength, take_on + 1, last)
        events, games = events + planted_events, games + planted_games
        # The month under way: its events over by today are approved, for the live ratings.
        live_events, live_games = play_events(rng, people, strength, last + 1, last + 1, before=today)
        events, games = events + live_events, games + live_games
        # The list rated by FIDE's current rules, from a generator of its own (grading/demo/fide_list.py).
        fide_rng = random.Random(seed + 2)
        ratings += take_on_fide_list(fide_rng, people, strength, take_on)
        change_to_fides_current_rules(last - 2)
        fide_events, fide_games = play_fide_opens(fide_rng, people, strength, take_on + 1, last + 1, before=today)
        events, games = events + fide_events, games + fide_games
    return DemoSummary(len(clubs), len(people), ratings, events, games, take_on + 1, last)


def make_players(rng, count, clubs, today):
    players = []
    for number in range(count):
        sex = "F" if rng.random() < 0.18 else "M"
        forenames = rng.choice(FORENAMES_F if sex == "F" else FORENAMES_M)
        junior = rng.random() < 0.22
        age = rng.randint(8, 17) if junior else rng.randint(18, 84)
        born = years_before(today, age) - datetime.timedelta(days=rng.randint(1, 360))
        title = rng.choice(TITLES) if number % 29 == 0 and not junior else ""
        if title.startswith("W") and sex == "M":
            title = title[1:]
        players.append(
            Player(
                code=f"{100000 + number * 37:06d}{CHECK_LETTERS[number % len(CHECK_LETTERS)]}",
                surname=rng.choice(SURNAMES),
                forenames=forenames,
                birth_date=None if rng.random() < 0.05 else born,
                sex=sex,
                fide_title=title,
                fide_id=400000 + number if title or rng.random() < 0.3 else None,
                nationality="ENG",
                club=rng.choice(clubs) if rng.random() < 0.92 else None,
            )
        )
    return players


def player_strength(rng, person, today):
    base = {"GM": 2500, "IM": 2380, "FM": 2250, "WIM": 2150, "CM": 2100, "WFM": 2020}
    if person.fide_title:
        return base[person.fide_title] + rng.randint(-40, 60)
    if person.birth_date and years_before(today, 18) < person.birth_date:
        return rng.randint(500, 1700)
    return int(rng.gauss(1650, 280))


def take_on_ratings(rng, people, strength, month):
    """The ratings published for ``month`` by the federation's previous system."""
    count = 0
    for rating_list, share in [("otb-standard", 0.8), ("otb-rapid", 0.5), ("online", 0.3)]:
        the_list = RatingList.objects.get(code=rating_list)
        period = RatingPeriod.objects.create(rating_list=the_list, month=str(month))
        rows = []
        for person in people:
            if rng.random() > share:
                continue
            games = rng.choice([rng.randint(1, 9), rng.randint(10, 400), rng.randint(10, 400)])
            offset = 60 if rating_list == "online" else 0
            rating = max(100, strength[person.pk] + rng.randint(-60, 60) - offset)
            last_played = month - rng.choice([0, 0, 0, 1, 2, 5, 14, 40])
            points, opponents_total = believable_record(rng, rating, games)
            rows.append(
                {
                    "player_id": person.pk,
                    "rating": rating,
                    "type": "full" if games >= 10 else "partial",
                    "games": games,
                    "opponents_total": opponents_total,
                    "points": points,
                    "last_played": str(last_played),
                }
            )
        publish_taken_on(period, rows, f"{len(rows)} ratings taken on for the demo")
        count += len(rows)
    return count


BLITZ = {
    "name": "OTB blitz",
    "rule_set": "fide-2017-rapid",
    "min_minutes": 0,
    "max_minutes": 10,
    "display_order": 4,
}


def take_on_blitz(rng, people, strength, month):
    """A fourth list rated by the Elo method, so that both methods are seen side by side: the
    blitz ratings of the previous system, Elo ones with their peaks, and some players a few games
    short of a first rating (docs/rules.md part 2)."""
    the_list, _ = RatingList.objects.get_or_create(code="otb-blitz", defaults=BLITZ)
    period = RatingPeriod.objects.create(rating_list=the_list, month=str(month))
    rows = []
    for person in people:
        roll = rng.random()
        if roll < 0.45:
            rating = max(1000, strength[person.pk] + rng.randint(-80, 80))
            games = rng.randint(30, 600)
            points, opponents_total = believable_record(rng, rating, games)
            rows.append(
                {
                    "player_id": person.pk,
                    "rating": rating,
                    "type": "full",
                    "games": games,
                    "opponents_total": opponents_total,
                    "points": points,
                    "last_played": str(month - rng.choice([0, 0, 1, 3, 8])),
                    "peak": rating + rng.choice([0, 0, rng.randint(1, 120)]),
                }
            )
        elif roll < 0.55:
            played = month - rng.randint(0, 12)
            games = rng.randint(1, 4)
            rows.append(
                {
                    "player_id": person.pk,
                    "rating": None,
                    "type": "pending",
                    "games": 0,
                    "opponents_total": 0,
                    "points": 0,
                    "last_played": str(played),
                    "pending": json.dumps(
                        [
                            {
                                "month": str(played),
                                "games": games,
                                "opponents_total": games * rng.randint(1300, 1800),
                                "points": numbers.points(rng.randint(0, 2 * games)),
                            }
                        ]
                    ),
                }
            )
    publish_taken_on(period, rows, f"{len(rows)} blitz states taken on for the demo")
    return len(rows)


def believable_record(rng, rating, games) -> tuple[Decimal, int]:
    """Points and opponents' total of ``games`` that give ``rating`` as a performance: a score
    round the middle, and opponents whose average the score puts at the rating (docs/rules.md section
    4: rating = T / G + dp(p)). Random points with unrelated opponents made a strong result
    lower a rating by a hundred points in the demo's first month."""
    share = min(max(rng.gauss(0.5, 0.15), 0.0), 1.0)
    halves = round(share * games * 2)
    dp = DP_BY_PERCENT[score_percent(halves, games)]
    return Decimal(halves) / 2, games * max(100, rating - dp)


def play_events(rng, people, strength, first, last, before=None):
    """Each month's events, approved; only those over before ``before``, if given."""
    lists = {rating_list.code: rating_list for rating_list in RatingList.objects.all()}
    events = games = 0
    month = first
    while month <= last:
        plans = [
            ("Congress", "otb-standard", "90 min + 30 sec", Event.Kind.SWISS, 5, rng.randint(36, 60), 2),
            ("Invitational", "otb-standard", "90 min + 30 sec", Event.Kind.ROUND_ROBIN, 7, 8, 3),
            ("Rapidplay", "otb-rapid", "15 min + 10 sec", Event.Kind.SWISS, 7, rng.randint(30, 50), 0),
            ("Online Swiss", "online", "10 min + 5 sec", Event.Kind.SWISS, 6, rng.randint(24, 40), 0),
            ("Blitz", "otb-blitz", "3 min + 2 sec", Event.Kind.SWISS, 9, rng.randint(20, 36), 0),
        ]
        for number, (title, list_code, time_control, kind, rounds, size, days) in enumerate(plans):
            start = month.first_day() + datetime.timedelta(days=rng.randint(1, 20))
            end = start + datetime.timedelta(days=days)
            if before and end >= before:
                continue
            entrants = rng.sample(people, min(size, len(people)))
            entrants.sort(key=lambda person: -strength[person.pk])
            event = demo_event(
                code=f"DEMO-{month}-{number + 1}",
                name=f"{rng.choice(CLUBS)[1]} {title} {month.year}",
                kind=kind,
                rating_list=lists[list_code],
                start_date=start,
                end_date=end,
                time_control=time_control,
                online=list_code == "online",
                organiser=rng.choice(CLUBS)[1] + " Chess Club",
            )
            pairings = round_robin(entrants) if kind == Event.Kind.ROUND_ROBIN else swiss(rng, entrants, rounds)
            games += save_games(event, entrants, pairings, lambda white, black: play(rng, strength, white, black))
            events += 1
        month += 1
    return events, games


def play_blitz_match(people, strength, month) -> int:
    """A blitz match of four games between the strongest player rated on the blitz list and one
    with no blitz state: FIDE's conditions leave it out of that Elo list (docs/rules.md 16.5), so
    the demo shows games not rated and why. Returns the games played."""
    blitz = RatingList.objects.get(code="otb-blitz")
    known = set(PlayerRating.objects.filter(rating_list=blitz).values_list("player_id", "type"))
    rated = {player for player, kind in known if kind == "full"}
    strongest = max((person for person in people if person.pk in rated), key=lambda person: strength[person.pk])
    newcomer = next(person for person in people if person.pk not in {player for player, _ in known})
    day = month.first_day() + datetime.timedelta(days=24)
    event = demo_event(
        code=f"DEMO-{month}-MATCH",
        name=f"Blitz match: {strongest.surname} v {newcomer.surname}",
        kind=Event.Kind.OTHER,
        rating_list=blitz,
        start_date=day,
        end_date=day,
        time_control="3 min + 2 s/move",
        scheduled_rounds=4,
    )
    one, other = strongest, newcomer
    played = iter([results.WHITE_WIN, results.DRAW, results.WHITE_WIN, results.BLACK_WIN])
    pairings = [[(one, other)], [(other, one)], [(one, other)], [(other, one)]]
    return save_games(event, [one, other], pairings, lambda white, black: next(played))
