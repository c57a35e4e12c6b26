from django import forms

from mails.choices import DESCRIPTIONS
from mails.models import Kind


class MailChoicesForm(forms.Form):
    """A box for each kind of mail the user may receive, ticked for those on: a box not ticked
    (absent from the POST) turns its kind off."""

    def __init__(self, *args, kinds, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in kinds:
            self.fields[kind] = forms.BooleanField(
                label=Kind(kind).label,
                required=False,
                help_text=DESCRIPTIONS[kind],
                widget=forms.CheckboxInput(attrs={"aria-describedby": f"id_{kind}_help"}),
            )

    def chosen(self) -> dict[str, bool]:
        return {kind: bool(self.cleaned_data[kind]) for kind in self.fields}
