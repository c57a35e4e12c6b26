import datetime

import factory
from django.db import transaction

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
    from grading.models import RatingList

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
    from events import results
    from events.models import Game

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


def publish_month(list_code, month, rows):
    """Publish ``rows`` (dicts of PlayerRating fields with ``player``) as the period's next
    publication, the way a rating run does. Returns (period, {player id: PlayerRating})."""
    from django.utils import timezone

    from grading.models import PlayerRating, RatingPeriod, RatingRun
    from grading.publishing import as_columns, publish

    the_list = rating_list(list_code)
    period, _ = RatingPeriod.objects.get_or_create(
        rating_list=the_list, month=month, defaults={"rule_set": the_list.rule_set}
    )
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
    with transaction.atomic():  # publishing locks the list, inside a transaction
        publish(period, run, as_columns(new))
    period.refresh_from_db()
    return period, {row.player_id: row for row in PlayerRating.objects.filter(run=run)}


def rate_game(
    rating, game, colour, score, opponent_rating, opponent_type="full", pass1_opponent_rating=None, increment=None
):
    """Add ``rating``'s player's side of ``game`` to the rating's breakdown (grading.breakdown.LINE)."""
    from decimal import Decimal

    micro = None if increment is None else int(Decimal(increment).scaleb(6))
    rating.breakdown = [
        *rating.breakdown,
        [game.pk, colour, int(Decimal(score) * 2), opponent_rating, opponent_type, pass1_opponent_rating, micro],
    ]
    rating.save(update_fields=["breakdown"])
