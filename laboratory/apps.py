from django.apps import AppConfig


class LaboratoryConfig(AppConfig):
    name = "laboratory"
    verbose_name = "Laboratory"

    def ready(self):
        # The tasks are registered in every process (a web process without a broker runs them
        # itself), found by name by grading.run.broker.send.
        from laboratory import tasks  # noqa: F401 (models are loaded only now)
