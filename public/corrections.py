"""Report an error, from a player's or an event's page (corrections/reporting.py)."""

from django import forms
from django.http import Http404
from django.shortcuts import render

from common.cache import within_rate
from common.lookups import by_code
from common.middleware import client_address
from corrections.models import Report, new_reference
from corrections.reporting import MOST_CHARACTERS, send_report
from events.selectors import events_of_player, public_events
from players.selectors import player_by_code

ANOTHER = "another"  # a player's report of a result in an event not listed
PER_ADDRESS_A_DAY = 5  # a reporter with more to say says it in one report, or waits for the reply
PER_CONNECTION_AN_HOUR = 10


class ReportForm(forms.Form):
    kind = forms.ChoiceField(label="What is wrong", widget=forms.RadioSelect)
    message = forms.CharField(
        label="Tell us",
        widget=forms.Textarea(attrs={"rows": 6}),
        min_length=10,
        max_length=MOST_CHARACTERS,
        help_text="What is wrong and what is right: the event, the round, the opponent, the date.",
    )
    other_record = forms.CharField(
        label="The other record's code",
        required=False,
        max_length=20,
        help_text="Only when two records are one person: the code of the other one.",
    )
    email = forms.EmailField(label="Your e-mail address", max_length=254, help_text="The reply comes here.")
    website = forms.CharField(required=False, label="Leave this empty")  # the honeypot

    event = forms.ChoiceField(
        label="Which event",
        required=False,
        help_text="For a wrong result: its arbiter reads the report too.",
    )

    def __init__(self, *args, player=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player
        kinds = Report.Kind.choices if player else [(Report.Kind.RESULT, Report.Kind.RESULT.label)]
        self.fields["kind"].choices = [(value, label[0].upper() + label[1:]) for value, label in kinds]
        if player:
            self.events = {event.code: event for event in events_of_player(player)}
            self.fields["event"].choices = [
                ("", "(not about a result)"),
                *((code, f"{event.name} ({event.end_date:%b %Y})") for code, event in self.events.items()),
                (ANOTHER, "another event: name it in Tell us, below"),
            ]
        else:
            del self.fields["other_record"], self.fields["event"]
            self.fields["kind"].initial = Report.Kind.RESULT
        self.order_fields(["kind", "event", "message", "other_record", "email"])

    def clean(self):
        data = super().clean()
        if data.get("kind") == Report.Kind.SAME_PERSON:
            other = player_by_code(data.get("other_record", "")) if data.get("other_record") else None
            if other is None:
                self.add_error("other_record", "Give the code of the other record: it is on that player's page.")
            elif other.pk == self.player.pk:
                self.add_error("other_record", "That is this record's own code: give the other one's.")
        if self.player and data.get("kind") == Report.Kind.RESULT and not data.get("event"):
            self.add_error("event", "Choose the event the result is in (or another event, named in your message).")
        return data

    def chosen_event(self):
        """The event a player's report of a wrong result names, if it is one of theirs listed."""
        return self.events.get(self.cleaned_data.get("event", "")) if self.player else None


def subject_of(request):
    """(player, event) the report is about, from ``?player=`` or ``?event=``; or 404."""
    if code := request.GET.get("player", ""):
        player = player_by_code(code[:20])
        if player is not None and not player.merged_into_id:
            return player, None
    elif (code := request.GET.get("event", "")) and (event := by_code(public_events(), code[:40])):
        return None, event
    raise Http404("Report an error about what? The address names no player or event of ours.")


def report_error(request):
    player, event = subject_of(request)
    form = ReportForm(request.POST or None, player=player)
    context = {"form": form, "player": player, "event": event}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["website"]:  # a robot: told what a person would be (a report's reference), nothing stored
            return render(
                request,
                "public/corrections/sent.html",
                {**context, "reference": new_reference(), "email": data["email"]},
            )
        if refusal := too_many(request, data["email"]):
            form.add_error(None, refusal)
        else:
            report = send_report(
                data["kind"],
                data["email"],
                data["message"],
                player=player,
                event=event or form.chosen_event(),
                other_record=data.get("other_record", ""),
            )
            return render(
                request,
                "public/corrections/sent.html",
                {**context, "reference": report.reference, "email": report.email},
            )
    status = 400 if form.is_bound else 200
    return render(request, "public/corrections/report.html", context, status=status)


def too_many(request, email) -> str | None:
    if not within_rate(f"reports-connection:{client_address(request)}", PER_CONNECTION_AN_HOUR, 3600)[0]:
        return "Too many reports from your connection: please try again in an hour."
    if not within_rate(f"reports-address:{email.strip().lower()}", PER_ADDRESS_A_DAY, 86400)[0]:
        return f"This address has sent {PER_ADDRESS_A_DAY} reports today: the officers answer those first."
    return None
