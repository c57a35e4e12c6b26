"""The integrity watch in the admin, for rating officers only (those who approve events): a
month's review page (its flags with their evidence, the events held), where a flag is cleared,
an event held or released and the month scanned again; and the flags as a list."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme

from chess.months import Month
from chess.numbers import whole_number_within
from events.approval import may_approve
from events.models import Event
from events.workflow import WorkflowError, do_hold_event, do_release_event
from grading.admin.lists import ReadOnlyAdmin
from grading.integrity.actions import THRESHOLDS, do_clear_flag, do_set_integrity_threshold
from grading.integrity.selectors import month_review, months_with_flags
from grading.models import Flag, RatingList, Scan, ThresholdChange
from grading.run.broker import Unreachable, send


@admin.register(Flag)
class FlagAdmin(ReadOnlyAdmin):
    list_display = ["summary", "kind", "rating_list", "month", "state", "found_at"]
    list_filter = ["rating_list", "kind", "state", "month"]
    search_fields = ["summary", "events__code"]
    list_select_related = ["rating_list"]
    readonly_fields = [
        "rating_list",
        "kind",
        "month",
        "summary",
        "state",
        "found_by",
        "gone_at",
        "cleared_by",
        "cleared_at",
        "reason",
    ]

    exclude = ["key", "evidence", "events", "players", "found_at", "gone_by"]

    def has_view_permission(self, request, obj=None):
        return may_approve(request.user)

    def has_module_permission(self, request):
        return may_approve(request.user)

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("review/", view(self.review), name="grading_flag_review"),
            path("act/", view(self.act), name="grading_flag_act"),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(
            request, {**(extra_context or {}), "review_url": reverse("admin:grading_flag_review")}
        )

    def review(self, request):
        """A list's month under review: ``?list=<code>&month=YYYY-MM``; an unknown list or a
        month that cannot be read is said, and the default shown."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        lists = list(RatingList.objects.order_by("display_order", "code"))
        rating_list = next((found for found in lists if found.code == request.GET.get("list")), None)
        if request.GET.get("list") and rating_list is None:
            messages.error(request, f"There is no rating list {request.GET['list'][:40]!r}: the first list is shown.")
        rating_list = rating_list or (lists[0] if lists else None)
        month = self.month_asked(request, rating_list)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Integrity review: {rating_list.name if rating_list else 'no list'}, {month}",
            "opts": self.model._meta,
            "lists": lists,
            "month": month,
            "previous": month - 1,
            "next": month + 1,
            "review": month_review(rating_list, month) if rating_list else None,
            "flagged_months": months_with_flags(rating_list) if rating_list else [],
            "here": request.get_full_path(),
            "thresholds": [(repr(value), label) for value, label in THRESHOLDS.items()],
        }
        return render(request, "admin/grading/flag/review.html", context)

    def month_asked(self, request, rating_list) -> Month:
        asked = request.GET.get("month", "")
        if asked:
            try:
                return Month.parse(asked[:20])
            except ValueError as error:
                messages.error(request, f"{error}: the latest month is shown.")
        flagged = months_with_flags(rating_list) if rating_list else []
        return Month.parse(flagged[0][0]) if flagged else Month.of(timezone.localdate()) - 1

    def act(self, request):
        """One officer's step, posted from the review page or an event's decision page: clear a
        flag, hold or release an event (each with a reason), or scan a month again."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        steps = {"clear": self.clear, "hold": self.hold, "release": self.release, "scan": self.scan}
        steps["threshold"] = self.threshold
        step = steps.get(request.POST.get("step", ""))
        try:
            if step is None:
                raise WorkflowError("the step asked for is not one this page knows")
            step(request)
        except WorkflowError as refused:
            messages.error(request, f"Nothing was done: {refused}.")
        following = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(following, {request.get_host()}, request.is_secure()):
            following = reverse("admin:grading_flag_review")
        return redirect(following)

    def clear(self, request):
        flag = do_clear_flag(self.chosen(Flag, request), request.POST.get("reason", ""), acting_user=request.user)
        messages.success(request, f"The flag is cleared: {flag.summary}")

    def hold(self, request):
        event = do_hold_event(self.chosen(Event, request), request.POST.get("reason", ""), acting_user=request.user)
        messages.success(request, f"{event.code} is held from rating: it awaits review.")

    def release(self, request):
        event = do_release_event(self.chosen(Event, request), request.POST.get("reason", ""), acting_user=request.user)
        messages.success(request, f"{event.code} is released: it is {event.get_status_display()} again.")

    def threshold(self, request):
        """The list's threshold changed, with a reason, then its month scanned again."""
        rating_list = RatingList.objects.filter(code=request.POST.get("list", "")).first()
        if rating_list is None:
            raise WorkflowError("there is no such rating list")
        asked = request.POST.get("threshold", "")
        chosen = next((value for value in THRESHOLDS if repr(value) == asked[:20]), None)
        if chosen is None:
            raise WorkflowError(f"{asked[:20]!r} is not one of the chances offered ({', '.join(THRESHOLDS.values())})")
        change = do_set_integrity_threshold(
            rating_list, chosen, request.POST.get("reason", ""), acting_user=request.user
        )
        messages.success(
            request, f"{rating_list.name}'s improbable results are now flagged at {THRESHOLDS[change.after]} or rarer."
        )
        try:
            self.scan(request)
        except WorkflowError as refused:  # the change stands; only its scan waits
            messages.warning(request, f"The month is not scanned again yet: {refused}.")

    def chosen(self, model, request):
        """The flag or event the form names, or WorkflowError saying it is not there."""
        pk = request.POST.get("pk", "")
        number = whole_number_within(pk, 1, 2**63 - 1)
        found = model.objects.filter(pk=number).first() if number is not None else None
        if found is None:
            raise WorkflowError(f"there is no {model._meta.verbose_name} {pk[:20]!r} (deleted meanwhile?)")
        return found

    def scan(self, request):
        rating_list = RatingList.objects.filter(code=request.POST.get("list", "")).first()
        try:
            month = Month.parse(request.POST.get("month", "")[:20])
        except ValueError as error:
            raise WorkflowError(str(error)) from None
        if rating_list is None:
            raise WorkflowError("there is no such rating list")
        try:
            send("grading.tasks.scan_month", (rating_list.pk, str(month), request.user.pk))
        except Unreachable as error:
            raise WorkflowError(f"the scan could not be sent to the workers ({error}); try again later") from None
        messages.success(request, f"{rating_list.name} {month} is scanned: its flags are here once the scan is over.")


@admin.register(Scan)
class ScanAdmin(ReadOnlyAdmin):
    """When each month was scanned, over how much, and what was found."""

    list_display = ["rating_list", "month", "at", "by", "games", "events", "scores", "threshold", "flags", "seconds"]
    list_filter = ["rating_list", "month"]
    list_select_related = ["rating_list", "by"]

    def has_view_permission(self, request, obj=None):
        return may_approve(request.user)

    def has_module_permission(self, request):
        return may_approve(request.user)


@admin.register(ThresholdChange)
class ThresholdChangeAdmin(ReadOnlyAdmin):
    """Each change of a list's threshold of improbable results: when, by whom, from what to what, why.
    Changed on the review page."""

    list_display = ["rating_list", "at", "by", "before", "after", "reason"]
    list_filter = ["rating_list"]
    list_select_related = ["rating_list", "by"]

    def has_view_permission(self, request, obj=None):
        return may_approve(request.user)

    def has_module_permission(self, request):
        return may_approve(request.user)
