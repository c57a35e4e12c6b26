from django.apps import AppConfig


class MailsConfig(AppConfig):
    name = "mails"
    verbose_name = "Role mails"

    def ready(self):
        # The receivers connect themselves; the tasks are registered in every process (a web
        # process without a broker runs them).
        from mails import personal_data, receivers, tasks  # noqa: F401 (models are loaded only now)
