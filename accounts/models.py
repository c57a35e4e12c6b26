"""Accounts that look after themselves (docs/accounts.md): an arbiter's application for an
account and an officer's decision on it, an officer's invitation, and each account's history."""

import datetime

from django.conf import settings
from django.db import models


class Application(models.Model):
    """An arbiter's request for an account, from the public form: approved (the account made,
    its link mailed) or declined (the reason mailed) by a rating officer."""

    class State(models.TextChoices):
        WAITING = "waiting", "waiting"
        APPROVED = "approved", "approved"
        DECLINED = "declined", "declined"

    forenames = models.CharField(max_length=100)
    surname = models.CharField(max_length=100)
    email = models.EmailField(help_text="The account's address: the link to set a password, or the reason, goes here.")
    fide_id = models.PositiveBigIntegerField("FIDE ID", null=True, blank=True)
    player_code = models.CharField("federation code", max_length=20, blank=True)
    player = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The federation record its code or FIDE ID names, if any.",
    )
    licence = models.CharField("arbiter licence", max_length=30)
    created_at = models.DateTimeField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.WAITING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decline_reason = models.TextField(blank=True, help_text="Mailed to the applicant.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The account its approval made.",
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "application for an account"
        verbose_name_plural = "applications for accounts"
        permissions = [("decide_application", "Can approve or decline an application for an account")]
        indexes = [models.Index(fields=["state", "created_at"], name="applications_by_state")]

    def __str__(self):
        return f"{self.forenames} {self.surname} <{self.email}>"

    @property
    def name(self):
        return f"{self.forenames} {self.surname}"


class Invitation(models.Model):
    """A link to set up an arbiter's account, mailed to its address: by an officer's invitation,
    or by the approval of an application. It lasts INVITATION_TIMEOUT from its mail."""

    email = models.EmailField()
    forenames = models.CharField(max_length=100)
    surname = models.CharField(max_length=100)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="invitations")
    application = models.ForeignKey(
        Application, null=True, blank=True, on_delete=models.SET_NULL, related_name="invitations"
    )
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    invited_at = models.DateTimeField()
    # When its link was last mailed (None: not yet, the broker or the mail server away); the link
    # lasts INVITATION_TIMEOUT from then.
    sent_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-invited_at"]

    def __str__(self):
        return f"{self.forenames} {self.surname} <{self.email}>"

    @property
    def expires_at(self):
        if self.sent_at is None:
            return None
        return self.sent_at + datetime.timedelta(seconds=settings.INVITATION_TIMEOUT)


class AccountChange(models.Model):
    """A step in an account's life, with who took it: made, invited, set up, a password reset,
    changed or set by an administrator, an e-mail change asked for and made (on the account page,
    or by an administrator)."""

    class What(models.TextChoices):
        APPROVED = "approved", "made from an application"
        INVITED = "invited", "invited"
        LINK_SENT_AGAIN = "link-again", "its link sent again"
        SET_UP = "set-up", "set up: its first password"
        PASSWORD_RESET = "reset", "password reset by e-mail"
        PASSWORD_CHANGED = "password", "password changed"
        PASSWORD_SET = "password-set", "password set, or turned off, by an administrator"
        EMAIL_ASKED = "email-asked", "e-mail change asked for"
        EMAIL_CHANGED = "email", "e-mail changed"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="account_changes"
    )
    username = models.CharField(max_length=150, help_text="The account's username then: kept if it goes.")
    what = models.CharField(max_length=12, choices=What.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = "account history"
        verbose_name_plural = "account history"

    def __str__(self):
        return f"{self.username}: {self.get_what_display()} at {self.at:%Y-%m-%d %H:%M}"
