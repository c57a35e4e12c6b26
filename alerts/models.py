"""Who follows what by e-mail, and what was mailed to whom (docs/alerts.md)."""

from django.db import models


class Follower(models.Model):
    """An e-mail address that follows players, clubs or lists. ``key`` is in every link mailed to
    it (confirm, manage, unsubscribe): whoever reads the address's mail holds it, nobody else."""

    email = models.EmailField(unique=True)
    key = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField()
    # The latest mail of its key asked for on the site (a confirmation, the link to manage its
    # alerts): one in LINK_INTERVAL at most, so that nobody floods an address by asking.
    link_sent_at = models.DateTimeField(null=True, blank=True)
    # Confirmation mails sent while it has confirmed nothing (alerts.follows.MOST_UNANSWERED).
    unanswered = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["email"]

    def __str__(self):
        return self.email


CONFIRMED = models.Q(confirmed_at__isnull=False)


class Follow(models.Model):
    """One thing a follower follows: a player, a club or a list. Mailed about only once confirmed
    (double opt-in): the link in the confirmation mail sent to the address confirms it."""

    class Kind(models.TextChoices):
        PLAYER = "player", "player"
        CLUB = "club", "club"
        LIST = "list", "rating list"

    follower = models.ForeignKey(Follower, on_delete=models.CASCADE, related_name="follows")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    player = models.ForeignKey("players.Player", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey("players.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    rating_list = models.ForeignKey(
        "grading.RatingList", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField()
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["follower", "kind", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "player"], name="follows_a_player_once"),
            models.UniqueConstraint(fields=["follower", "club"], name="follows_a_club_once"),
            models.UniqueConstraint(fields=["follower", "rating_list"], name="follows_a_list_once"),
            models.CheckConstraint(
                condition=models.Q(kind="player", player__isnull=False, club=None, rating_list=None)
                | models.Q(kind="club", club__isnull=False, player=None, rating_list=None)
                | models.Q(kind="list", rating_list__isnull=False, player=None, club=None),
                name="follows_one_thing_of_its_kind",
            ),
        ]
        indexes = [
            models.Index(
                fields=["player"], condition=models.Q(confirmed_at__isnull=False), name="confirmed_player_follows"
            ),
            models.Index(
                fields=["club"], condition=models.Q(confirmed_at__isnull=False), name="confirmed_club_follows"
            ),
        ]

    def __str__(self):
        return f"{self.follower} follows {self.target}"

    @property
    def target(self):
        return self.player or self.club or self.rating_list


class Mailing(models.Model):
    """One occasion to mail followers (a rating run that published): each follower it concerns
    gets one mail, whatever the number of things of theirs in it."""

    key = models.CharField(max_length=60, unique=True, help_text="What it is about, e.g. run:42.")
    subject = models.CharField(max_length=200)
    created_at = models.DateTimeField()
    # Claimed by the task at work on it: a second delivery of the task leaves it be.
    claimed_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    recipients = models.PositiveIntegerField(default=0)
    sent = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.subject


class Delivery(models.Model):
    """A mail of a mailing sent to a follower, or refused for good by the mail server: never twice."""

    mailing = models.ForeignKey(Mailing, on_delete=models.CASCADE, related_name="deliveries")
    follower = models.ForeignKey(Follower, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField()
    refused = models.BooleanField(default=False, help_text="The mail server refused it for good (a 5xx).")

    class Meta:
        # Named apart from the role mails' deliveries (mails.Delivery), which the admin lists too.
        verbose_name = "alert mail sent"
        verbose_name_plural = "alert mails sent"
        constraints = [models.UniqueConstraint(fields=["mailing", "follower"], name="one_mail_per_follower")]

    def __str__(self):
        return f"{self.mailing} to {self.follower_id}"
