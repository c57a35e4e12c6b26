import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError

from accounts.roles import ARBITERS, RATING_OFFICERS
from events.models import Event

# The demo's people besides the admin: (username, names, address, role, staff, what they see).
PEOPLE = [
    ("arbiter", "Robin", "Hale", "arbiter@example.org", ARBITERS, False, "an arbiter: My events, /arbiter/"),
    ("officer", "Morgan", "Reid", "officer@example.org", RATING_OFFICERS, True, "a rating officer: /admin/"),
]
EVENTS_OF_THE_ARBITER = "Congress"  # the demo's congress of each month is the demo arbiter's


class Command(BaseCommand):
    help = (
        "Give the demo's arbiter and rating officer (made if new) fresh random passwords, printed "
        "on screen, and the arbiter the demo's congresses. A development server's only (DEBUG=true)."
    )

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("demo logins are for a development server: run with DEBUG=true")
        for username, forenames, surname, email, role, staff, what in PEOPLE:
            user, _ = get_user_model().objects.get_or_create(
                username=username,
                defaults={"first_name": forenames, "last_name": surname, "email": email, "is_staff": staff},
            )
            user.groups.add(Group.objects.get(name=role))
            password = secrets.token_urlsafe(12)
            user.set_password(password)
            user.save()
            if role == ARBITERS:
                self.give_events(user)
            self.stdout.write(self.style.SUCCESS(f"Log in as {username} / {password}") + f" ({what})")

    def give_events(self, arbiter):
        """The demo's congresses with no arbiter become the arbiter's, on a first run."""
        if not Event.objects.filter(arbiter=arbiter).exists():
            Event.objects.filter(arbiter=None, name__contains=EVENTS_OF_THE_ARBITER).update(arbiter=arbiter)
