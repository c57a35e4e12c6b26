import datetime

import factory

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
