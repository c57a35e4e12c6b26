"""Errors the public reports on a player's or an event's page, and what the officers did with
each (docs/corrections.md)."""

import secrets

from django.conf import settings
from django.db import models

# Letters and digits that cannot be read as one another (no I, O, 0, 1): a reporter reads the
# reference off the page or a mail and may type it back.
REFERENCE_CHARACTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_reference() -> str:
    """A report's reference as the reporter is given it (``K7QF-3MZP``): random, so that it tells
    nobody how many reports there are, as the table's id would."""
    characters = "".join(secrets.choice(REFERENCE_CHARACTERS) for _ in range(8))
    return f"{characters[:4]}-{characters[4:]}"


class Report(models.Model):
    class Kind(models.TextChoices):
        RESULT = "result", "a result is wrong"
        SAME_PERSON = "same-person", "two records are one person"
        DETAILS = "details", "a birth date or club is wrong"

    class State(models.TextChoices):
        NEW = "new", "new"
        IN_HAND = "in-hand", "in hand"
        RESOLVED = "resolved", "resolved"
        DECLINED = "declined", "declined"

    reference = models.CharField(max_length=9, unique=True, default=new_reference, editable=False)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    # What it is about, as the page it was sent from said; kept if the record goes (a merge).
    player = models.ForeignKey("players.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    event = models.ForeignKey("events.Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    about = models.CharField(max_length=250, help_text="The player or event as the page named it when it was sent.")
    other_record = models.CharField(
        max_length=40, blank=True, help_text="For two records of one person: the other record's code."
    )
    message = models.TextField()
    email = models.EmailField(help_text="The reporter's address: replies go there.")
    created_at = models.DateTimeField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.NEW)
    state_changed_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "error report"
        indexes = [models.Index(fields=["state", "created_at"], name="reports_by_state")]

    def __str__(self):
        return f"Report {self.reference}: {self.get_kind_display()} ({self.about})"


class ReportChange(models.Model):
    """A step of a report: sent, taken in hand, answered, resolved or declined; with the reply
    mailed to the reporter, if any, and the officers' own note."""

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="changes")
    state = models.CharField(max_length=8, choices=Report.State.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()
    reply = models.TextField(blank=True, help_text="Mailed to the reporter.")
    note = models.TextField(blank=True, help_text="For the officers and the event's arbiter only.")
    replied_at = models.DateTimeField(null=True, blank=True, help_text="When the reply was mailed.")
    # Claimed by the task sending the reply (one task at a time), and whether the mail server
    # refused it for good (an address it does not know): then it is not tried again.
    sending_at = models.DateTimeField(null=True, blank=True, editable=False)
    refused = models.BooleanField(default=False, help_text="The mail server refused the reply for good.")

    class Meta:
        ordering = ["report", "at", "pk"]

    def __str__(self):
        return f"Report {self.report.reference} {self.state} at {self.at:%Y-%m-%d %H:%M}"
