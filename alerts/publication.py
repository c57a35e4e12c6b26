"""What a rating run published, as its followers' mails tell it: who gets a mail, and what is
in each (docs/alerts.md). alerts/mailing.py sends them.

A run publishes its list's month and any months it revised on the way. Each follower whose
confirmed follows it touches gets one mail: the list (if they follow it), each player they
follow with each new rating, its games and the events it rated, and the members of each club
they follow.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from django.template.loader import get_template
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe

from alerts.models import Follow
from chess.names import full_name
from chess.numbers import signed
from common.mail import site_url
from grading.models import PlayerRating, RatingRun
from grading.run.breakdown import games_shown, lines
from grading.run.runs import revision_runs
from players.models import Player

RATED_TEXT = SimpleLazyObject(lambda: get_template("alerts/mail/rated.txt"))
RATED_HTML = SimpleLazyObject(lambda: get_template("alerts/mail/rated.html"))


@dataclass
class Line:
    """A player's new rating in a month the run published."""

    month: str
    rating: int | None
    prior: int | None
    games: int

    @property
    def change(self):
        return None if self.rating is None or self.prior is None else self.rating - self.prior

    @property
    def signed_change(self) -> str:
        return "" if self.change is None else signed(self.change)


@dataclass
class Rated:
    """A player the run rated, as a mail shows them: their part of a mail, in text and in HTML,
    is written once, whatever the number of followers it goes to."""

    code: str
    name: str
    url: str
    lines: list[Line] = field(default_factory=list)
    events: list[str] = field(default_factory=list)

    @cached_property
    def text(self) -> str:
        return RATED_TEXT.render({"player": self})

    @cached_property
    def html(self) -> str:
        return mark_safe(RATED_HTML.render({"player": self}))  # noqa: S308 (a template's output, escaped)


@dataclass
class Publication:
    """What a run published, and which of it each follower follows."""

    run: RatingRun
    months: list[str]
    list_name: str
    list_url: str
    players: dict  # player id: Rated
    by_follower: dict  # follower id: {"list": bool, "players": [ids], "clubs": {club name: [ids]}}

    @property
    def announced(self) -> list[tuple[str, str]]:
        """Each month published, oldest first, with "published" for the run's own month first
        published and "revised" for any other."""
        own, first = self.run.period.month, self.run.revision == 0
        return [(month, "published" if month == own and first else "revised") for month in sorted(self.months)]

    @property
    def subject(self) -> str:
        return f"{self.list_name} list: " + ", ".join(f"{month} {done}" for month, done in self.announced)


def publication_of(run: RatingRun, months: list[str]) -> Publication:
    """What ``run`` (with the months it published) means to each follower it concerns."""
    rating_list = run.period.rating_list
    runs = [run.pk, *revision_runs(run).values_list("pk", flat=True)]
    rated = PlayerRating.objects.filter(run_id__in=runs)
    by_follower = defaultdict(lambda: {"list": False, "players": [], "clubs": defaultdict(list)})
    # No ordering: the model's sorts by the follower's address, a join the mailing does not need.
    confirmed = Follow.objects.filter(confirmed_at__isnull=False).order_by()
    for follower_id in confirmed.filter(rating_list=rating_list).values_list("follower_id", flat=True):
        by_follower[follower_id]["list"] = True
    followed = confirmed.filter(player__in=rated.values("player_id")).values_list("follower_id", "player_id")
    wanted = set()
    for follower_id, player_id in followed:
        by_follower[follower_id]["players"].append(player_id)
        wanted.add(player_id)
    clubs = dict(confirmed.filter(club__isnull=False).values_list("club_id", "club__name").distinct())
    members = defaultdict(list)
    if clubs:
        in_clubs = Player.objects.filter(club_id__in=clubs, pk__in=rated.values("player_id"))
        for player_id, club_id in in_clubs.values_list("pk", "club_id"):
            members[club_id].append(player_id)
            wanted.add(player_id)
        for follower_id, club_id in confirmed.filter(club_id__in=members).values_list("follower_id", "club_id"):
            by_follower[follower_id]["clubs"][clubs[club_id]] = members[club_id]
    return Publication(
        run,
        months,
        rating_list.name,
        site_url(reverse("rating-list", args=[rating_list.code])),
        rated_players(rated, wanted),
        dict(by_follower),
    )


def rated_players(rated, wanted: set) -> dict:
    """Each wanted player's new ratings by month, with the games each rated (its breakdown, as
    the run rated them: a game FIDE's conditions left out is not there), and the events of
    those games, in the order they were played."""
    players = {
        pk: Rated(code, full_name(surname, forenames), site_url(reverse("player", args=[code])))
        for pk, code, surname, forenames in Player.objects.filter(pk__in=wanted).values_list(
            "pk", "code", "surname", "forenames"
        )
    }
    ratings = (
        rated.filter(player_id__in=wanted)
        .order_by("month")
        .only("player_id", "month", "rating", "prior_rating", "breakdown")
    )
    games_of = defaultdict(list)
    for rating in ratings:
        played = [line[0] for line in lines(rating)]
        players[rating.player_id].lines.append(Line(rating.month, rating.rating, rating.prior_rating, len(played)))
        games_of[rating.player_id] += played
    ids = {game for games in games_of.values() for game in games}
    shown = games_shown(ids) if ids else {}
    for player_id, games in games_of.items():
        # A game withdrawn since it was rated is in no event any more.
        for game in sorted((shown[pk] for pk in games if pk in shown), key=lambda game: (game.date, game.pk)):
            if game.event.name not in players[player_id].events:
                players[player_id].events.append(game.event.name)
    return players


def context(publication: Publication, follower_id: int) -> dict:
    """What one follower's mail shows: the players they follow, then each club's other members."""
    follows = publication.by_follower[follower_id]
    players = publication.players
    followed = set(follows["players"])
    clubs = [
        (name, [players[pk] for pk in members if pk not in followed])
        for name, members in sorted(follows["clubs"].items())
    ]
    return {
        "publication": publication,
        "players": [players[pk] for pk in follows["players"]],
        "clubs": [(name, members) for name, members in clubs if members],
    }
