"""What a rating run published, as its followers' mails tell it: who gets a mail, and what is
in each (docs/alerts.md). alerts/mailing.py sends them.

A run publishes its list's month and any months it revised on the way. Each follower whose
confirmed follows it touches gets one mail: the list (if they follow it), each player they
follow with each new rating, its games and the events it rated, and the members of each club
they follow.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import Q
from django.template.loader import get_template
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe

from alerts.mail import site_url
from alerts.models import Follow
from chess.months import Month
from chess.numbers import signed
from events.models import Game
from grading.models import PlayerRating, RatingRun
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
    type: str

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
    runs = [run.pk, *RatingRun.objects.filter(trigger=f"revision from run {run.pk}").values_list("pk", flat=True)]
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
        rated_players(rated, wanted, runs),
        dict(by_follower),
    )


def rated_players(rated, wanted: set, runs: list) -> dict:
    """Each wanted player's new ratings by month, with their games in it, and the events of
    theirs the run rated."""
    players = {
        pk: Rated(code, f"{surname}, {forenames}" if forenames else surname, site_url(reverse("player", args=[code])))
        for pk, code, surname, forenames in Player.objects.filter(pk__in=wanted).values_list(
            "pk", "code", "surname", "forenames"
        )
    }
    games = Counter()
    # The events the runs rated, each once: an event rated by the run and by a revision run of
    # it (games in two months) is one event, and its games are counted once.
    rated_events = RatingRun.events.through.objects.filter(ratingrun_id__in=runs).values("event_id")
    events = Game.objects.rated().filter(event__in=rated_events).filter(Q(white_id__in=wanted) | Q(black_id__in=wanted))
    played = events.order_by("date", "event__name", "pk").values_list(
        "pk", "white_id", "black_id", "date", "event__name"
    )
    for _, white, black, day, name in played:
        for player_id in (white, black):
            if player_id in players:
                games[player_id, str(Month.of(day))] += 1
                if name not in players[player_id].events:
                    players[player_id].events.append(name)
    fields = ("player_id", "month", "rating", "prior_rating", "type")
    for player_id, month, rating, prior, kind in (
        rated.filter(player_id__in=wanted).order_by("month").values_list(*fields)
    ):
        players[player_id].lines.append(Line(month, rating, prior, games[player_id, month], kind))
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
        "follows_list": follows["list"],
        "players": [players[pk] for pk in follows["players"]],
        "clubs": [(name, members) for name, members in clubs if members],
    }
