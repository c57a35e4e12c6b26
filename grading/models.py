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

    class Meta:
        ordering = ["display_order", "code"]

    def __str__(self):
        return self.name

    def rule_set_for(self, month: str) -> str:
        """The rule set in force for ``month`` (YYYY-MM): that of the latest change from a month
        not after it, or the list's own before any change."""
        change = self.rule_set_changes.filter(month__lte=month).order_by("-month").first()
        return change.rule_set if change else self.rule_set

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
    again by the rules it was published under. Made and undone through grading/rule_sets.py."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="rule_set_changes")
    month = models.CharField(
        max_length=7, validators=[month_validator], help_text="The first month it rates (YYYY-MM)."
    )
    rule_set = models.CharField(max_length=40, choices=RULE_SET_CHOICES)
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
    # What its latest rating read of the other lists (grading.periods.read_publications): rated
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
        # A new period is rated by the rule set in force for its month (grading/rule_sets.py);
        # once set, it is kept: a revision rates the month by the rules it was published under.
        if not self.rule_set:
            self.rule_set = self.rating_list.rule_set_for(self.month)
        super().save(*args, **kwargs)

    @property
    def first_day(self):
        """The day ages are counted on for this period (docs/rules.md section 3)."""
        return Month.parse(self.month).first_day()


# What a state is, as the runs read it (the covering index below holds them).
STATE_FIELDS = ("rating", "type", "games", "opponents_total", "points", "last_played", "category", "peak")


class RatingState(models.Model):
    """A player's state on a list after a month, with how it was reached: what a published
    rating (PlayerRating) and a live one (grading.live_models.LiveRating) both keep."""

    class Type(models.TextChoices):
        FULL = "full", "Full"
        PARTIAL = "partial", "Partial"
        PENDING = "pending", "pending (Elo: games towards a first rating)"

    class Category(models.TextChoices):
        FULL = "full", "fully rated"
        PARTIAL = "partial", "partially rated"
        NEW = "new", "new"
        IMPORTED = "imported", "imported"
        RATED = "rated", "rated (Elo)"
        UNRATED = "unrated", "unrated (Elo)"

    class Method(models.TextChoices):
        P = "P", "P rating (performance)"
        K = "K", "K rating (Elo update)"
        IMPORTED = "import", "imported"
        ELO = "elo", "Elo rating change"
        FIRST = "first", "Elo first rating"

    rating = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty only for a pending state.")
    type = models.CharField(max_length=7, choices=Type.choices)
    games = models.PositiveIntegerField(default=0)
    opponents_total = models.BigIntegerField(default=0)
    points = models.DecimalField(max_digits=8, decimal_places=1, default=0)
    last_played = models.CharField(max_length=7, blank=True, validators=[month_validator], help_text="YYYY-MM")
    category = models.CharField(max_length=8, choices=Category.choices)
    method = models.CharField(max_length=6, choices=Method.choices)
    # How the rating was reached (empty for imported ratings).
    prior_rating = models.PositiveSmallIntegerField(null=True, blank=True)
    dummy_rating = models.IntegerField(null=True, blank=True)
    pass1 = models.PositiveSmallIntegerField(null=True, blank=True)
    pass2 = models.PositiveSmallIntegerField(null=True, blank=True)
    k_factor = models.DecimalField(max_digits=12, decimal_places=6, null=True, blank=True)
    # The highest rating published on the list (the ECF method: Full ratings only), and under the
    # Elo method a pending state's months: [{"month", "games", "opponents_total", "points"}, ...].
    peak = models.PositiveSmallIntegerField(null=True, blank=True)
    # The rule that chose an Elo K (engine codes.K_RULE_NAMES): what the calculation page names.
    k_rule = models.CharField(max_length=10, blank=True, default="", db_default="")
    pending = JSONText(default=list, blank=True)
    age = models.SmallIntegerField(null=True, blank=True, help_text="Completed years on the period's first day.")
    # Lifetime counters on the list, this period included, and the rating floor (docs/rules.md
    # section 14): kept whatever the rule set, applied only by one with floors.
    wins = models.PositiveIntegerField(default=0, db_default=0)
    draws = models.PositiveIntegerField(default=0, db_default=0)
    events3 = models.PositiveIntegerField(
        default=0, db_default=0, help_text="Events with three rated games or more on the list."
    )
    floor = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The rating floor in force.")
    unfloored_rating = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The method's own rating, where the floor held the rating up."
    )
    breakdown = JSONText(
        default=list,
        blank=True,
        help_text="Every game as rated, in grading.breakdown.LINE order (empty for imported ratings).",
    )

    class Meta:
        abstract = True

    @property
    def method_rating(self):
        """The rating the method gave, before a floor held it up (if one did)."""
        return self.unfloored_rating or self.rating


class PlayerRating(RatingState):
    """A player's state on one list after one period: one row per period in which it changed.

    Every row belongs to the run that published it. A revision of the period publishes new rows
    and marks the old ones superseded, so a list can be read as it stands now (rows not
    superseded) or as it was first published (rows published by then and not yet superseded).

    A run writes hundreds of thousands of these at once, so the table carries only the indexes
    its readers need, and no database-level foreign keys to the list, period and run: a run
    writes the ids of rows it has just locked or created itself, and per-row constraint checks
    were a third of a national month's run.
    """

    # The history index below starts with the player. No key in the database: its check of a
    # month's 250,000 rows at commit locked each player's row and cost more than their COPY. A run
    # writes only players it read from the month's games, whose own keys protect them.
    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="ratings", db_index=False, db_constraint=False
    )
    rating_list = models.ForeignKey(
        RatingList, on_delete=models.PROTECT, related_name="ratings", db_index=False, db_constraint=False
    )
    period = models.ForeignKey(
        RatingPeriod, on_delete=models.PROTECT, related_name="ratings", db_index=False, db_constraint=False
    )
    month = models.CharField(max_length=7, validators=[month_validator], help_text="The period's month again.")
    run = models.ForeignKey(
        "RatingRun", on_delete=models.PROTECT, related_name="ratings", db_index=False, db_constraint=False
    )
    published_at = models.DateTimeField()
    superseded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["rating_list", "-month", "-rating"]
        constraints = [
            models.UniqueConstraint(
                fields=["period", "player"],
                condition=models.Q(superseded_at=None),
                name="one_current_rating_per_period",
            )
        ]
        indexes = [
            models.Index(fields=["player", "rating_list", "month"], name="rating_history"),
            # Every player's state before a month, read by each run for its list and the lists
            # its rules read (publishing.latest_states): in this index's order, from the index
            # alone, instead of sorting the list's whole history (a second a list at FIDE scale).
            models.Index(
                fields=["rating_list", "player", "-month"],
                include=[*STATE_FIELDS],
                condition=models.Q(superseded_at=None),
                name="current_states",
            ),
        ]

    def __str__(self):
        return f"{self.player} {self.period}: {rating_text(self.rating, self.type)}"


# A list's order: rating high to low, equal ratings by name (and code, which is unique).
LIST_ORDER = ("-rating", "player__surname", "player__forenames", "player__code")


class ListLine(models.Model):
    """A line of a rating list: a published one (ListEntry) or the live one
    (grading.live_models.LiveEntry), its player's key declared by each. No database-level
    foreign keys: see PlayerRating."""

    rating = models.PositiveSmallIntegerField()
    type = models.CharField(max_length=7, choices=PlayerRating.Type.choices)
    category = models.CharField(max_length=8, choices=PlayerRating.Category.choices)
    games = models.PositiveIntegerField()
    last_played = models.CharField(max_length=7)
    club = models.ForeignKey(
        "players.Club",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )

    class Meta:
        abstract = True


# The list lines that are ranked, on the list pages, the player page and the top lists alike
# (grading.ranks): established ratings, Full ones, as FIDE and the ECF rank.
RANKED_TYPE = RatingState.Type.FULL
RANKED = models.Q(type=RANKED_TYPE)


class ListEntry(ListLine):
    """One line of a rating list as published for a period: the players active on it then.

    Written once per publication (the original, then each revision) from the rating history, so
    that list pages and downloads read a list as it was published without recomputing it. A
    derived table of hundreds of thousands of rows a month: written in one statement from
    PlayerRating, with three indexes and no database-level foreign keys (see PlayerRating).
    """

    period = models.ForeignKey(
        RatingPeriod, on_delete=models.CASCADE, related_name="entries", db_index=False, db_constraint=False
    )
    revision = models.PositiveSmallIntegerField(help_text="0 the original list, then 1, 2, ...")
    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="list_entries", db_index=False, db_constraint=False
    )

    class Meta:
        verbose_name_plural = "list entries"
        ordering = ["period", "revision", *LIST_ORDER]
        constraints = [models.UniqueConstraint(fields=["period", "revision", "player"], name="one_entry_per_list")]
        indexes = [
            models.Index(fields=["period", "revision", "-rating"], name="list_by_rating"),
            # A club's players on a list: the club filter of the list pages, the club pages.
            models.Index(fields=["period", "revision", "club"], name="list_by_club"),
        ]

    def __str__(self):
        return f"{self.player} {self.rating} ({self.period} r{self.revision})"


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
        constraints = [models.UniqueConstraint(fields=["run", "game"], name="game_not_rated_once_a_run")]

    def __str__(self):
        return f"game {self.game_id}: {self.reason}"


from grading.live_models import LiveEntry, LiveList, LiveRating  # noqa: E402, F401 - models of this app
