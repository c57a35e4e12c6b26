from django.apps import AppConfig


class GradingConfig(AppConfig):
    name = "grading"
    verbose_name = "Ratings"

    def ready(self):
        from grading import receivers  # noqa: F401 (connects them; models are loaded only now)
