"""The rating officers' laboratory: rule variants to try on real history (docs/laboratory.md)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from grading.engine import RULE_SETS, EngineInputError, RuleSet
from grading.engine.variants import BASE_NAMES, variant
from grading.models import RULE_SET_CHOICES, month_validator

BASE_CHOICES = [(name, label) for name, label in RULE_SET_CHOICES if name in BASE_NAMES]


class RuleVariant(models.Model):
    """A rule set with some of its parameters changed (docs/rules.md section 15): what a
    simulation re-rates history under. Stored as its base and its overrides, checked by the
    engine's own reading of a variant."""

    name = models.SlugField(max_length=60, unique=True, help_text="What simulations and the command call it.")
    base = models.CharField(max_length=40, choices=BASE_CHOICES, help_text="The rule set it changes.")
    overrides = models.JSONField(
        default=dict,
        blank=True,
        help_text='The parameters it changes, as JSON: {"floors": true, "activity_window_months": 48}.',
    )
    description = models.TextField(blank=True, help_text="What it is for: the rule change it tries.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    @property
    def spec(self) -> dict:
        """The variant as the engine and the rate-file read it."""
        return {"base": self.base, **(self.overrides if isinstance(self.overrides, dict) else {})}

    @property
    def rules(self) -> RuleSet:
        return variant(self.spec)

    def clean(self):
        if self.name in RULE_SETS:  # --rules NAME must mean one thing
            raise ValidationError({"name": f"{self.name} is a rule set's name: give the variant its own."})
        if not isinstance(self.overrides, dict):
            raise ValidationError({"overrides": "Give an object of parameters and values, {} for none."})
        if "base" in self.overrides:
            raise ValidationError({"overrides": "The base is the field above, not one of the overrides."})
        try:
            variant(self.spec)
        except EngineInputError as error:
            where = error.field.removeprefix("rules").removeprefix(".")  # "rules" alone: several parameters
            raise ValidationError({"overrides": f"{where}: {error.message}" if where else error.message}) from None


class Simulation(models.Model):
    """A span of months of one list rated again under other rules, from the states published
    before it and the games as stored now, in tables of its own: published lists, runs and
    live ratings are never touched (docs/laboratory.md)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    rating_list = models.ForeignKey("grading.RatingList", on_delete=models.PROTECT, related_name="simulations")
    variant = models.ForeignKey(RuleVariant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    rules = models.JSONField(help_text="The rules it rates by, as run: a rule set's name or a variant.")
    rules_name = models.CharField(max_length=200)
    first_month = models.CharField(max_length=7, validators=[month_validator])
    # FIDE's one-off adjustment of March 2024 at the start of the first month (docs/rules.md
    # section 18): what a change to FIDE's 2024 rules would carry, tried with and without.
    fide_adjustment = models.BooleanField(default=False)
    last_month = models.CharField(max_length=7, validators=[month_validator])
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.CharField(max_length=200, blank=True)
    message = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True)
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.rating_list.code} {self.first_month} to {self.last_month} under {self.rules_name}"


class SimulatedRating(models.Model):
    """A player's rating in one month of a simulation (a row per player and month rated)."""

    simulation = models.ForeignKey(Simulation, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey("players.Player", on_delete=models.DO_NOTHING, db_constraint=False, related_name="+")
    month = models.CharField(max_length=7)
    rating = models.PositiveSmallIntegerField(null=True)
    type = models.CharField(max_length=7)
    category = models.CharField(max_length=8)
    method = models.CharField(max_length=6)

    class Meta:
        indexes = [models.Index(fields=["simulation", "month"], name="simulated_by_month")]

    def __str__(self):
        return f"{self.player_id} {self.month}: {self.rating}"


class SimulatedPlayer(models.Model):
    """A player with a rating in the span, at its end: the published rating against the one
    the simulation gives (their latest in the span, or before it)."""

    simulation = models.ForeignKey(Simulation, on_delete=models.CASCADE, related_name="players")
    player = models.ForeignKey("players.Player", on_delete=models.DO_NOTHING, db_constraint=False, related_name="+")
    published_rating = models.PositiveSmallIntegerField(null=True)
    published_type = models.CharField(max_length=7, blank=True)
    simulated_rating = models.PositiveSmallIntegerField(null=True)
    simulated_type = models.CharField(max_length=7, blank=True)
    difference = models.IntegerField(null=True, help_text="Simulated less published, where both are ratings.")
    category = models.CharField(max_length=8, blank=True, help_text="Their category in their last simulated month.")
    junior = models.BooleanField(default=False, help_text="Under 18 at the end of the span.")

    class Meta:
        indexes = [models.Index(fields=["simulation", "difference"], name="simulated_by_difference")]

    def __str__(self):
        return f"{self.player_id}: {self.published_rating} published, {self.simulated_rating} simulated"
