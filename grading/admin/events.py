"""The events' admin as the ratings extend it: a rating officer uploads an event file there (a
league's results sent in by e-mail), checked against the rating lists as the arbiters' page
checks it, recorded as the officer's upload, for an arbiter or none. The rest of the screen is
events/admin/events.py."""

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html

from common.admin import username
from events.admin import events as events_admin
from events.models import Event
from events.uploads.forms import UploadForm
from events.uploads.uploading import upload_from_form
from grading.admin.lists import unsent
from grading.integrity.scanning import scan_event
from grading.integrity.selectors import event_flags, event_flags_gone
from grading.models import Flag, RatingRun
from grading.run.runs import UNSENT
from grading.selectors.game_counts import game_counts
from grading.selectors.history import lists_for_uploads


def arbiters():
    """The active users who may upload their own events."""
    submits = Permission.objects.filter(codename="submit_results", content_type__app_label="events")
    may = Q(groups__permissions__in=submits) | Q(user_permissions__in=submits)
    return get_user_model().objects.filter(may, is_active=True).distinct().order_by("username")


class OfficersUploadForm(UploadForm):
    arbiter = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(),
        required=False,
        empty_label="none",
        help_text="Whose event it is: it is on their pages, and they may correct it. "
        "A corrected file for a stored event keeps its arbiter.",
    )
    field_order = ["file", "arbiter"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["arbiter"].queryset = arbiters()


@admin.register(Event)
class EventAdmin(events_admin.EventAdmin):
    def has_add_permission(self, request):
        return request.user.has_perm("events.add_event")  # adding an event is uploading its file

    def add_view(self, request, form_url="", extra_context=None):
        """Upload an event file: the arbiters' page's check and report, then the decision page."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = OfficersUploadForm(request.POST or None, request.FILES or None)
        attempt = None
        if request.method == "POST" and form.is_valid():
            named = form.cleaned_data["arbiter"]
            attempt = upload_from_form(form, request.user, lists_for_uploads(), staff=True, arbiter=named)
            if event := attempt.event:
                self.message_user(
                    request,
                    f"{event.code} is checked, {username(event.arbiter)} its arbiter: read the report, then decide.",
                    messages.SUCCESS,
                )
                if named and event.arbiter != named:
                    self.message_user(
                        request,
                        f"{event.code} was stored before: the corrected file keeps its arbiter, not {named}.",
                        messages.WARNING,
                    )
                if self.has_approve_permission(request):
                    return redirect("admin:events_event_decide", event.pk)
                return redirect("admin:events_event_change", event.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": "Upload an event file",
            "opts": self.model._meta,
            "form": form,
            **(attempt.context() if attempt else {}),
        }
        return render(request, "admin/events/event/upload.html", context)

    def decide(self, request, pk):
        return self.told_unsent(request, pk, super().decide(request, pk))

    def length(self, request, pk):
        return self.told_unsent(request, pk, super().length(request, pk))

    def told_unsent(self, request, pk, response):
        """After an event's page posted a step that went through (approve, send back, its length):
        the runs it queued that Redis down could not send, said."""
        if request.method == "POST" and response.status_code == 302:
            self.tell_unsent(request, Event.objects.filter(pk=pk))
        return response

    def decision_context(self, event) -> dict:
        # Which games FIDE's conditions would leave out, with today's ratings (Elo lists only),
        # until it is rated (then its public page says which they left out); and the integrity
        # watch's flags on its results, scanned now against its players' year.
        scan_event(event)
        return {
            "counts": game_counts(event),
            "integrity": {
                "flags": event_flags(event),
                "gone": event_flags_gone(event),
                "here": reverse("admin:events_event_decide", args=[event.pk]),
            },
        }

    def apply(self, request, queryset, step, done):  # the list's actions: approve, send back, lengths
        super().apply(request, queryset, step, done)
        self.tell_unsent(request, queryset)

    def tell_unsent(self, request, events):
        """The runs an approval (or sending back, or a length approved) queued for months already
        published, whose message Redis down could not take: the decision is kept, and the run
        waits for it."""
        waiting = RatingRun.objects.filter(
            period__rating_list__in=events.values("rating_list"), outcome=RatingRun.Outcome.QUEUED, progress=UNSENT
        ).select_related("period__rating_list")
        for run in waiting:
            self.message_user(
                request, f"{run.period.rating_list.name} {run.period.month}: {unsent(run)}", messages.WARNING
            )

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        return [*fields, "integrity_flags"] if self.has_approve_permission(request) else fields

    @admin.display(description="integrity watch")
    def integrity_flags(self, event):
        flags = event.flags.filter(state=Flag.State.OPEN).count()
        told = f"{flags} open flag{'s' if flags != 1 else ''}" if flags else "no open flag"
        held = "; held from rating, awaiting review" if event.status == Event.Status.HELD else ""
        return format_html(
            '{}{} (<a href="{}#integrity">read them on its decision page</a>)',
            told,
            held,
            reverse("admin:events_event_decide", args=[event.pk]),
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # "Save and add another" would lead to the upload form, not to another event like this one.
        extra_context = {**(extra_context or {}), "show_save_and_add_another": False}
        return super().change_view(request, object_id, form_url, extra_context)
