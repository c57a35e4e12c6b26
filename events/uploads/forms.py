from django import forms
from django.conf import settings

from events.formats.base import MOST_SUBMISSIONS
from events.models import Event
from events.uploads.checking import EventDetails


class UploadForm(forms.Form):
    """An event file and what it may lack: the arbiters' upload page and the admin's."""

    file = forms.FileField(
        required=False,
        help_text="A FIDE TRF file, an ECF results file, or a CSV of games (see the template).",
    )
    kept = forms.CharField(required=False, widget=forms.HiddenInput, max_length=64)
    code = forms.CharField(
        max_length=40,
        required=False,
        label="Event code",
        help_text="Needed when the file has none (TRF and CSV files).",
    )
    name = forms.CharField(max_length=200, required=False, label="Event name", help_text="Overrides the file's.")
    start_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    time_control = forms.CharField(
        max_length=100, required=False, help_text="Needed when the file has none, e.g. 90+30 or 15+10."
    )
    online = forms.BooleanField(required=False, label="Played online")
    kind = forms.ChoiceField(choices=[("", "as the file says")] + Event.Kind.choices, required=False)
    submission_index = forms.IntegerField(
        min_value=1, max_value=MOST_SUBMISSIONS, required=False, help_text="Leave empty to take the next one."
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload is None:
            if self.data.get("file"):  # a file part with filename="": Django reads it as a plain field
                raise forms.ValidationError(
                    'The file was sent without a name (filename=""): send it with its name, such as results.trf.'
                )
            if not self.data.get("kept"):
                raise forms.ValidationError("Choose the file to upload.")
            return None
        if upload.size > settings.MAX_UPLOAD_BYTES:
            limit = settings.MAX_UPLOAD_BYTES // (1024 * 1024)
            raise forms.ValidationError(f"The file is larger than {limit} MB: no event file is that large.")
        return upload

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", "The event cannot end before it starts.")
        return data

    def details(self):
        data = self.cleaned_data
        return EventDetails(
            code=data["code"].strip(),
            name=data["name"].strip(),
            start_date=data["start_date"],
            end_date=data["end_date"],
            time_control=data["time_control"].strip(),
            online=data["online"],
            kind=data["kind"],
            submission_index=data["submission_index"],
        )
