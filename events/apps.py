from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = "Events and results"

    def ready(self):
        # An upload's file goes with its row; the deploy checks of the store are registered.
        from events.uploads import store  # noqa: F401 (models are loaded only now)
