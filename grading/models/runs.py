"""The rating runs, each with what it rated, and the games a run left out with why."""

from django.conf import settings
from django.db import models

from grading.models.lists import RatingPeriod


class RatingRun(models.Model):
    """The audit row of one calculation: who started it, when, what it counted, how it ended."""

    class Outcome(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        SUCCEEDED = "succeeded", "succeeded"
        UNCHANGED = "unchanged", "unchanged: nothing to publish"
        FAILED = "failed", "failed"
        REFUSED = "refused", "refused"

    IMPORT = "import"  # the trigger of a take-on: its ratings come from the previous system

    period = models.ForeignKey(RatingPeriod, on_delete=models.PROTECT, related_name="runs")
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    trigger = models.CharField(
        max_length=200, help_text="What started it: schedule, admin, command, import, a late change to an event."
    )
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.RUNNING)
    revision = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The revision it published: 0 the original list."
    )
    task_id = models.CharField(max_length=50, blank=True)
    progress = models.CharField(max_length=200, blank=True)
    games = models.PositiveIntegerField(default=0)
    players_rated = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    # What a publication rated: a run of the same period with the same digest would publish the
    # same list, and an event leaving the rated set marks the periods it was rated in.
    result_digest = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of what the run published: its ratings and the list."
    )
    events = models.ManyToManyField("events.Event", blank=True, related_name="rating_runs")
    # False between a run's commit and its follow-ups (the next run, the lists that read it): a
    # worker killed in between leaves them to the run's delivery again or the worker's recovery.
    follow_ups_done = models.BooleanField(default=True)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self):
        return f"{self.period} run at {self.started_at:%Y-%m-%d %H:%M}: {self.outcome}"


class GameNotRated(models.Model):
    """A game a publication did not rate, FIDE's conditions on its event not being met
    (docs/rules.md part 4), and why: written by the run that published, read at its revision."""

    run = models.ForeignKey(RatingRun, on_delete=models.CASCADE, related_name="games_not_rated")
    game = models.ForeignKey("events.Game", on_delete=models.CASCADE, related_name="not_rated")
    reason = models.CharField(max_length=300)

    class Meta:
        ordering = ["run", "game"]
        verbose_name_plural = "games not rated"
        constraints = [models.UniqueConstraint(fields=["run", "game"], name="game_not_rated_once_a_run")]

    def __str__(self):
        return f"game {self.game_id}: {self.reason}"


class PlayerMerge(models.Model):
    """The history of a merge of duplicate player records (grading/merging.py): which record went
    into which, who merged them and when, and what moved. Written in the merge's transaction."""

    kept = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    merged = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    merged_at = models.DateTimeField()
    games = models.PositiveIntegerField(help_text="Games moved to the record kept.")
    ratings = models.PositiveIntegerField(help_text="Rating rows moved to the record kept.")

    class Meta:
        ordering = ["-merged_at", "pk"]

    def __str__(self):
        return f"{self.merged.code} merged into {self.kept.code}"
