"""What ``manage.py check --deploy`` says of the alerts' mail: a production site that would
print its mails on a console, or write links a mail program may not follow, is told so."""

from django.conf import settings
from django.core.checks import Warning, register


@register(deploy=True)
def mail_is_sent(app_configs, **kwargs):
    found = []
    if not settings.EMAIL_HOST:
        found.append(
            Warning(
                "EMAIL_HOST is not set: alert mails and replies to error reports are printed on the console, not sent.",
                hint="Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS).",
                id="alerts.W001",
            )
        )
    if not settings.SITE_URL.startswith("https://"):
        found.append(
            Warning(
                f"SITE_URL is {settings.SITE_URL!r}: the links in mails, one-click unsubscribe included "
                "(RFC 8058), must be https.",
                hint="Set SITE_URL to the site's address as the public reaches it, e.g. https://ratings.example.org.",
                id="alerts.W002",
            )
        )
    return found
