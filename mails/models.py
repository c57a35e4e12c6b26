"""The mails each role expects (docs/mails.md): what each user chose to receive, and every role
mail sent, once per (kind, subject, recipient)."""

from django.conf import settings
from django.db import models


class Kind(models.TextChoices):
    """A kind of role mail: each recipient may turn each off (mails.choices)."""

    APPROVED = "event-approved", "Your event is approved"
    SENT_BACK = "event-sent-back", "Your event is sent back"
    RATED = "event-rated", "Your event is rated"
    HELD = "event-held", "Your event awaits review"
    DIGEST = "officer-digest", "What waits for the rating officers (daily)"
    ACKNOWLEDGED = "report-acknowledged", "Your error report is received"
    DECLINED = "application-declined", "Your application for an account is declined"


class MailChoice(models.Model):
    """A user's choice of one kind of mail; a kind without a row is on."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_choices")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    on = models.BooleanField()
    changed_at = models.DateTimeField()

    class Meta:
        ordering = ["user", "kind"]
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_choice_a_kind_a_user")]

    def __str__(self):
        return f"{self.user}: {self.get_kind_display()} {'on' if self.on else 'off'}"


class MailChoiceChange(models.Model):
    """One kind turned on or off: by whom and when (the user, on their page)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    on = models.BooleanField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["user", "at", "pk"]

    def __str__(self):
        return f"{self.user}: {self.get_kind_display()} turned {'on' if self.on else 'off'}"


class Occasion(models.Model):
    """One occasion of a kind of role mail, the same mail to each of its recipients: a step of an
    event (its EventChange), a report, a day's digest. Claimed by the task at work on it
    (mails.delivery), finished once each recipient is mailed, or refused."""

    kind = models.CharField(max_length=24, choices=Kind.choices)
    subject = models.CharField(max_length=40, help_text="What it is about: an event's step, a report, a day.")
    title = models.CharField(max_length=200, help_text="The mail's Subject line.")
    created_at = models.DateTimeField()
    # Claimed by the task at work on it: a second delivery of the task leaves it be.
    claimed_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    recipients = models.PositiveIntegerField(default=0)
    sent = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["kind", "subject"], name="one_occasion_a_subject")]
        indexes = [models.Index(fields=["created_at"], name="role_mail_occasions_by_date")]

    def __str__(self):
        return self.title

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.subject}"


class Delivery(models.Model):
    """A role mail to one address: claimed (written, committed) before it is sent, then marked
    sent, or refused for good by the mail server. One per (kind, subject, address), never two."""

    occasion = models.ForeignKey(Occasion, on_delete=models.CASCADE, related_name="deliveries")
    address = models.EmailField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(help_text="When its sending began: a claim without a send is one cut off.")
    sent_at = models.DateTimeField(null=True, blank=True)
    refused = models.BooleanField(default=False, help_text="The mail server refused it for good (a 5xx).")
    attempts = models.PositiveSmallIntegerField(default=1, help_text="More than one: a sender was cut off mid-send.")

    class Meta:
        # Named apart from the alerts' deliveries (alerts.Delivery), which the admin lists too.
        verbose_name = "role mail sent"
        verbose_name_plural = "role mails sent"
        ordering = ["-claimed_at"]
        constraints = [models.UniqueConstraint(fields=["occasion", "address"], name="one_role_mail_per_address")]

    def __str__(self):
        return f"{self.occasion.key} to {self.address}"
