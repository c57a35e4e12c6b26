"""The officers' queue of error reports: read one, take it in hand, answer it (the reply mailed
to its reporter), resolve or decline it. Every step is kept in the report's history."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect
from django.urls import path

from common.admin import Kept, KeptInline
from corrections.models import Report, ReportChange
from corrections.reporting import AnswerRefused, do_answer_report


class AnswerForm(forms.Form):
    state = forms.ChoiceField(
        label="The report is now",
        choices=[(value, label) for value, label in Report.State.choices if value != Report.State.NEW],
    )
    reply = forms.CharField(
        label="Reply to the reporter", required=False, widget=forms.Textarea(attrs={"rows": 5, "cols": 80})
    )
    note = forms.CharField(
        label="Note for the officers", required=False, widget=forms.Textarea(attrs={"rows": 2, "cols": 80})
    )


class ReportChangeInline(KeptInline):
    model = ReportChange
    fields = ["at", "state", "by", "reply", "replied_at", "refused", "note"]
    verbose_name_plural = "history"


@admin.register(Report)
class ReportAdmin(Kept):
    list_display = ["reference", "kind", "about", "state", "created_at", "state_changed_at"]
    list_display_links = ["reference", "about"]
    list_filter = ["state", "kind"]
    search_fields = ["reference", "about", "message", "email", "other_record"]
    readonly_fields = [
        "reference",
        "kind",
        "about",
        "player",
        "event",
        "other_record",
        "message",
        "email",
        "created_at",
        "state",
    ]
    exclude = ["state_changed_at"]
    inlines = [ReportChangeInline]

    def has_add_permission(self, request):
        return False

    def get_urls(self):
        view = self.admin_site.admin_view
        return [path("<int:pk>/answer/", view(self.answer), name="corrections_report_answer"), *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        report = self.get_object(request, object_id)
        initial = {
            "state": Report.State.IN_HAND if report and report.state == Report.State.NEW else report and report.state
        }
        answering = request.user.has_perm("corrections.change_report")
        extra = {"answer_form": AnswerForm(initial=initial) if answering else None}
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    def answer(self, request, pk):
        if not request.user.has_perm("corrections.change_report"):
            raise PermissionDenied
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        report = get_object_or_404(Report, pk=pk)
        form = AnswerForm(request.POST)
        if not form.is_valid():
            messages.error(
                request, "Nothing was done: " + " ".join(e for errors in form.errors.values() for e in errors)
            )
        else:
            try:
                report = do_answer_report(report, **form.cleaned_data, acting_user=request.user)
            except AnswerRefused as refused:
                messages.error(request, f"Nothing was done: {refused}")
            else:
                mailed = " Your reply is mailed to the reporter." if form.cleaned_data["reply"].strip() else ""
                messages.success(request, f"Report {report.reference} is {report.get_state_display()}.{mailed}")
        return redirect("admin:corrections_report_change", report.pk)


@admin.register(ReportChange)
class ReportChangeAdmin(Kept):
    list_display = ["report", "state", "by", "at", "replied_at"]
    list_filter = ["state"]
    search_fields = ["report__about", "reply", "note"]
    list_select_related = ["report", "by"]

    def has_add_permission(self, request):
        return False
