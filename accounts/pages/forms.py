"""The accounts' forms: each field refuses what it cannot be with a message of its own."""

import re
import unicodedata

from django import forms
from django.core.exceptions import ValidationError

from chess.federations import FIDE_ID_DIGITS, fide_id
from players.models import is_player_code
from players.selectors import player_by_code

NAME_PUNCTUATION = frozenset(" '’-.")
LICENCE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ./-]*")


def validate_name(value: str) -> None:
    """A person's name: letters (any alphabet, with their accents), spaces, hyphens, apostrophes
    and full stops; nothing a page or a mail could read as markup or a control."""
    if any(unicodedata.category(char)[0] == "C" for char in value):
        raise ValidationError("A name has no control characters: type it again rather than pasting it.")
    letters = [char for char in value if unicodedata.category(char)[0] in "LM"]
    if not letters or any(char not in NAME_PUNCTUATION and unicodedata.category(char)[0] not in "LM" for char in value):
        raise ValidationError("Letters, spaces, hyphens, apostrophes and full stops only.")


def validate_licence(value: str) -> None:
    if not LICENCE.fullmatch(value):
        raise ValidationError("Letters, digits, spaces, hyphens, slashes and full stops only, as on your licence.")


class NameField(forms.CharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=100, validators=[validate_name], **kwargs)


class ApplicationForm(forms.Form):
    forenames = NameField(label="Forenames")
    surname = NameField(label="Surname")
    email = forms.EmailField(
        label="E-mail address", max_length=254, help_text="Your account's address: the answer comes here."
    )
    identity = forms.CharField(
        label="FIDE ID or federation code",
        max_length=20,
        help_text=f"Your FIDE ID ({FIDE_ID_DIGITS}) or your federation code, as on your player page.",
    )
    licence = forms.CharField(
        label="Arbiter licence number", max_length=30, validators=[validate_licence], help_text="As on your licence."
    )
    website = forms.CharField(required=False, label="Leave this empty")  # the honeypot

    def clean_identity(self):
        """{"fide_id": ..., "player": ..., "player_code": ...} of a well-formed FIDE ID, or of a
        federation code a player has."""
        text = self.cleaned_data["identity"].strip().upper()
        if text.isascii() and text.isdigit():
            number = fide_id(text)
            if number is None:
                raise ValidationError(f"A FIDE ID has {FIDE_ID_DIGITS}.")
            return {"fide_id": number, "player": None, "player_code": ""}
        if is_player_code(text):
            player = player_by_code(text)
            if player is None:
                raise ValidationError(
                    f"No player has the federation code {text}: check it on your player page, or give your FIDE ID."
                )
            return {"fide_id": None, "player": player.merged_into or player, "player_code": text}
        raise ValidationError(f"Give your FIDE ID ({FIDE_ID_DIGITS}) or your federation code (such as 123456A).")


class ResetForm(forms.Form):
    email = forms.EmailField(label="Your account's e-mail address", max_length=254)


class EmailChangeForm(forms.Form):
    email = forms.EmailField(label="New e-mail address", max_length=254)
    password = forms.CharField(
        label="Your password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        if not self.user.check_password(self.cleaned_data["password"]):
            raise ValidationError("That is not your password.")
        return self.cleaned_data["password"]
