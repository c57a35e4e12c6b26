"""What ``manage.py check --deploy`` says of the accounts: a production site without a broker
would answer a password reset for a known address later than for an unknown one."""

from django.conf import settings
from django.core.checks import Warning, register


@register(deploy=True)
def tasks_leave_the_page(app_configs, **kwargs):
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return [
            Warning(
                "REDIS_URL is not set: Celery's tasks run in the web process that asks for them. A password "
                "reset for an address with an account then answers only once its mail is sent, later than "
                "for an address without one, so the time of the answer tells whether an account has it; "
                "and every mail, rating run and scan holds up the page that started it.",
                hint="Set REDIS_URL, and run a Celery worker and beat (README, docs/deployment.md).",
                id="accounts.W001",
            )
        ]
    return []
