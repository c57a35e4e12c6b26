"""The events in the admin: the list waiting for a decision, each event's screen with its entries,
games and history, and the decision page (approve, send back, register visitors, approve a long
event's length). Registered once, by grading/admin/events.py, which extends it with what the
ratings add (an officer's upload, the integrity watch's flags, the runs queued)."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse

from chess.dates import written
from chess.time_controls import TimeControl
from common.admin import DeleteOneByOne, KeptInline, username
from events import approval, lengths, workflow
from events.admin.approvals import ApprovalsAdmin, length_message
from events.models import Entry, Event, EventChange, Upload
from events.uploads import matching


class UploadInline(admin.TabularInline):
    model = Upload
    extra = 0
    fields = ["original_name", "format", "uploader", "uploaded_at", "sha256"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    @admin.display(description="uploaded by")
    def uploader(self, upload):
        return username(upload.uploaded_by)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["pin", "surname", "forenames", "code", "federation", "birth_date", "player", "match"]
    readonly_fields = ["pin", "surname", "forenames", "code", "federation", "birth_date", "match"]
    autocomplete_fields = ["player"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class EventChangeInline(KeptInline):
    model = EventChange
    fields = ["status", "step", "by", "at", "note"]
    verbose_name_plural = "history"


class EventForm(forms.ModelForm):
    def clean_time_control(self):
        """Stored as the site writes it, so that every reader (the list it goes on, the playing
        time an Elo list asks, docs/rules.md 16.1) reads what staff meant; text it cannot read is
        refused, never stored to be taken for no time control."""
        text = self.cleaned_data["time_control"].strip()
        if not text:
            return ""
        control = TimeControl.from_text(text)
        if control is None:
            raise forms.ValidationError(
                f"Cannot read the time control {text[:100]!r}: write it as, for example, 90+30 (minutes and "
                "seconds a move) or 40/90, 30 + 30s (40 moves in 90 minutes, then 30 minutes, 30 seconds a move)."
            )
        return str(control)[:100]

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if self.instance.pk and start and end:
            if end < start:
                raise forms.ValidationError("The event cannot end before it starts.")
            outside = self.instance.games.exclude(date__range=(start, end)).order_by("date").first()
            if outside:
                raise forms.ValidationError(
                    f"A game is dated {written(outside.date)} (round {outside.round or '-'}), outside these dates: "
                    "every game must fall within the event."
                )
        return data


class DecisionForm(forms.Form):
    reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=2000,
        label="Reason (to send back)",
        help_text="The arbiter reads it on their event's page.",
    )
    visitors = forms.BooleanField(
        required=False,
        label="Register the players of other federations too",
        help_text="Left unticked, they stay on no record and their games are not rated.",
    )


class ReasonForm(ActionForm):
    # No length here: a form error would only say "No action selected"; do_send_back_event says why.
    reason = forms.CharField(required=False, label="Reason (to send back)")


class WaitingForYou(admin.SimpleListFilter):
    """What the officer may approve now (approval.approvable_by)."""

    title = "approval"
    parameter_name = "waiting"

    def lookups(self, request, model_admin):
        return [("you", "waiting for your approval")]

    def queryset(self, request, queryset):
        return queryset.filter(approval.approvable_by(request.user)) if self.value() == "you" else queryset


class EventAdmin(ApprovalsAdmin, DeleteOneByOne):
    list_display = ["code", "status", "name", "rating_list", "start_date", "arbiter"]
    list_filter = [WaitingForYou, "status", "rating_list", "kind", "online", "start_date"]
    search_fields = ["code", "name", "organiser", "arbiter__username"]
    date_hierarchy = "start_date"
    list_select_related = ["rating_list", "arbiter"]
    readonly_fields = [
        "the_arbiter",
        "status",
        "status_changed_at",
        "changed_by",
        "sent_back_reason",
        "submission_index",
        "length_approval",
        "fast_classic_approval",
        "visitors_waiting",
        "latest_report",
    ]
    exclude = ["arbiter", "status_changed_by"]
    inlines = [EntryInline, UploadInline, EventChangeInline]
    form = EventForm
    action_form = ReasonForm
    actions = ["approve", "send_back", "register_visitors", "approve_length"]

    def has_approve_permission(self, request):
        return approval.may_approve(request.user)

    @admin.display(description="arbiter")
    def the_arbiter(self, event):
        return username(event.arbiter)

    @admin.display(description="status changed by")
    def changed_by(self, event):
        return username(event.status_changed_by)

    @admin.display(description="players of other federations on no record")
    def visitors_waiting(self, event):
        waiting = approval.unregistered_visitors(event)
        if not waiting:
            return "-"
        names = ", ".join(f"{entry.name} ({entry.federation})" for entry in waiting[:10])
        return (
            f"{names}{', ...' if len(waiting) > 10 else ''}: their games are not rated until they are registered "
            '(approve with the box ticked, or the action "Register the players of other federations")'
        )

    @admin.display(description="length approval")
    def length_approval(self, event):
        if event.length_approved:
            return f"Length approved {lengths.approval_text(event)}"
        if event.needs_length_approval:
            return (
                f"Not approved: the event lasts {event.days} days, more than 90, and a list rated by the Elo "
                "method rates it only once its length is approved"
            )
        return f"Not needed: the event lasts {event.days} day{'s' if event.days != 1 else ''}"

    @admin.display(description="report of the latest upload")
    def latest_report(self, event):
        upload = event.uploads.order_by("-uploaded_at").first()
        return render_to_string("events/report.html", {"report": upload.report}) if upload else "-"

    def get_urls(self):
        decide = path("<int:pk>/decide/", self.admin_site.admin_view(self.decide), name="events_event_decide")
        return [decide, *self.approval_urls(), *super().get_urls()]

    def decide(self, request, pk):
        """Approve, or send back with a reason, from the event's own page."""
        event = Event.objects.filter(pk=pk).first()
        if event is None or not self.has_approve_permission(request):
            raise PermissionDenied
        form = DecisionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                if "approve" in request.POST:
                    approval.do_approve_event(event, acting_user=request.user, visitors=form.cleaned_data["visitors"])
                    self.message_user(request, f"{event.code} is approved for rating.", messages.SUCCESS)
                else:
                    workflow.do_send_back_event(event, form.cleaned_data["reason"], acting_user=request.user)
                    to = f" to {event.arbiter}" if event.arbiter else ""
                    self.message_user(request, f"{event.code} is sent back{to}.", messages.SUCCESS)
                return redirect("admin:events_event_change", event.pk)
            except workflow.WorkflowError as refused:
                form.add_error(None, str(refused))
        upload = event.uploads.order_by("-uploaded_at").first()
        context = {
            **self.admin_site.each_context(request),
            "title": f"Approve or send back {event.code}",
            "event": event,
            "form": form,
            "opts": self.model._meta,
            "report": upload.report if upload else None,
            "entries": event.entries.select_related("player").order_by("pin"),
            "visitors": approval.unregistered_visitors(event),
            "length_approval": lengths.approval_text(event) if event.length_approved else "",
            # A file the officer uploaded is theirs to submit: approving it records that first.
            "approvable": approval.approvable(event, request.user),
            **self.decision_context(event),
        }
        return render(request, "admin/events/event/decide.html", context)

    def decision_context(self, event) -> dict:
        """More for the decision page, from the apps above: grading/admin/events.py adds the
        preview of FIDE's conditions on an event going on a list rated by the Elo method."""
        return {}

    def history_view(self, request, object_id, extra_context=None):
        # The workflow writes EventChange rows, not the admin's log: both are the event's history.
        workflow = EventChange.objects.filter(event_id=object_id).select_related("by") if object_id.isdigit() else []
        return super().history_view(request, object_id, {**(extra_context or {}), "workflow": workflow})

    def has_add_permission(self, request):
        return False  # an event comes from its file: an upload, or import_event

    def view_on_site(self, event):
        return reverse("event", args=[event.code]) if event.in_rating else None  # public once approved

    # An approved or rated event is corrected by sending it back (its games then leave the
    # months they were rated in, which are revised), not edited where it stands.
    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and not (obj and obj.in_rating)

    def has_delete_permission(self, request, obj=None):
        # Ratings were (or are about to be) calculated from it: send it back first, which
        # takes its games out of the lists.
        return super().has_delete_permission(request, obj) and not (obj and obj.in_rating)

    def save_model(self, request, obj, form, change):
        if "rating_list" in form.changed_data:
            obj.list_overridden = True
        # An approval of the event's length was for the dates it had (cleared by lengths.new_dates).
        approved_for = Event.objects.get(pk=obj.pk).length_text if change and obj.length_approved else None
        super().save_model(request, obj, form, change)
        if approved_for:
            lengths.new_dates(obj, request.user, approved_for)

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is Entry:
            chosen = [entry.pk for entry, fields in formset.changed_objects if "player" in fields]
            if chosen:
                matching.players_chosen(form.instance, chosen)

    @admin.action(description="Approve the selected events for rating", permissions=["approve"])
    def approve(self, request, queryset):
        def approve_unless_undecided(event):
            # A list of events is approved unread: one whose report suggests a record for a new
            # player must be read, lest the player become a duplicate.
            if undecided := matching.undecided_suggestions(event):
                raise workflow.WorkflowError(
                    f"{'; '.join(undecided[:5])}{'; ...' if len(undecided) > 5 else ''}: choose their records in "
                    "the event's entries, or approve it from its own page once read"
                )
            approval.do_approve_event(event, acting_user=request.user)

        self.apply(request, queryset, approve_unless_undecided, "approved")

    @admin.action(description="Send the selected events back to their arbiters", permissions=["approve"])
    def send_back(self, request, queryset):
        reason = request.POST.get("reason", "")
        self.apply(
            request,
            queryset,
            lambda event: workflow.do_send_back_event(event, reason, acting_user=request.user),
            "sent back",
        )

    @admin.action(
        description="Register the players of other federations of the selected events", permissions=["approve"]
    )
    def register_visitors(self, request, queryset):
        self.apply(
            request,
            queryset,
            lambda event: approval.do_register_visitors(event, acting_user=request.user),
            "had their players of other federations registered",
        )

    @admin.action(description="Approve the length of the selected events (over 90 days)", permissions=["approve"])
    def approve_length(self, request, queryset):
        def approve(event):
            approved = lengths.do_approve_length(event, acting_user=request.user)
            self.message_user(request, length_message(approved), messages.SUCCESS)

        self.apply(request, queryset, approve, None)

    def apply(self, request, queryset, step, done):
        """``step`` on each event, each refusal told with its event's code, then how many ``done``
        (None: each step tells what it did)."""
        count = 0
        for event in queryset:
            try:
                step(event)
                count += 1
            except workflow.WorkflowError as refused:
                self.message_user(request, f"{event.code}: {refused}", messages.ERROR)
        if count and done:
            self.message_user(request, f"{count} event{'s' if count != 1 else ''} {done}.", messages.SUCCESS)
