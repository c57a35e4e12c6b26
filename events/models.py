import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from chess import results
from chess.dates import LONGEST_DAYS
from chess.names import full_name

# An event's code is in its page's address and in every export: no spaces, quotes or markup,
# and no "." or ".." path segment, which a browser would resolve to another page.
EVENT_CODE = re.compile(r"[A-Za-z0-9]+(?:[._/-][A-Za-z0-9]+)*")


def validate_event_code(value):
    if not EVENT_CODE.fullmatch(value or ""):
        raise ValidationError(
            "%(value)s is not an event code: letters and digits, with single - _ . / between them.",
            params={"value": value},
        )


class EventQuerySet(models.QuerySet):
    def in_rating(self):
        """Approved for rating, or rated: the events the public sees and the runs read."""
        return self.filter(status__in=IN_RATING)


class Event(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round-robin", "round robin"
        TEAM_MATCH = "team-match", "team match"
        LEAGUE = "league", "league"
        OTHER = "other", "other"

    class Status(models.TextChoices):
        UPLOADED = "uploaded", "uploaded"
        CHECKED = "checked", "checked"
        SUBMITTED = "submitted", "submitted"
        SENT_BACK = "sent-back", "sent back"
        APPROVED = "approved", "approved"
        RATED = "rated", "rated"
        WITHDRAWN = "withdrawn", "withdrawn"
        HELD = "held", "awaiting review"

    code = models.CharField(max_length=40, unique=True, validators=[validate_event_code])
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.SWISS)
    rating_list = models.ForeignKey("grading.RatingList", on_delete=models.PROTECT, related_name="events")
    start_date = models.DateField()
    end_date = models.DateField()
    time_control = models.CharField(max_length=100, blank=True)
    online = models.BooleanField(default=False)
    organiser = models.CharField(max_length=200, blank=True)
    arbiter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="arbitrated_events",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UPLOADED)
    status_changed_at = models.DateTimeField(null=True, blank=True)
    status_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    sent_back_reason = models.TextField(blank=True)
    # A rating officer held it from rating (the integrity watch): what it returns to on release.
    held_from = models.CharField(max_length=10, choices=Status.choices, blank=True, editable=False)
    submission_index = models.PositiveIntegerField(default=1)
    list_overridden = models.BooleanField(
        default=False, help_text="Staff chose the list; a new upload does not change it."
    )
    scheduled_rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The rounds the file says the event has (TRF XXR): they decide when a match is won.",
    )
    # An event of more than 90 days is rated on an Elo list only with its length approved
    # (docs/rules.md section 16.3), for the dates it had then: new dates clear it.
    length_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    length_approved_at = models.DateTimeField(null=True, blank=True, editable=False)
    # An event a rating officer approved as fast classic (FIDE's decision of 2026: 45 minutes and
    # 30 seconds a move or more) is rated as standard play at its time control, whatever its
    # players' ratings, on a list rated by FIDE's 2024 rules (docs/rules.md part 5).
    fast_classic_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    fast_classic_approved_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-end_date", "code"]
        permissions = [
            ("submit_results", "Can upload and submit results of their own events"),
            ("approve_event", "Can approve events for rating and send them back"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end_date__gte=models.F("start_date")),
                name="event_ends_after_it_starts",
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.code})"

    @property
    def editable(self):
        """Whether the arbiter may still change it: until it is approved, and not while it is
        held for review (a new file would take it out of the officers' hands)."""
        return not self.in_rating and self.status != Event.Status.HELD

    @property
    def length_approved(self):
        return self.length_approved_at is not None

    @property
    def fast_classic(self):
        return self.fast_classic_approved_at is not None

    @property
    def days(self):
        """How many days it lasts, its first and last both counted."""
        return (self.end_date - self.start_date).days + 1

    @property
    def needs_length_approval(self):
        """Whether an Elo list rates it only once its length is approved (docs/rules.md 16.3):
        its last day is more than 89 days after its first (it lasts more than 90 days)."""
        return (self.end_date - self.start_date).days > LONGEST_DAYS

    @property
    def length_text(self):
        """Its length as its history tells it: "120 days (2026-01-05 to 2026-05-04)"."""
        return f"{self.days} days ({self.start_date.isoformat()} to {self.end_date.isoformat()})"

    @property
    def in_rating(self):
        """Approved for rating, or rated: its games are, or are about to be, in published lists."""
        return self.status in IN_RATING


IN_RATING = (Event.Status.APPROVED, Event.Status.RATED)


class EventChange(models.Model):
    """One step of an event's workflow: what it became, who did it, when, and why."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="changes")
    status = models.CharField(max_length=10, choices=Event.Status.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()
    note = models.TextField(blank=True)
    # A step of the integrity watch (a hold, a flag cleared): its note is for rating officers, and
    # its arbiter is told only that the event awaits review.
    for_officers = models.BooleanField(default=False)
    # A step that left the status as it was (a flag cleared, visitors registered, a length
    # approved), in words: ``status`` is then the status the event kept, and not what was done.
    step = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["event", "at", "pk"]

    def __str__(self):
        return f"{self.event.code} {self.what} at {self.at:%Y-%m-%d %H:%M}"

    @property
    def what(self) -> str:
        """What the step did, as the history shows it: the status the event became, or a step
        that left it as it was ("flag cleared")."""
        return self.step or self.get_status_display()


class Entry(models.Model):
    """A player as the event file lists them, and the federation record they are matched to."""

    class Match(models.TextChoices):
        CODE = "code", "federation code"
        FIDE_ID = "fide-id", "FIDE ID"
        NAME = "name", "name and birth date"
        CHOSEN = "chosen", "chosen by staff or the arbiter"
        NEW = "new", "new player"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    pin = models.PositiveIntegerField(help_text="Starting rank or PIN in the file.")
    surname = models.CharField(max_length=80)
    forenames = models.CharField(max_length=120, blank=True)
    code = models.CharField("federation code", max_length=12, blank=True)
    fide_id = models.PositiveBigIntegerField("FIDE ID", null=True, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    sex = models.CharField(max_length=1, blank=True)
    title = models.CharField(max_length=3, blank=True)
    club_name = models.CharField(max_length=120, blank=True)
    federation = models.CharField(
        max_length=3, blank=True, help_text="The player's FIDE federation as the file gives it (TRF), such as ENG."
    )
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    match = models.CharField(max_length=8, choices=Match.choices, default=Match.NEW)
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="The final rank the file gives (TRF).")
    line = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "pin"]
        verbose_name_plural = "entries"
        constraints = [models.UniqueConstraint(fields=["event", "pin"], name="one_entry_per_pin")]

    def __str__(self):
        return f"{self.pin}. {self.name}"

    @property
    def name(self):
        return full_name(self.surname, self.forenames)


class ApiToken(models.Model):
    """An arbiter's key for their pairing program to upload and submit results through the API
    (events/tokens.py). Only a digest of it is kept: it is shown once, when it is made."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="What it is for, e.g. the program it is given to.")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=12, editable=False, help_text="Its first characters, to tell it by.")
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["user", "-created_at"]
        verbose_name = "API token"

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self):
        return self.revoked_at is None


def upload_path(upload, filename):
    # The stored name never comes from the user: the original name is kept in a field.
    return f"uploads/{upload.uploaded_at:%Y/%m}/{upload.sha256}"


class Upload(models.Model):
    class Format(models.TextChoices):
        TRF = "trf", "FIDE TRF"
        ECF = "ecf", "ECF results file"
        CSV = "csv", "CSV"

    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="uploads")
    file = models.FileField(upload_to=upload_path)
    original_name = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64, db_index=True)
    format = models.CharField(max_length=3, choices=Format.choices)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="uploads")
    uploaded_at = models.DateTimeField()
    report = models.JSONField(default=dict, blank=True, help_text="The validation report.")
    token = models.ForeignKey(
        ApiToken,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="uploads",
        help_text="Sent through the API with it.",
    )

    class Meta:
        ordering = ["-uploaded_at"]

    def __str__(self):
        return f"{self.original_name} ({self.get_format_display()}, {self.uploaded_at:%Y-%m-%d %H:%M})"


class GameQuerySet(models.QuerySet):
    def rated(self):
        """The games that count for rating: marked rated, and played (a default or a bye is not)."""
        return self.filter(rated=True, result__in=results.PLAYED, black_entry__isnull=False)

    def rated_between_records(self):
        """Rated games between two federation records, not one record twice: what a run reads
        (docs/rules.md section 2)."""
        return self.rated().filter(white__isnull=False, black__isnull=False).exclude(white=models.F("black"))


class Game(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    date = models.DateField()
    white_entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    black_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # The federation records behind the entries, set once the entries are matched.
    white = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="games_as_white"
    )
    black = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="games_as_black",
        help_text="Empty for a bye.",
    )
    result = models.CharField(max_length=8, choices=results.CHOICES)
    rated = models.BooleanField(default=True)
    unrated_reason = models.CharField(max_length=100, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["event", "date", "round", "board", "pk"]
        indexes = [models.Index(fields=["date", "rated"])]
        constraints = [
            models.CheckConstraint(condition=~models.Q(white=models.F("black")), name="game_has_two_players"),
            models.CheckConstraint(
                condition=~models.Q(white_entry=models.F("black_entry")), name="game_has_two_entries"
            ),
            models.CheckConstraint(condition=models.Q(result__in=results.ALL), name="game_result_is_known"),
        ]

    def __str__(self):
        black = self.black_entry.name if self.black_entry_id else "bye"
        return f"{self.white_entry.name} {self.result} {black}"
