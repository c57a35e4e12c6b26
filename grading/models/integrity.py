"""The integrity watch's findings (docs/integrity.md): a flag is one detector's finding, with its
evidence as the detector computed it, for rating officers to look at and clear or act on.
"""

from django.conf import settings
from django.db import models


class Flag(models.Model):
    class Kind(models.TextChoices):
        IMPROBABLE = "improbable", "improbable result"
        PAIRING = "pairing", "repeated pairing"
        SANDBAGGING = "sandbagging", "sandbagging"
        POOL = "pool", "closed pool"
        NEWCOMERS = "newcomers", "closed group of newcomers"
        EVENT = "event", "event"
        ARBITER = "arbiter", "arbiter"

    class State(models.TextChoices):
        OPEN = "open", "open"
        CLEARED = "cleared", "cleared"
        GONE = "gone", "no longer found"

    class FoundBy(models.TextChoices):
        # What a flag was last found by: a scan of a month reads everything its flags are based
        # on, a scan of one event only that event's players' games to its end.
        MONTH = "month", "a month's scan"
        EVENT = "event", "an event's scan"

    rating_list = models.ForeignKey("grading.RatingList", on_delete=models.CASCADE, related_name="flags")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    # What it is about, the same each time a scan finds it ("improbable:event 12:player 345"): a
    # flag found again is updated, and one cleared stays cleared.
    key = models.CharField(max_length=200)
    # The month of the latest game it concerns, as the review pages list it.
    month = models.CharField(max_length=7)
    summary = models.CharField(max_length=500)
    evidence = models.JSONField(default=dict)
    events = models.ManyToManyField("events.Event", related_name="flags", blank=True)
    players = models.ManyToManyField("players.Player", related_name="+", blank=True)
    found_at = models.DateTimeField()
    found_by = models.CharField(max_length=5, choices=FoundBy.choices, default=FoundBy.MONTH)
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    # When a scan that read everything the flag was based on no longer found it, and which scan
    # (the flag is kept, with its evidence as last found: its history).
    gone_at = models.DateTimeField(null=True, blank=True)
    gone_by = models.ForeignKey("grading.Scan", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    cleared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cleared_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["rating_list", "-month", "kind", "pk"]
        constraints = [models.UniqueConstraint(fields=["rating_list", "key"], name="one_flag_a_finding")]
        indexes = [models.Index(fields=["rating_list", "month", "state"])]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.summary}"

    @property
    def chart_id(self) -> str:
        """The id of the element that holds its chart's data on a page."""
        return f"flag-chart-{self.pk}"


class ThresholdChange(models.Model):
    """An officer's change of the chance at which a list's improbable results are flagged."""

    rating_list = models.ForeignKey("grading.RatingList", on_delete=models.CASCADE, related_name="threshold_changes")
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    before = models.FloatField()
    after = models.FloatField()
    reason = models.TextField()

    class Meta:
        ordering = ["rating_list", "-at", "-pk"]

    def __str__(self):
        return f"{self.rating_list}: 1 in {self.before_odds} to 1 in {self.after_odds}"

    @property
    def before_odds(self) -> str:
        return f"{round(1 / self.before):,}"

    @property
    def after_odds(self) -> str:
        return f"{round(1 / self.after):,}"


class Scan(models.Model):
    """A scan of a list's month by every detector: when, over what, and what it found."""

    rating_list = models.ForeignKey("grading.RatingList", on_delete=models.CASCADE, related_name="scans")
    month = models.CharField(max_length=7)
    at = models.DateTimeField()
    seconds = models.FloatField(default=0)
    games = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(default=0)
    flags = models.PositiveIntegerField(default=0)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # The chance at which a score was flagged, and the players' scores in the month's events it
    # read: by chance alone, at most about scores x threshold improbable results.
    threshold = models.FloatField(default=1e-4)
    scores = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["rating_list", "-month", "-at"]
        get_latest_by = "at"

    def __str__(self):
        return f"{self.rating_list} {self.month} scanned at {self.at:%Y-%m-%d %H:%M}"

    @property
    def chance_flags(self) -> float:
        return self.scores * self.threshold
