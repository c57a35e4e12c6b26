"""What a rating run published, as its followers' mails tell it: who gets a mail, and what is
in each (docs/alerts.md). alerts/mailing.py sends them.

A run publishes its list's month and any months it revised on the way. Each follower whose
confirmed follows it touches gets one mail: the list (if they follow it), each player they
follow with each new rating, its games and the events it rated, and the members of each club
they follow. Of a month revised, only the ratings the revision changed are news: each is shown
as it was and as it is, from the rows the revision superseded (kept, never recomputed); a
follower whose followed ratings it left all as they were gets no mail of it.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain

from django.db.models import Max, Q
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe

from alerts.models import Follow
from chess.numbers import signed
from common.outgoing_mail import site_url
from grading.models import PlayerRating, RatingRun, rating_text
from grading.run.breakdown import games_shown, lines
from grading.run.runs import revision_runs
from grading.selectors.calculations import adjustment_of
from players.models import Player, shown_name

RATED_TEXT = SimpleLazyObject(lambda: get_template("alerts/mail/rated.txt"))
RATED_HTML = SimpleLazyObject(lambda: get_template("alerts/mail/rated.html"))


STATE = ("rating", "type", "games")  # what a revision changes of a rating, as a mail tells it
NOT_RATED = "not rated"


@dataclass
class Line:
    """A player's new rating in a month the run published; of a month revised, with the rating
    it superseded (``was``: its rating and games, None where the player was not rated in it)."""

    month: str
    rating: int | None
    prior: int | None
    games: int
    type: str = ""
    revised: bool = False
    was: tuple | None = None  # the rating superseded: (rating, type, the month's games)
    adjusted_from: int | None = None  # the rating before FIDE's adjustment at the month's start

    @property
    def change(self):
        """From the rating published before, as the player page counts it: a month that began
        with FIDE's adjustment counts from the rating before it (``adjustment`` says how)."""
        before = self.prior if self.adjusted_from is None else self.adjusted_from
        return None if self.rating is None or before is None else self.rating - before

    @property
    def adjustment(self):
        return adjustment_of(self.adjusted_from)

    @property
    def signed_change(self) -> str:
        return "" if self.change is None else signed(self.change)

    @property
    def text(self) -> str:
        """The rating as lists print it; "not rated" where a revision took the month's away."""
        return NOT_RATED if self.type == "" else rating_text(self.rating, self.type)

    @property
    def was_text(self) -> str:
        return NOT_RATED if self.was is None else rating_text(self.was[0], self.was[1])

    @property
    def games_before(self) -> int:
        return 0 if self.was is None else self.was[2]


def as_it_was(revision: "Revision", player_id: int, games: dict) -> tuple | None:
    """The rating a revision superseded, as a line shows it: (rating, type, the month's games)."""
    was = revision.changed[player_id]
    return None if was is None else (was[0], was[1], games[was[3]])


@dataclass
class Revision:
    """What a run's publication of a month already published changed: each player whose
    rating, type or games differ from the row superseded, with that row's (rating, type, games,
    pk) (None: not rated in the month before), and the players it left as they were."""

    month: str
    changed: dict
    unchanged: set
    withdrawn: set  # of those changed, the players with no rating in the month now


def revision_of(run: RatingRun) -> Revision:
    """The revision ``run`` published, against the rows it superseded: publishing marks them
    superseded at the time it publishes the new ones (grading.run.publishing.publish)."""
    rows = PlayerRating.objects.filter(run=run).order_by()
    published = rows.values_list("published_at", flat=True).first() or emptied_at(run)
    new = {pk: tuple(state) for pk, *state in rows.values_list("player_id", *STATE)}
    superseded = PlayerRating.objects.filter(period_id=run.period_id, superseded_at=published).order_by()
    old = {} if published is None else {row[0]: row[1:] for row in superseded.values_list("player_id", *STATE, "pk")}
    changed = {pk: old.get(pk) for pk, state in new.items() if pk not in old or state != old[pk][:3]}
    withdrawn = {pk for pk in old if pk not in new}
    changed |= {pk: old[pk] for pk in withdrawn}
    return Revision(run.period.month, changed, set(new) - set(changed), withdrawn)


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
    """What a run published, and which of it each follower follows: ``players`` are those with
    news (a month first published, or a rating a revision changed), ``by_follower`` the
    followers with news of theirs in it."""

    run: RatingRun
    months: list[str]
    list_name: str
    list_url: str
    players: dict  # player id: Rated
    by_follower: dict  # follower id: {"list": bool, "players": [ids], "clubs": {club name: [ids]}}
    revisions: dict = field(default_factory=dict)  # month revised: Revision

    @property
    def announced(self) -> list[tuple[str, str, int | None]]:
        """Each month published, oldest first: "published" for a month first published, and
        "revised" for any other, with the number of ratings its revision changed."""
        return [
            (month, "revised", len(self.revisions[month].changed))
            if month in self.revisions
            else (month, "published", None)
            for month in sorted(self.months)
        ]

    @property
    def subject(self) -> str:
        return f"{self.list_name} list: " + ", ".join(f"{month} {done}" for month, done, _ in self.announced)

    @property
    def news_of_the_list(self) -> bool:
        """Whether the list's followers have news: a month first published, or a rating changed."""
        return any(done == "published" or changed for _, done, changed in self.announced)


def publication_of(run: RatingRun, months: list[str]) -> Publication:
    """What ``run`` (with the months it published) means to each follower it concerns."""
    rating_list = run.period.rating_list
    runs = [run, *revision_runs(run).filter(revision__isnull=False).select_related("period")]
    revisions = {each.period.month: revision_of(each) for each in runs if each.revision}
    rated = PlayerRating.objects.filter(run_id__in=[each.pk for each in runs])
    withdrawn = {pk for revision in revisions.values() for pk in revision.withdrawn}
    touched = Q(player__in=rated.values("player_id")) | Q(player__in=withdrawn)
    by_follower = defaultdict(lambda: {"list": False, "players": [], "clubs": defaultdict(list)})
    # The followers are those of the publication's time: a follow confirmed since (while its
    # mailing waited for the mail server, say) is not told of it. No ordering: the model's sorts
    # by the follower's address, a join the mailing does not need.
    confirmed = Follow.objects.filter(confirmed_at__lte=run.finished_at or timezone.now()).order_by()
    for follower_id in confirmed.filter(rating_list=rating_list).values_list("follower_id", flat=True):
        by_follower[follower_id]["list"] = True
    wanted = set()
    for follower_id, player_id in confirmed.filter(touched).values_list("follower_id", "player_id"):
        by_follower[follower_id]["players"].append(player_id)
        wanted.add(player_id)
    clubs = dict(confirmed.filter(club__isnull=False).values_list("club_id", "club__name").distinct())
    members = defaultdict(list)
    if clubs:
        in_clubs = Player.objects.filter(club_id__in=clubs).filter(
            Q(pk__in=rated.values("player_id")) | Q(pk__in=withdrawn)
        )
        for player_id, club_id in in_clubs.values_list("pk", "club_id"):
            members[club_id].append(player_id)
            wanted.add(player_id)
        for follower_id, club_id in confirmed.filter(club_id__in=members).values_list("follower_id", "club_id"):
            by_follower[follower_id]["clubs"][clubs[club_id]] = members[club_id]
    publication = Publication(
        run,
        months,
        rating_list.name,
        site_url(reverse("rating-list", args=[rating_list.code])),
        rated_players(rated, wanted, revisions),
        {},
        revisions,
    )
    publication.by_follower = {pk: follows for pk, follows in by_follower.items() if has_news(publication, follows)}
    return publication


def has_news(publication: Publication, follows: dict) -> bool:
    """Whether a follower has news in the publication: a revision that left every rating they
    follow as it was is none of theirs."""
    if follows["list"] and publication.news_of_the_list:
        return True
    followed = chain(follows["players"], *follows["clubs"].values())
    return any(pk in publication.players for pk in followed)


def rated_players(rated, wanted: set, revisions: dict) -> dict:
    """Each wanted player with news: their new ratings by month (of a month revised, only one
    the revision changed, with the rating it superseded), with the games each rated (its
    breakdown, as the run rated them: a game FIDE's conditions left out is not there), and the
    events of those games, in the order they were played."""
    players = {
        pk: Rated(code, shown_name(surname, forenames, restricted), site_url(reverse("player", args=[code])))
        for pk, code, surname, forenames, restricted in Player.objects.filter(pk__in=wanted).values_list(
            "pk", "code", "surname", "forenames", "name_restricted"
        )
    }
    ratings = (
        rated.filter(player_id__in=wanted)
        .order_by("month")
        .only("player_id", "month", "rating", "type", "prior_rating", "adjusted_from", "breakdown")
    )
    before = superseded_games(revisions, wanted)
    games_of = defaultdict(list)
    for rating in ratings:
        revision = revisions.get(rating.month)
        if revision is not None and rating.player_id not in revision.changed:
            continue  # as it was: no news
        played = [line[0] for line in lines(rating)]
        was = None if revision is None else as_it_was(revision, rating.player_id, before)
        line = Line(
            *(rating.month, rating.rating, rating.prior_rating, len(played), rating.type, revision is not None, was),
            adjusted_from=rating.adjusted_from,
        )
        players[rating.player_id].lines.append(line)
        games_of[rating.player_id] += played
    for revision in revisions.values():
        for pk in revision.withdrawn & wanted:
            players[pk].lines.append(Line(revision.month, None, None, 0, "", True, as_it_was(revision, pk, before)))
    ids = {game for games in games_of.values() for game in games}
    shown = games_shown(ids) if ids else {}
    for player_id, games in games_of.items():
        # A game withdrawn since it was rated is in no event any more.
        for game in sorted((shown[pk] for pk in games if pk in shown), key=lambda game: (game.date, game.pk)):
            if game.event.name not in players[player_id].events:
                players[player_id].events.append(game.event.name)
    for player in players.values():
        player.lines.sort(key=lambda line: line.month)
    return {pk: player for pk, player in players.items() if player.lines}


def emptied_at(run: RatingRun):
    """When ``run`` published its month with no rating in it (every game of it withdrawn): the
    latest time the month's rows were superseded while it was at work (the list's lock lets no
    other run publish the month then); None if none were."""
    rows = PlayerRating.objects.filter(period_id=run.period_id, superseded_at__gte=run.started_at)
    if run.finished_at is not None:
        rows = rows.filter(superseded_at__lte=run.finished_at)
    return rows.aggregate(latest=Max("superseded_at"))["latest"]


def superseded_games(revisions: dict, wanted: set) -> dict:
    """The month's games of each superseded rating of a wanted player a revision changed, from
    its own breakdown (as the run before rated them): rating pk: games."""
    pks = [
        was[3]
        for revision in revisions.values()
        for pk, was in revision.changed.items()
        if was is not None and pk in wanted
    ]
    rows = PlayerRating.objects.filter(pk__in=pks).order_by().only("breakdown")
    return {row.pk: len(lines(row)) for row in rows}


def context(publication: Publication, follower_id: int) -> dict:
    """What one follower's mail shows: the players they follow with news, then each club's other
    members with news, and how many of those they follow a revision left as they were."""
    follows = publication.by_follower[follower_id]
    players = publication.players
    followed = set(follows["players"])
    clubs = [
        (name, [players[pk] for pk in members if pk not in followed and pk in players])
        for name, members in sorted(follows["clubs"].items())
    ]
    everyone = followed.union(*follows["clubs"].values())
    return {
        "publication": publication,
        "players": [players[pk] for pk in follows["players"] if pk in players],
        "clubs": [(name, members) for name, members in clubs if members],
        "unchanged": len(everyone - players.keys()),
    }
