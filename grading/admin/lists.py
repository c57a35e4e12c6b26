"""The rating lists in the admin: their rule sets and changes of them (each shown before it is
made), their periods, the runs (started by hand from a list or a period), the published ratings
and list entries, the games a run left out."""

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils import timezone

from chess.months import Month
from common.admin import DeleteOneByOne
from grading.models import GameNotRated, ListEntry, PlayerRating, RatingList, RatingPeriod, RatingRun, RuleSetChange
from grading.rule_set_changes import (
    ChangeRefused,
    check_change,
    do_cancel_rule_set_change,
    do_change_rule_set,
    in_force_when_published,
)
from grading.run import runs, workers
from grading.selectors.rule_set_changes import change_effect


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
    list_display = ["code", "name", "rule_set", "rule_set_changes", "standard_play", "online"]
    search_fields = ["code", "name"]
    prepopulated_fields = {"code": ["name"]}

    def get_readonly_fields(self, request, obj=None):
        # Once a month is rated its rules are history: a new method comes in as a rule-set change.
        # The integrity threshold changes on the review page, with a reason, recorded.
        return ["rule_set", "integrity_threshold"] if obj and obj.periods.exists() else ["integrity_threshold"]

    @admin.display(description="changes of rule set")
    def rule_set_changes(self, obj):
        return ", ".join(f"from {change.month}: {change.rule_set}" for change in obj.rule_set_changes.all()) or "–"

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("rule_set_changes")


class RuleSetChangeForm(forms.ModelForm):
    class Meta:
        model = RuleSetChange
        fields = ["rating_list", "month", "rule_set"]

    def clean_month(self):
        return str(parsed_month(self.cleaned_data["month"]))

    def clean(self):
        data = super().clean()
        if all(data.get(name) for name in ("rating_list", "month", "rule_set")):
            try:
                check_change(data["rating_list"], Month.parse(data["month"]), data["rule_set"])
            except ChangeRefused as refused:
                raise forms.ValidationError(str(refused)) from None
        return data


@admin.register(RuleSetChange)
class RuleSetChangeAdmin(admin.ModelAdmin):
    """A list changes its method or rule set from a month after its latest publication; the
    change is made, or undone, under the list's lock by grading/rule_set_changes.py."""

    form = RuleSetChangeForm
    list_display = ["rating_list", "month", "rule_set", "fide_adjustment", "made_by", "made_at"]
    list_filter = ["rating_list", "rule_set"]
    actions = None

    def get_readonly_fields(self, request, obj=None):
        return ["rating_list", "month", "rule_set", "fide_adjustment", "made_by", "made_at"] if obj else []

    def has_add_permission(self, request):
        return request.user.has_perm("grading.run_rating")

    def has_change_permission(self, request, obj=None):
        return request.user.has_perm("grading.run_rating")

    def has_delete_permission(self, request, obj=None):
        if obj and in_force_when_published(obj):
            return False
        return request.user.has_perm("grading.run_rating")

    def add_view(self, request, form_url="", extra_context=None):
        """A change is shown before it is made: what the new rule set would leave out of the
        months it reaches, against the rule set in force (grading.selectors.rule_set_changes).
        It is made once confirmed, and when it leaves out most of their games once that is
        ticked too; the admin's own view then makes it, checking the form again."""
        if request.method != "POST":
            return super().add_view(request, form_url, extra_context)
        if not self.has_add_permission(request):
            raise PermissionDenied  # before anything of the lists is read
        form = self.get_form(request)(request.POST)
        if not form.is_valid():
            return super().add_view(request, form_url, extra_context)  # its page says what is wrong
        data = form.cleaned_data
        effect = change_effect(data["rating_list"], Month.parse(data["month"]), data["rule_set"])
        confirmed = bool(request.POST.get("confirm"))
        if confirmed and (request.POST.get("leave_out_most") or not effect.leaves_out_most):
            return super().add_view(request, form_url, extra_context)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Change the rule set of {data['rating_list'].name} from {data['month']}?",
            "opts": self.model._meta,
            "effect": effect,
            "asked_again": confirmed,  # confirmed without the box ticked
        }
        return render(request, "admin/grading/rulesetchange/confirm.html", context)

    # The form has checked the change; a run holding the list, or a publication since, can still
    # refuse it here, and the page says so instead of "added".
    def save_model(self, request, obj, form, change):
        try:
            # Ticked or not on the confirmation page, which every change passes through.
            obj.pk = do_change_rule_set(
                *(obj.rating_list, Month.parse(obj.month), obj.rule_set),
                acting_user=request.user,
                fide_adjustment=bool(request.POST.get("fide_adjustment")),
            ).pk
        except (ChangeRefused, runs.RunRefused) as refused:
            request.refused = str(refused)

    def delete_model(self, request, obj):
        try:
            do_cancel_rule_set_change(obj, acting_user=request.user)
        except (ChangeRefused, runs.RunRefused) as refused:
            request.refused = str(refused)

    def response_add(self, request, obj, post_url_continue=None):
        return self.refusal(request) or super().response_add(request, obj, post_url_continue)

    def response_delete(self, request, obj_display, obj_id):
        return self.refusal(request) or super().response_delete(request, obj_display, obj_id)

    def refusal(self, request):
        if not hasattr(request, "refused"):
            return None
        self.message_user(request, f"Nothing was changed: {request.refused}.", messages.ERROR)
        return redirect("admin:grading_rulesetchange_changelist")


class RatingPeriodForm(forms.ModelForm):
    class Meta:
        model = RatingPeriod
        fields = ["rating_list", "month", "adjustment_a", "adjustment_b"]

    def clean_month(self):
        return str(parsed_month(self.cleaned_data["month"]))

    # The engine's bounds (docs/rules.md section 6: old + change + A + old x B).
    def clean_adjustment_a(self):
        return in_range(self.cleaned_data["adjustment_a"], 10000)

    def clean_adjustment_b(self):
        return in_range(self.cleaned_data["adjustment_b"], 1)


def in_range(value, bound):
    if value is not None and abs(value) > bound:
        raise forms.ValidationError(f"Between -{bound} and {bound}.")
    return value


PERIOD_FIELDS = [
    *("rating_list", "month", "rule_set", "status", "published_at", "revision"),
    *("adjustment_a", "adjustment_b"),
]


@admin.register(RatingPeriod)
class RatingPeriodAdmin(DeleteOneByOne):
    """A period is made by its first rating run, or here beforehand to give it a drift
    adjustment (A, B). Once published it is read only: its lists were calculated with it."""

    actions = ["rate_again"]
    form = RatingPeriodForm

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        if obj.revision is None:
            return PERIOD_FIELDS[:-2]  # the adjustment can still be set before publication
        return PERIOD_FIELDS

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["rating_list", "month", "adjustment_a", "adjustment_b"]
        return PERIOD_FIELDS

    def has_add_permission(self, request):
        return request.user.has_perm("grading.run_rating")

    def has_change_permission(self, request, obj=None):
        return request.user.has_perm("grading.run_rating") and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and not (
            obj and (obj.revision is not None or obj.runs.exists())
        )

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


class CurrentFilter(admin.SimpleListFilter):
    title = "edition"
    parameter_name = "edition"

    def lookups(self, request, model_admin):
        return [("current", "current (as the lists stand)"), ("superseded", "superseded by a revision")]

    def queryset(self, request, queryset):
        if self.value() == "current":
            return queryset.filter(superseded_at=None)
        if self.value() == "superseded":
            return queryset.exclude(superseded_at=None)
        return queryset


class StateAsJson:
    """A state's breakdown and pending months shown as the JSON they are kept as (the admin
    would print them as Python lists)."""

    exclude = ["pending", "breakdown"]
    readonly_fields = ["pending_json", "breakdown_json"]

    @admin.display(description="pending")
    def pending_json(self, rating):
        return json.dumps(rating.pending)

    @admin.display(description="breakdown")
    def breakdown_json(self, rating):
        return json.dumps(rating.breakdown)


@admin.register(PlayerRating)
class PlayerRatingAdmin(StateAsJson, ReadOnlyAdmin):
    list_display = [
        "player",
        "rating_list",
        "period",
        "edition",
        "rating",
        "type",
        "games",
        "points",
        "last_played",
        "category",
        "method",
    ]
    list_filter = ["rating_list", CurrentFilter, "type", "category", "method", "period__month"]
    search_fields = ["player__code", "player__surname", "player__forenames"]
    list_select_related = ["player", "rating_list", "period", "period__rating_list", "run"]

    @admin.display(description="edition")
    def edition(self, rating):
        """Which publication the row belongs to, and whether a later one replaced it."""
        published = "original" if rating.run.revision == 0 else f"revision {rating.run.revision}"
        if rating.superseded_at:
            return f"{published}, superseded {rating.superseded_at:%Y-%m-%d %H:%M}"
        return f"{published}, current"


class StartRunForm(forms.Form):
    rating_list = forms.ModelChoiceField(queryset=RatingList.objects.all(), label="List")
    month = forms.CharField(max_length=20, help_text="The month to rate, YYYY-MM; it must be over.")

    def clean_month(self):
        return parsed_month(self.cleaned_data["month"])


def parsed_month(text: str) -> Month:
    try:
        return Month.parse(text)
    except ValueError as error:
        raise forms.ValidationError(str(error)) from None


def start_run(modeladmin, request, rating_list, month):
    try:
        run = runs.do_start_rating(rating_list, month, trigger="admin", acting_user=request.user)
    except runs.RunRefused as refused:
        modeladmin.message_user(request, f"{rating_list.name} {month}: {refused}", messages.ERROR)
        return None
    run.refresh_from_db()
    if run.outcome == RatingRun.Outcome.FAILED:  # in process (no worker), it has run already
        modeladmin.message_user(
            request, f"{rating_list.name} {month}: rating run {run.pk} failed: {run.message}", messages.ERROR
        )
    elif run.outcome == RatingRun.Outcome.QUEUED and run.progress == runs.UNSENT:
        modeladmin.message_user(request, f"{rating_list.name} {month}: {unsent(run)}", messages.WARNING)
    elif run.outcome in (RatingRun.Outcome.QUEUED, RatingRun.Outcome.RUNNING):
        modeladmin.message_user(
            request,
            f"{rating_list.name} {month}: rating run {run.pk} started; its progress "
            "shows in this list (reload to follow it).",
            messages.SUCCESS,
        )
    else:
        modeladmin.message_user(
            request,
            f"{rating_list.name} {month}: rating run {run.pk} {run.get_outcome_display()}: {run.message}",
            messages.SUCCESS,
        )
    return run


def unsent(run) -> str:
    return (
        f"rating run {run.pk} is queued and will start when the broker is back: the workers cannot "
        "be reached now (Redis is down), so it waits; nothing more is needed."
    )


@admin.register(RatingRun)
class RatingRunAdmin(ReadOnlyAdmin):
    list_display = ["pk", "period", "outcome", "now", "summary", "trigger", "started_by", "started_at"]
    list_filter = ["outcome", "period__rating_list"]  # triggers name events and runs: too many to list
    search_fields = ["period__month", "message"]
    list_select_related = ["period", "period__rating_list", "started_by"]

    def has_add_permission(self, request):
        return request.user.has_perm("grading.run_rating")

    @admin.display(description="progress")
    def now(self, run):
        # The outcome column says how a finished run ended: its progress would only repeat it.
        if run.outcome in (RatingRun.Outcome.QUEUED, RatingRun.Outcome.RUNNING):
            return workers.live_progress(run)
        return "-"

    @admin.display(description="message")
    def summary(self, run):
        """The message's first line, in a line of its own width: the whole of it is on the run's page."""
        first = run.message.split("; ")[0].removeprefix(f"{run.period}: ")  # the period has a column
        more = run.message.count("; ")
        return first + (f" (and {more} more)" if more else "")

    def add_view(self, request, form_url="", extra_context=None):
        """Adding a run is starting one: a list and a month, then the run list shows it."""
        if not self.has_add_permission(request):
            raise PermissionDenied  # the admin's own add view checks this; this one replaces it
        form = StartRunForm(request.POST or None, initial={"month": str(Month.of(timezone.localdate()) - 1)})
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


@admin.register(GameNotRated)
class GameNotRatedAdmin(ReadOnlyAdmin):
    """The games a publication of an Elo list left out under FIDE's conditions on events."""

    list_display = ["game", "event", "reason", "run"]
    list_filter = ["run__period__rating_list"]
    search_fields = ["game__event__code", "reason", "run__period__month"]
    list_select_related = ["run__period__rating_list", "game__event", "game__white_entry", "game__black_entry"]

    @admin.display(ordering="game__event__code")
    def event(self, row):
        return row.game.event.code
