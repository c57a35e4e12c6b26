from django.apps import AppConfig


class GradingConfig(AppConfig):
    name = "grading"
    verbose_name = "Ratings"

    def ready(self):
        # The receivers connect themselves; the tasks are registered in every process (a web
        # process without a broker runs them itself), found by name by grading.run.broker.send.
        from grading import receivers, tasks  # noqa: F401 (models are loaded only now)
