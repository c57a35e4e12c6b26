from django.apps import AppConfig
from django.db.models.signals import post_migrate


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = "Events and results"

    def ready(self):
        from .roles import ensure_roles

        # After every app has migrated, so that all the permissions exist.
        post_migrate.connect(ensure_roles, dispatch_uid="events.ensure_roles")
