"""Reading the accounts' mails as their recipients would: the link in the plain text."""

import re

SITE = "https://ratings.example.org"  # SITE_URL under the smtp_server fixture


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def link_in(message, path: str) -> str:
    """The site path of the first link under ``path`` (``/accounts/reset/``) the mail has."""
    found = re.search(rf"{re.escape(SITE)}({re.escape(path)}\S+)", text_of(message))
    assert found, text_of(message)
    return found.group(1)
