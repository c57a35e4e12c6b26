from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render

from . import services
from .engine.periods import Month

from .models import ListEntry, PlayerRating, RatingList, RatingPeriod, RatingRun


class ReadOnlyAdmin(admin.ModelAdmin):
    """Published numbers are never edited by hand: a correction is a new rating run."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RatingList)
class RatingListAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "rule_set", "standard_play", "online", "min_minutes", "max_minutes"]
    list_editable = ["rule_set"]
    search_fields = ["code", "name"]
    prepopulated_fields = {"code": ["name"]}


@admin.register(RatingPeriod)
class RatingPeriodAdmin(admin.ModelAdmin):
    actions = ["rate_again"]
    readonly_fields = ["rating_list", "month", "rule_set", "status", "published_at", "revision"]

    def has_add_permission(self, request):
        return False

    def has_run_permission(self, request):
        return request.user.has_perm("grading.run_rating")

    @admin.action(description="Rate the selected periods again (a revision where results changed)", permissions=["run"])
    def rate_again(self, request, queryset):
        for period in queryset.select_related("rating_list"):
            start_run(self, request, period.rating_list, Month.parse(period.month))

    list_display = ["month", "rating_list", "rule_set", "status", "published_at", "adjustment_a", "adjustment_b"]
    list_filter = ["rating_list", "status", "rule_set"]
    search_fields = ["month"]
    list_select_related = ["rating_list"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = [
        "player", "rating_list", "period", "rating", "type", "games", "points", "last_played", "category", "method",
    ]
    list_filter = [
        "rating_list", "type", "category", "method", ("superseded_at", admin.EmptyFieldListFilter), "period__month",
    ]
    search_fields = ["player__code", "player__surname", "player__forenames"]
    list_select_related = ["player", "rating_list", "period", "period__rating_list"]


class StartRunForm(forms.Form):
    rating_list = forms.ModelChoiceField(queryset=RatingList.objects.all(), label="List")
    month = forms.CharField(max_length=7, help_text="The month to rate, YYYY-MM; it must be over.")

    def clean_month(self):
        try:
            return Month.parse(self.cleaned_data["month"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


def start_run(modeladmin, request, rating_list, month):
    try:
        run = services.start_rating(rating_list, month, trigger="admin", user=request.user)
    except services.RunRefused as refused:
        modeladmin.message_user(request, f"{rating_list.code} {month}: {refused}", messages.ERROR)
        return None
    modeladmin.message_user(request, f"{rating_list.code} {month}: rating run {run.pk} started.", messages.SUCCESS)
    return run


@admin.register(RatingRun)
class RatingRunAdmin(ReadOnlyAdmin):
    list_display = [
        "pk", "period", "trigger", "started_by", "started_at", "finished_at", "outcome", "now", "revision",
        "games", "players_rated",
    ]
    list_filter = ["outcome", "trigger", "period__rating_list"]
    search_fields = ["period__month", "message"]
    list_select_related = ["period", "period__rating_list", "started_by"]

    def has_add_permission(self, request):
        return request.user.has_perm("grading.run_rating")

    @admin.display(description="progress")
    def now(self, run):
        return services.live_progress(run)

    def add_view(self, request, form_url="", extra_context=None):
        """Adding a run is starting one: a list and a month, then the run list shows it."""
        if not self.has_add_permission(request):
            raise PermissionDenied  # the admin's own add view checks this; this one replaces it
        form = StartRunForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            run = start_run(self, request, form.cleaned_data["rating_list"], form.cleaned_data["month"])
            if run:
                return redirect("admin:grading_ratingrun_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": "Start a rating run",
            "form": form,
            "opts": self.model._meta,
        }
        return render(request, "admin/grading/start_run.html", context)


@admin.register(ListEntry)
class ListEntryAdmin(ReadOnlyAdmin):
    list_display = ["period", "revision", "player", "rating", "type", "category", "games", "last_played", "club"]
    list_filter = ["period__rating_list", "revision", "type", "category"]
    search_fields = ["player__code", "player__surname", "period__month"]
    list_select_related = ["period", "period__rating_list", "player", "club"]
