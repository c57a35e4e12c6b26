"""The alerts' mails: each in plain text and HTML, each with the address's own links, and those
sent to followers with the one-click unsubscribe of RFC 8058 (List-Unsubscribe and
List-Unsubscribe-Post), which mail programs show as an Unsubscribe button."""

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import get_template
from django.urls import reverse
from django.utils.crypto import salted_hmac

from common.outgoing_mail import site_url


def unsubscribe_token(follower) -> str:
    """The token of the follower's unsubscribe link, derived from its key: the link travels in
    a header every relay reads, and must open nothing but the unsubscription."""
    return salted_hmac("alerts.unsubscribe", follower.key, algorithm="sha256").hexdigest()[:32]


def unsubscribe_path(follower) -> str:
    return reverse("alerts-unsubscribe", args=[follower.pk, unsubscribe_token(follower)])


def links(follower) -> dict:
    return {
        "confirm_url": site_url(reverse("alerts-confirm", args=[follower.key])),
        "manage_url": site_url(reverse("alerts-manage", args=[follower.key])),
        "unsubscribe_url": site_url(unsubscribe_path(follower)),
    }


class Letter:
    """A mail's two templates, read once and rendered for each follower."""

    def __init__(self, name: str):
        self.text = get_template(f"alerts/mail/{name}.txt")
        self.html = get_template(f"alerts/mail/{name}.html")

    def to(self, follower, subject: str, context: dict, unsubscribe=True) -> EmailMultiAlternatives:
        context = {**context, **links(follower)}
        headers = {}
        if unsubscribe:
            headers = {
                "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                "Auto-Submitted": "auto-generated",
            }
        message = EmailMultiAlternatives(
            subject, self.text.render(context), settings.DEFAULT_FROM_EMAIL, [follower.email], headers=headers
        )
        message.attach_alternative(self.html.render(context), "text/html")
        return message
