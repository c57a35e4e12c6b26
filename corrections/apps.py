from django.apps import AppConfig


class CorrectionsConfig(AppConfig):
    name = "corrections"
    verbose_name = "Error reports"

    def ready(self):
        # The tasks are registered in every process (a web process without a broker runs them).
        from corrections import tasks  # noqa: F401 (models are loaded only now)
