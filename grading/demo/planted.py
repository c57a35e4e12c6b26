"""Results that look manipulated, planted in the demo federation so that a newcomer finds flags
on the integrity watch's review page (docs/integrity.md): a player given every game of a small
round robin against players far above them (held from rating, awaiting review), and two club
mates who meet in every month's club night, the lower rated winning each time.
"""

import datetime

from chess import results
from chess.months import Month
from events.models import Event
from grading.demo.pairings import round_robin
from grading.demo.playing import demo_event, play, save_games
from grading.models import PlayerRating, RatingList
from players.models import years_before

CLUB_NIGHT_SIZE = 16
CLUB_NIGHT_ROUNDS = 3


def plant_cases(rng, people, strength, first: Month, last: Month) -> tuple[int, int]:
    """The planted events, on the standard list, among players with a rating there: returns
    (events, games)."""
    standard = RatingList.objects.get(code="otb-standard")
    # Rated, and recently: a rating not played for years lapses to a partial one, which the
    # detectors do not read as a rating (docs/integrity.md).
    recent = PlayerRating.objects.filter(rating_list=standard, type="full", last_played__gte=str(first - 3))
    rating = dict(recent.values_list("player_id", "rating"))
    grown = years_before(last.first_day(), 18)
    adults = sorted(
        (
            person
            for person in people
            if person.pk in rating and not person.fide_title and person.birth_date and person.birth_date < grown
        ),
        key=lambda person: rating[person.pk],
    )
    events = games = 0
    if played := gifted_round_robin(rng, standard, adults, rating, strength, last):
        events, games = 1, played
    for month in range(first.index, last.index + 1):
        if played := club_night(rng, standard, adults, rating, strength, Month.from_index(month)):
            events, games = events + 1, games + played
    return events, games


def gifted_round_robin(rng, standard, adults, rating, strength, month: Month) -> int:
    """A round robin of six: an adult rated 1300 to 1500 wins all five games against the five
    highest rated adults without a title (400 or more above); a rating officer holds it from
    rating while they look into it. (``adults`` are in the order of their ``rating``, those taken
    on.) Returns the games played (none in a demo too small for it)."""
    weak = next((person for person in adults if 1300 <= rating[person.pk] <= 1500), None)
    strong = [person for person in adults[-5:] if weak and rating[person.pk] >= rating[weak.pk] + 400]
    if len(strong) < 5:
        return 0  # a demo too small to have them
    day = month.first_day() + datetime.timedelta(days=21)
    event = demo_event(
        code=f"DEMO-{month}-CUP",
        name=f"Riverton Summer Cup {month.year}",
        kind=Event.Kind.ROUND_ROBIN,
        rating_list=standard,
        start_date=day,
        end_date=day + datetime.timedelta(days=2),
        time_control="90 min + 30 sec",
        organiser="Riverton Knights Chess Club",
        status=Event.Status.HELD,
        held_from=Event.Status.APPROVED,
        note="demo data: held for review, its bottom seed won every game",
    )

    def result(white, black):
        if weak in (white, black):
            return results.WHITE_WIN if white == weak else results.BLACK_WIN
        return play(rng, strength, white, black)

    field = [weak, *strong]
    return save_games(event, field, round_robin(field), result)


def club_night(rng, standard, adults, rating, strength, month: Month) -> int:
    """A club night Swiss of sixteen and three rounds where the same two club mates meet in the
    first round, the one rated about 1700 beating the one rated 300 or more above them each time
    (the circle method pairs the first player with the last, and nobody twice)."""
    first = next((person for person in adults if rating[person.pk] >= 1700), None)
    second = next((person for person in adults if first and rating[person.pk] >= rating[first.pk] + 300), None)
    others = [person for person in adults if person not in (first, second)]
    if second is None or len(others) < CLUB_NIGHT_SIZE - 2:
        return 0  # a demo too small to have them
    others = rng.sample(others, CLUB_NIGHT_SIZE - 2)
    field = [first, *others, second]
    day = month.first_day() + datetime.timedelta(days=3)
    event = demo_event(
        code=f"DEMO-{month}-CLUB",
        name=f"Hillmarsh Club Night {month}",
        kind=Event.Kind.SWISS,
        rating_list=standard,
        start_date=day,
        end_date=day,
        time_control="90 min + 30 sec",
        organiser="Hillmarsh Chess Club",
    )

    def result(white, black):
        if {white, black} == {first, second}:
            return results.WHITE_WIN if white == first else results.BLACK_WIN
        return play(rng, strength, white, black)

    return save_games(event, field, round_robin(field)[:CLUB_NIGHT_ROUNDS], result)
