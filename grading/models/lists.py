"""The rating lists, the rule sets that rate their months, and their periods (months)."""

import json

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models

from chess.months import MONTH_PATTERN, Month
from grading.engine import RULE_SETS

month_validator = RegexValidator(f"^{MONTH_PATTERN}$", "Enter a month as YYYY-MM.")

RULE_SET_CHOICES = [(name, f"{name} ({rules.method_name})") for name, rules in RULE_SETS.items()]


class JSONText(models.TextField):
    """JSON kept as text, read back as Python values. For the columns a run writes in bulk and
    nothing queries inside: PostgreSQL's parsing of jsonb was a third of the time it took to
    write a month's ratings, and the run writes the JSON text itself."""

    def from_db_value(self, value, expression, connection):
        return value if value is None else json.loads(value)

    def to_python(self, value):
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value):
        return value if value is None or isinstance(value, str) else json.dumps(value)

    def value_to_string(self, obj):
        return json.dumps(self.value_from_object(obj))

    def deconstruct(self):
        # The path the migrations write, where the app's models are imported from.
        name, _, args, kwargs = super().deconstruct()
        return name, "grading.models.JSONText", args, kwargs


def month_of(change) -> str:
    return change.month


def rating_text(rating: int | None, kind: str) -> str:
    """A rating as lists and pages print it: 1850, 1432P (Partial), or "pending" (Elo: games
    towards a first rating, no rating yet)."""
    if rating is None:
        return "pending"
    return f"{rating}{'P' if kind == 'partial' else ''}"


class RatingList(models.Model):
    code = models.SlugField(max_length=30, unique=True)
    name = models.CharField(max_length=100)
    rule_set = models.CharField(
        max_length=40,
        choices=RULE_SET_CHOICES,
        default="ecf-2024",
        help_text="Rates the list's months until its first rule-set change (Rule set changes).",
    )
    standard_play = models.BooleanField(default=False, help_text="True only for the OTB standard-play list.")
    online = models.BooleanField(default=False, help_text="Rates games played online.")
    min_minutes = models.PositiveSmallIntegerField(
        default=0,
        help_text="Events whose time control gives each player at least this many minutes "
        "for all moves (increments counted over 60 moves) belong to this list...",
    )
    max_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="...and under this many minutes (empty: no upper limit)."
    )
    display_order = models.PositiveSmallIntegerField(default=0)
    # The chance at or under which a player's score in an event is flagged as an improbable
    # result (docs/integrity.md); officers change it on the review page, each change recorded.
    integrity_threshold = models.FloatField(
        default=1e-4,
        choices=[(1e-3, "1 in 1,000"), (1e-4, "1 in 10,000"), (1e-5, "1 in 100,000"), (1e-6, "1 in 1,000,000")],
    )

    class Meta:
        ordering = ["display_order", "code"]

    def __str__(self):
        return self.name

    def changes(self) -> list:
        """The list's few rule-set changes: as read with it (``changes_read``, set by
        grading.selectors.rule_sets.lists_with_changes; or prefetch_related), else in one query."""
        read = getattr(self, "changes_read", None)
        return read if read is not None else list(self.rule_set_changes.all())

    def rule_set_for(self, month: str) -> str:
        """The rule set in force for ``month`` (YYYY-MM): that of the latest change from a month
        not after it, or the list's own before any change."""
        month = str(month)  # a chess.months.Month too
        change = max((change for change in self.changes() if change.month <= month), key=month_of, default=None)
        return change.rule_set if change else self.rule_set

    def adjusted_in(self, month: str) -> bool:
        """Whether ``month`` (YYYY-MM) begins with FIDE's adjustment of March 2024: the rule-set
        change from that month on carries it."""
        return any(change.month == str(month) and change.fide_adjustment for change in self.changes())

    def holds(self, minutes):
        """Whether a time control giving ``minutes`` for 60 moves falls in this list's band."""
        return minutes >= self.min_minutes and (self.max_minutes is None or minutes < self.max_minutes)

    @property
    def band(self):
        """The time controls it rates, in minutes a player has for 60 moves: "over the board, 10
        to under 60 minutes"."""
        where = "online" if self.online else "over the board"
        if self.min_minutes and self.max_minutes:
            return f"{where}, {self.min_minutes} to under {self.max_minutes} minutes"
        if self.min_minutes:
            return f"{where}, {self.min_minutes} minutes or more"
        if self.max_minutes:
            return f"{where}, under {self.max_minutes} minutes"
        return f"{where}, any time control"


class RuleSetChange(models.Model):
    """From ``month`` on, the list is rated by ``rule_set``, until a later change. A period takes
    the rule set in force for its month and keeps it once published: a revision rates a month
    again by the rules it was published under. Made and undone through grading/rule_set_changes.py."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="rule_set_changes")
    month = models.CharField(
        max_length=7, validators=[month_validator], help_text="The first month it rates (YYYY-MM)."
    )
    rule_set = models.CharField(max_length=40, choices=RULE_SET_CHOICES)
    fide_adjustment = models.BooleanField(
        default=False,
        help_text="FIDE's one-off adjustment of March 2024 at the start of the month (docs/rules.md section 18).",
    )
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    made_at = models.DateTimeField()

    class Meta:
        ordering = ["rating_list", "month"]
        constraints = [models.UniqueConstraint(fields=["rating_list", "month"], name="one_rule_set_change_per_month")]

    def __str__(self):
        return f"{self.rating_list.code} from {self.month}: {self.rule_set}"


class RatingPeriodQuerySet(models.QuerySet):
    def published(self):
        """Periods with a list published (the original or a revision)."""
        return self.filter(revision__isnull=False)


class RatingPeriod(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open"
        RATING = "rating", "being rated"
        PUBLISHED = "published", "published"

    rating_list = models.ForeignKey(RatingList, on_delete=models.PROTECT, related_name="periods")
    month = models.CharField(max_length=7, validators=[month_validator], help_text="YYYY-MM")
    rule_set = models.CharField(max_length=40, choices=RULE_SET_CHOICES)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    published_at = models.DateTimeField(null=True, blank=True)
    adjustment_a = models.DecimalField(
        max_digits=8, decimal_places=4, default=0, help_text="Drift adjustment A (usually 0)."
    )
    adjustment_b = models.DecimalField(
        max_digits=8, decimal_places=6, default=0, help_text="Drift adjustment B (usually 0)."
    )
    revision = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="0 once the original list is published, then 1, 2, ... per revision."
    )
    # Set by a change no game shows (a merge of two records): the next run of the list rates it
    # again, even if one is at work when it is set; rating the period clears it.
    revision_due = models.BooleanField(default=False)
    # What its latest rating read of the other lists (grading.run.periods.read_publications): rated
    # again with them as they are now, the month is current, whether it published or not.
    states_read = models.CharField(max_length=64, blank=True, editable=False)

    objects = RatingPeriodQuerySet.as_manager()

    class Meta:
        ordering = ["rating_list", "-month"]
        permissions = [("run_rating", "Can run and publish ratings")]
        constraints = [models.UniqueConstraint(fields=["rating_list", "month"], name="one_period_per_month")]

    def __str__(self):
        return f"{self.rating_list.code} {self.month}"

    def save(self, *args, **kwargs):
        # A new period is rated by the rule set in force for its month (grading/rule_set_changes.py);
        # once set, it is kept: a revision rates the month by the rules it was published under.
        if not self.rule_set:
            self.rule_set = self.rating_list.rule_set_for(self.month)
        super().save(*args, **kwargs)

    @property
    def first_day(self):
        """The day ages are counted on for this period (docs/rules.md section 3)."""
        return Month.parse(self.month).first_day()
