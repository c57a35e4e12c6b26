"""Live ratings: each list's provisional ratings from the games approved since its latest
published list. Kept apart from the published tables (PlayerRating, ListEntry): a live rating
is never part of an Original or Revised list, and the next computation replaces them all.
"""

from django.db import models

from grading.models.lists import RatingPeriod
from grading.models.ratings import ListLine, RatingState


class LiveList(models.Model):
    """A list's live computation: when it ran, what it started from, what it rated."""

    rating_list = models.OneToOneField("grading.RatingList", on_delete=models.CASCADE, related_name="live")
    # When the computation now stored began reading: it saw every approval committed before.
    started_at = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    seconds = models.FloatField(default=0)
    based_on = models.ForeignKey(
        RatingPeriod,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The list it follows.",
    )
    based_on_revision = models.PositiveSmallIntegerField(null=True, blank=True)
    first_month = models.CharField(max_length=7, blank=True)
    last_month = models.CharField(max_length=7, blank=True)
    games = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(default=0)
    players_rated = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True, help_text="What was held out of the calculation, or why it failed.")
    failed = models.BooleanField(default=False)
    # SHA-256 of the live ratings stored: the lists that read this one are asked to compute
    # again only when it changes.
    digest = models.CharField(max_length=64, blank=True)

    class Meta:
        verbose_name = "live list"

    def __str__(self):
        return f"live {self.rating_list.code}"

    @property
    def months(self) -> str:
        if not self.first_month:
            return ""
        return self.first_month if self.first_month == self.last_month else f"{self.first_month} to {self.last_month}"


class LiveRating(RatingState):
    """A player's live state after one unpublished month, with how it was reached."""

    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="live_ratings", db_index=False, db_constraint=False
    )
    rating_list = models.ForeignKey(
        "grading.RatingList", on_delete=models.CASCADE, related_name="live_ratings", db_index=False, db_constraint=False
    )
    month = models.CharField(max_length=7)
    # What the month is rated by: a live month usually has no RatingPeriod row yet.
    rule_set = models.CharField(max_length=40)
    adjustment_a = models.DecimalField(max_digits=8, decimal_places=4, default=0)
    adjustment_b = models.DecimalField(max_digits=8, decimal_places=6, default=0)
    # Of the row's values: a computation rewrites only the rows whose digest changed.
    digest = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rating_list", "player", "month"], name="one_live_rating")]

    def __str__(self):
        return f"live {self.player} {self.rating_list.code} {self.month}: {self.rating}"

    @property
    def period(self) -> RatingPeriod:
        """The month as the calculation reads a period: its rule set and adjustment (not saved)."""
        return RatingPeriod(
            rating_list_id=self.rating_list_id,
            month=self.month,
            rule_set=self.rule_set,
            adjustment_a=self.adjustment_a,
            adjustment_b=self.adjustment_b,
        )


class LiveEntry(ListLine):
    """A line of a list's live list: every player active on it if it were published now."""

    rating_list = models.ForeignKey(
        "grading.RatingList", on_delete=models.CASCADE, related_name="live_entries", db_index=False, db_constraint=False
    )
    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="live_entries", db_index=False, db_constraint=False
    )
    published_rating = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The rating on the latest published list, if any."
    )
    live_games = models.PositiveIntegerField(default=0, help_text="Games approved since the latest published list.")
    digest = models.BigIntegerField(default=0)  # of the line's values (see LiveRating)

    class Meta:
        verbose_name_plural = "live entries"
        constraints = [models.UniqueConstraint(fields=["rating_list", "player"], name="one_live_entry")]
        indexes = [
            models.Index(fields=["rating_list", "-rating"], name="live_by_rating"),
            models.Index(fields=["rating_list", "club"], name="live_by_club"),
        ]

    def __str__(self):
        return f"live {self.player} {self.rating}"

    @property
    def change(self):
        return live_change(self.rating, self.published_rating)


def live_change(rating: int, published_rating: int | None) -> int | None:
    """A live rating's change from the published one (None for a player not on the list)."""
    return None if published_rating is None else rating - published_rating


class LiveGameNotRated(models.Model):
    """A game the live computation left out, FIDE's conditions on its event not being met
    (docs/rules.md part 4), and why: what the month's run will leave out as things stand. The
    next computation of the list replaces them all, as it does its live ratings."""

    rating_list = models.ForeignKey("grading.RatingList", on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("events.Game", on_delete=models.CASCADE, related_name="live_not_rated")
    reason = models.CharField(max_length=300)

    class Meta:
        verbose_name = "game the live ratings leave out"
        verbose_name_plural = "games the live ratings leave out"
        constraints = [models.UniqueConstraint(fields=["game"], name="live_game_not_rated_once")]

    def __str__(self):
        return f"game {self.game_id}: {self.reason}"
