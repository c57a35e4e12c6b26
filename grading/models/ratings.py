"""Ratings: a player's state on a list after a month (published, PlayerRating), and the lines of a
published list (ListEntry)."""

from django.db import models

from grading.models.lists import JSONText, RatingList, RatingPeriod, month_validator, rating_text

# What a state is, as the runs read it (the covering index below holds them).
STATE_FIELDS = ("rating", "type", "games", "opponents_total", "points", "last_played", "category", "peak")


class RatingState(models.Model):
    """A player's state on a list after a month, with how it was reached: what a published
    rating (PlayerRating) and a live one (grading.models.LiveRating) both keep."""

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
        # No games: the state before the month raised by FIDE's adjustment of March 2024.
        ADJUSTED = "adjust", "FIDE's adjustment of March 2024"

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
    # The rating before FIDE's adjustment of March 2024, where the month began with it (a
    # rule-set change that carried it): prior_rating is then the adjusted rating.
    adjusted_from = models.PositiveSmallIntegerField(null=True, blank=True)
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
        help_text="Every game as rated, in grading.run.breakdown.LINE order (empty for imported ratings).",
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
    (grading.models.LiveEntry), its player's key declared by each. No database-level
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
# (grading.selectors.ranks): established ratings, Full ones, as FIDE and the ECF rank.
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
            # A club's players on a list: the club filter of the list pages, the club pages. It holds
            # what a one-club page's line shows but the names, so that the page reads the club's
            # lines from the index alone (grading.selectors.history.club_lines).
            models.Index(
                fields=["period", "revision", "club"],
                name="list_by_club",
                include=["player", "rating", "type", "category", "games", "last_played"],
            ),
        ]

    def __str__(self):
        return f"{self.player} {self.rating} ({self.period} r{self.revision})"
