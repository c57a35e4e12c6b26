"""Mailing the followers of what a rating run published: one mail per follower per run, however
many of the players, clubs and lists they follow it rated (docs/alerts.md).

A run publishes its list's month and any months it revised on the way. Each follower whose
confirmed follows it touches gets one mail: the list (if they follow it), each player they
follow with each new rating and the events it rated, and the members of each club they follow.
Mails go out in batches over one SMTP connection; each batch's deliveries are recorded as it is
sent, so that a mailing cut off (a worker killed, the SMTP server gone) and started again mails
only those it had not reached.
"""

import datetime
import logging
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from django.core.mail import get_connection
from django.db.models import Q
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe

from alerts.mail import Letter, site_url
from alerts.models import Delivery, Follow, Follower, Mailing
from chess.months import Month
from chess.numbers import signed
from events.models import Game
from grading.models import PlayerRating, RatingRun
from grading.run.runs import republished_months
from players.models import Player

logger = logging.getLogger(__name__)

RATED_TEXT = SimpleLazyObject(lambda: get_template("alerts/mail/rated.txt"))
RATED_HTML = SimpleLazyObject(lambda: get_template("alerts/mail/rated.html"))
BATCH = 500  # mails a batch: sent over the connection, then their deliveries recorded
CLAIM_EXPIRES = 3600  # seconds: a claim older than this is of a task that died


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
    confirmed = Follow.objects.filter(confirmed_at__isnull=False)
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
    events = (
        Game.objects.rated().filter(event__rating_runs__in=runs).filter(Q(white_id__in=wanted) | Q(black_id__in=wanted))
    )
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


def claim(key: str, subject: str) -> Mailing | None:
    """The mailing of ``key``, claimed for this task; None if it is finished, or another task at
    work on it claimed it within CLAIM_EXPIRES."""
    now = timezone.now()
    mailing, _ = Mailing.objects.get_or_create(key=key, defaults={"subject": subject[:200], "created_at": now})
    stale = now - datetime.timedelta(seconds=CLAIM_EXPIRES)
    claimed = (
        Mailing.objects.filter(pk=mailing.pk, finished_at=None)
        .filter(Q(claimed_at=None) | Q(claimed_at__lt=stale))
        .update(claimed_at=now)
    )
    return mailing if claimed else None


def mail_publication(run: RatingRun, months: list[str]) -> Mailing | None:
    """Mail every follower ``run``'s publication concerns, once: None if another task has it."""
    publication = publication_of(run, months)
    mailing = claim(f"run:{run.pk}", publication.subject)
    if mailing is None:
        return None
    started = time.monotonic()
    done = set(Delivery.objects.filter(mailing=mailing).values_list("follower_id", flat=True))
    waiting = [pk for pk in publication.by_follower if pk not in done]
    letter = Letter("publication")
    sent = 0
    try:
        with get_connection() as connection:
            for start in range(0, len(waiting), BATCH):
                batch = Follower.objects.filter(pk__in=waiting[start : start + BATCH])
                messages = [letter.to(who, mailing.subject, context(publication, who.pk)) for who in batch]
                sent += connection.send_messages(messages) or 0
                now = timezone.now()
                Delivery.objects.bulk_create(
                    [Delivery(mailing=mailing, follower=who, sent_at=now) for who in batch], ignore_conflicts=True
                )
    except BaseException:
        # Cut off (the mail server gone): released at once, for the task's retry or beat's
        # mail_missed_publications to go on from the last batch sent.
        Mailing.objects.filter(pk=mailing.pk).update(claimed_at=None)
        raise
    Mailing.objects.filter(pk=mailing.pk).update(
        finished_at=timezone.now(),
        recipients=len(publication.by_follower),
        sent=Delivery.objects.filter(mailing=mailing).count(),
        seconds=time.monotonic() - started,
    )
    mailing.refresh_from_db()
    if mailing.recipients:
        logger.info("mailing %s: %s mails sent in %.1f s", mailing.key, sent, mailing.seconds)
    return mailing


MISSED_WITHIN = datetime.timedelta(days=2)  # older publications are news no longer


def missed_publications():
    """(run, months published) of the runs of the last two days whose mailing was never started
    (its message lost with the broker) or was cut off (its claim expired unfinished)."""
    now = timezone.now()
    runs = (
        RatingRun.objects.filter(finished_at__gte=now - MISSED_WITHIN, follow_ups_done=True)
        .filter(outcome=RatingRun.Outcome.SUCCEEDED)
        .exclude(trigger__startswith="revision from run")
        .exclude(trigger=RatingRun.IMPORT)  # a take-on: the previous system's ratings, no news
        .select_related("period__rating_list")
    )
    stale = now - datetime.timedelta(seconds=CLAIM_EXPIRES)
    taken = Mailing.objects.filter(key__startswith="run:").filter(
        Q(finished_at__isnull=False) | Q(claimed_at__gte=stale)
    )
    taken = set(taken.values_list("key", flat=True))
    for run in runs:
        if f"run:{run.pk}" not in taken and (months := republished_months(run)):
            yield run, months


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
