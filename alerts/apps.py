from django.apps import AppConfig


class AlertsConfig(AppConfig):
    name = "alerts"
    verbose_name = "E-mail alerts"

    def ready(self):
        # The receivers connect themselves; the tasks are registered in every process.
        from alerts import checks, receivers, tasks  # noqa: F401 (models are loaded only now)
