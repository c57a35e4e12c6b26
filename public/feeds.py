"""Atom feeds (Django's syndication framework): every publication of a list, the federation's,
a club's (how many of its players each list holds) and a player's (each new rating)."""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.db.models import Count
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from grading.models import PlayerRating, RatingRun, rating_text
from grading.selectors.history import PublishedList, entries_of
from public.players import the_club, the_player

FEED_SIZE = 50


def publications():
    """The latest publications, newest first: each original list and each revision."""
    runs = RatingRun.objects.filter(outcome=RatingRun.Outcome.SUCCEEDED, revision__isnull=False)
    return runs.select_related("period__rating_list").order_by("-finished_at", "-pk")[:FEED_SIZE]


def entry_id(feed_path: str, entry: str, published) -> str:
    """An entry's Atom id: a tag URI (RFC 4151) of the site's host (SITE_URL, whatever host a
    reader asked) and the day the entry was published, naming the feed and the entry, so that
    it never changes and the same publication in two feeds (the federation's, a club's) is two
    entries."""
    host = urlsplit(settings.SITE_URL).hostname
    return f"tag:{host},{published:%Y-%m-%d}:{feed_path}#{entry}"


def publication_title(run) -> str:
    edition = "the list" if run.revision == 0 else f"revision {run.revision}"
    return f"{run.period.rating_list.name} {run.period.month}: {edition}"


class PublicationsFeed(Feed):
    feed_type = Atom1Feed
    title = "Federation ratings: lists published"
    subtitle = "Every rating list as it is published, and every revision."

    def link(self):
        return reverse("lists")

    def items(self):
        return publications()

    def item_title(self, run):
        return publication_title(run)

    def item_description(self, run):
        return f"{run.players_rated} players rated from {run.games} games."

    def item_link(self, run):
        # The edition this publication made, whose address never shows another.
        return reverse("rating-list-edition", args=[run.period.rating_list.code, run.period.month, run.revision])

    def item_guid(self, run):
        return entry_id(reverse("publications-feed"), f"publication-{run.pk}", run.finished_at)

    def item_pubdate(self, run):
        return run.finished_at

    def item_updateddate(self, run):
        return run.finished_at


class ClubFeed(PublicationsFeed):
    def get_object(self, request, code):
        return the_club(code)

    def title(self, club):
        return f"{club.name}: lists published"

    def subtitle(self, club):
        return f"Every rating list as it is published, with how many {club.name} players it holds."

    def link(self, club):
        return reverse("club", args=[club.code])

    def items(self, club):
        # A feed object serves every request: what an item needs of the club goes on the item.
        members = list(club.players.filter(merged_into=None).values_list("pk", flat=True))
        runs = list(publications())
        counts = {}
        if members and runs:  # every publication's count in one query
            published = [PublishedList(run.period, run.revision) for run in runs]
            rows = entries_of(published, members).values("period_id", "revision").annotate(players=Count("pk"))
            counts = {(row["period_id"], row["revision"]): row["players"] for row in rows}
        for run in runs:
            run.club = club
            run.club_players = counts.get((run.period_id, run.revision), 0)
        return runs

    def item_description(self, run):
        count = run.club_players
        return f"{count} {run.club.name} player{'s' if count != 1 else ''} on the list."

    def item_link(self, run):
        return super().item_link(run) + f"?club={run.club.code}"

    def item_guid(self, run):
        return entry_id(reverse("club-feed", args=[run.club.code]), f"publication-{run.pk}", run.finished_at)


class PlayerFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, code):
        return the_player(code)

    def title(self, player):
        return f"{player.name}: new ratings"

    def link(self, player):
        return reverse("player", args=[player.code])

    def subtitle(self, player):
        return f"Each new rating of {player.name}, as its list is published."

    def items(self, player):
        rows = PlayerRating.objects.filter(player=player, superseded_at=None).exclude(published_at=None)
        rows = list(rows.select_related("rating_list").order_by("-published_at", "-pk")[:FEED_SIZE])
        for row in rows:
            row.player_code = player.code
        return rows

    def item_title(self, row):
        return f"{row.rating_list.name} {row.month}: {rating_text(row.rating, row.type) if row.rating else 'pending'}"

    def item_description(self, row):
        prior = f", from {row.prior_rating}" if row.prior_rating else ""
        return f"{row.get_method_display()}{prior}; {row.games} games in all."

    def item_link(self, row):
        return reverse("rating-calculation", args=[row.player_code, row.rating_list.code, row.month])

    def item_guid(self, row):
        return entry_id(reverse("player-feed", args=[row.player_code]), f"rating-{row.pk}", row.published_at)

    def item_pubdate(self, row):
        return row.published_at

    def item_updateddate(self, row):
        return row.published_at  # a rating once published never changes: a revision is a new one
