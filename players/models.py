import datetime
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from chess import titles
from chess.dates import written
from chess.names import fold, full_name, initials, search_key


def is_player_code(text: str) -> bool:
    """Whether ``text`` has the shape of the federation's codes (PLAYER_CODE_PATTERN)."""
    return bool(re.fullmatch(settings.PLAYER_CODE_PATTERN, text or ""))


def validate_player_code(value):
    if not is_player_code(value):
        raise ValidationError(
            "%(value)s is not a federation code (expected six digits and a check letter, e.g. 123456A).",
            params={"value": value},
        )


# No living player was born before it: a date before it is a mistyped year.
EARLIEST_BIRTH_DATE = datetime.date(1900, 1, 1)


def birth_date_problem(day, first_day_playing, what_day="") -> str:
    """Why ``day`` cannot be the birth date of someone playing on ``first_day_playing``, or "".
    The rating engine refuses a birth date on or after the first day of a period it rates."""
    if day is None:
        return ""
    if day < EARLIEST_BIRTH_DATE:
        return f"the birth date {written(day)} is before 1900"
    if day >= first_day_playing:
        return f"the birth date {written(day)} is not before {written(first_day_playing)}{what_day}"
    return ""


# A club's code is in its page's address: letters and digits, with single - _ . between them.
CLUB_CODE = re.compile(r"[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*")


def validate_club_code(value):
    if not CLUB_CODE.fullmatch(value or ""):
        raise ValidationError(
            "%(value)s is not a club code: letters and digits, with single - _ . between them.", params={"value": value}
        )


def years_before(day: datetime.date, years: int) -> datetime.date:
    """The same calendar day ``years`` earlier (29 February becomes the 28th)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


class Club(models.Model):
    code = models.CharField(max_length=8, unique=True, validators=[validate_club_code])
    name = models.CharField(max_length=120)
    county = models.CharField("county or association", max_length=120, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return f"{self.name} ({self.code})"

    def get_absolute_url(self):
        return reverse("club", args=[self.code])


# The fields a player's name keys are written from: the name, and whether it is restricted to
# initials (Player.set_name_keys).
NAMED_BY = {"surname", "forenames", "name_restricted"}


class PlayerQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, update_fields=None, **kwargs):
        """Every name saved with its keys, whichever way the players are created or updated."""
        objs = list(objs)
        for player in objs:
            player.set_name_keys()
        if update_fields and NAMED_BY & set(update_fields):
            update_fields = [*update_fields, *Player.NAME_KEYS]
        return super().bulk_create(objs, *args, update_fields=update_fields, **kwargs)

    def bulk_update(self, objs, fields, *args, **kwargs):
        """A name changed so is saved with its keys, as by save() and bulk_create()."""
        objs = list(objs)
        if NAMED_BY & set(fields):
            for player in objs:
                player.set_name_keys()
            fields = [*fields, *(key for key in Player.NAME_KEYS if key not in fields)]
        return super().bulk_update(objs, fields, *args, **kwargs)

    def update(self, **kwargs):
        # bulk_update's own update() writes the keys with the names.
        if NAMED_BY & set(kwargs) and not set(Player.NAME_KEYS) <= set(kwargs):
            raise TypeError("a name is saved with its keys (Player.set_name_keys): save the players, not update()")
        return super().update(**kwargs)


class Player(models.Model):
    class Sex(models.TextChoices):
        MALE = "M", "male"
        FEMALE = "F", "female"

    code = models.CharField("federation code", max_length=12, unique=True, validators=[validate_player_code])
    surname = models.CharField(max_length=80)
    forenames = models.CharField(max_length=120, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    sex = models.CharField(max_length=1, choices=Sex.choices, blank=True)
    fide_id = models.PositiveBigIntegerField("FIDE ID", null=True, blank=True, db_index=True)
    fide_title = models.CharField("FIDE title", max_length=3, choices=titles.CHOICES, blank=True)
    nationality = models.CharField(max_length=3, blank=True, help_text="FIDE federation code, e.g. ENG.")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players")
    # Set by the restriction or the erasure of their personal data (privacy/services.py): the
    # public pages show the name as initials (``name``); officers see it whole (``full_name``).
    name_restricted = models.BooleanField(
        "name shown as initials",
        default=False,
        editable=False,
        help_text="The public pages show the name as initials; set by restricting or erasing the player's data.",
    )
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_records",
        help_text="Set on a duplicate record: the record its games and history moved to.",
    )
    # The name folded (chess.names), written on every save: what the search, the suggestions
    # and the matching compare, on PostgreSQL and SQLite alike.
    surname_key = models.CharField(max_length=240, editable=False, db_index=True, default="")
    forenames_key = models.CharField(max_length=360, editable=False, default="")
    name_key = models.TextField(editable=False, default="")

    NAME_KEYS = ("surname_key", "forenames_key", "name_key")
    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["surname", "forenames", "code"]
        permissions = [
            ("merge_player", "Can merge duplicate player records"),
            ("handle_personal_data", "Can export, restrict and erase a player's personal data"),
        ]
        indexes = [models.Index(fields=["surname", "forenames"])]

    def __str__(self):
        # As the public sees it: a follow's page and mails name its player so. The officers'
        # screens show the whole name in its fields.
        return f"{self.name} ({self.code})"

    def save(self, *args, update_fields=None, **kwargs):
        self.set_name_keys()
        if update_fields is not None and NAMED_BY & set(update_fields):
            update_fields = [*update_fields, *self.NAME_KEYS]
        super().save(*args, update_fields=update_fields, **kwargs)

    def get_absolute_url(self):
        return reverse("player", args=[self.code])

    def clean(self):
        super().clean()
        if problem := birth_date_problem(self.birth_date, datetime.date.today()):
            raise ValidationError(
                {"birth_date": f"{problem.capitalize()}: a player's birth date is from 1900 to yesterday."}
            )

    @property
    def name(self):
        """The name as the public pages, the downloads, the feeds and the API show it: as
        initials if it is restricted."""
        return shown_name(self.surname, self.forenames, self.name_restricted)

    @property
    def full_name(self):
        """The whole name, for officers."""
        return full_name(self.surname, self.forenames)

    @property
    def data_erased(self) -> bool:
        """Their personal data was erased at their request (privacy/services.py): for good, so
        that no birth date is taken again, from an officer or from an arbiter's file."""
        return erased([self.pk]) != set()

    @property
    def shown_names(self) -> tuple[str, str]:
        """(surname, forenames) as the public sees them: initials if the name is restricted."""
        return initials(self.surname, self.forenames) if self.name_restricted else (self.surname, self.forenames)

    def set_name_keys(self):
        """The keys the search, the suggestions and the matching compare (chess.names), each
        cut to its column (key_to_store). A restricted name's keys are its initials': nobody
        finds the record by the whole name on the public search (officers do, players.admin)."""
        surname, forenames = self.shown_names
        self.surname_key = key_to_store("surname_key", fold(surname))
        self.forenames_key = key_to_store("forenames_key", fold(forenames))
        self.name_key = search_key(surname, forenames)


def shown_name(surname: str, forenames: str, restricted: bool) -> str:
    """A player's name as the public sees it, from the values of a query (Player.name)."""
    return full_name(*initials(surname, forenames)) if restricted else full_name(surname, forenames)


def key_to_store(field: str, key: str) -> str:
    """``key`` cut to the length of its column on Player. Folding may lengthen a name many times
    over (NFKD writes U+FDFA as 18 characters), past any column made for ordinary names, and
    PostgreSQL refuses a value too long; the b-tree indexes on the keys hold at most about 2,700
    bytes besides. A name that long is still found by name_key (a text, searched by trigrams)."""
    return key[: Player._meta.get_field(field).max_length]


class PrivacySetting(models.Model):
    """The federation's privacy setting: one row, made by a migration (docs/privacy.md). Read
    through players.privacy.privacy_setting()."""

    class AgeShown(models.TextChoices):
        NOTHING = "nothing", "nothing"
        BAND = "band", "an age band"
        BIRTH_YEAR = "birth-year", "the year of birth (a junior's band)"

    age_shown = models.CharField(
        "what the public sees of an age",
        max_length=10,
        choices=AgeShown.choices,
        default=AgeShown.BAND,
        help_text="An age band is U8 to U18, Senior 50+ or Senior 65+ (none from 18 to 49). Never a birth date, "
        "and never a junior's exact age or year of birth, whatever is chosen here.",
    )
    requests_to = models.CharField(
        "requests about personal data go to",
        max_length=250,
        blank=True,
        help_text="An e-mail or postal address the privacy page gives for a copy, a correction, a restriction or "
        "an erasure of a player's data. Empty: the page sends people to the error-report form.",
    )
    # Bumped by every change of the setting and every name restricted, so that the pages kept
    # for visitors (public.kept) and the top lists kept in the cache are built anew.
    version = models.PositiveIntegerField(default=0, editable=False)
    changed_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = "privacy setting"

    def __str__(self):
        return "The federation's privacy setting"


class PlayerChange(models.Model):
    """A player's history of what officers did with their personal data: a restriction, its
    lifting, an erasure, an export for a subject access request. Written in the same
    transaction as what it records; never changed."""

    class Action(models.TextChoices):
        EXPORTED = "exported", "data exported"
        RESTRICTED = "restricted", "name restricted to initials"
        LIFTED = "lifted", "restriction lifted"
        ERASED = "erased", "personal data erased"

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="changes")
    action = models.CharField(max_length=10, choices=Action.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()
    reason = models.TextField(help_text="Why: the request it answers.")
    details = models.JSONField(default=dict, blank=True, help_text="What was done, counted.")

    class Meta:
        ordering = ["player", "at", "pk"]
        verbose_name = "player's data history"
        verbose_name_plural = "players' data history"

    def __str__(self):
        return f"{self.player.code}: {self.get_action_display()} {self.at:%Y-%m-%d %H:%M}"


def erased(player_ids) -> set[int]:
    """Those of ``player_ids`` whose personal data was erased."""
    return set(
        PlayerChange.objects.filter(player_id__in=player_ids, action=PlayerChange.Action.ERASED).values_list(
            "player_id", flat=True
        )
    )
