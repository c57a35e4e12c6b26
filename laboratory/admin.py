from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.html import format_html_join

from chess.months import Month
from common.downloads import csv_download
from grading.engine import RULE_SETS
from grading.engine.variants import PARAMETERS
from grading.models import RatingList
from laboratory.health import health_csv, pool_health
from laboratory.models import RuleVariant, SimulatedPlayer, SimulatedRating, Simulation
from laboratory.simulations import SimulationRefused, check_span, do_start_simulation, simulation_csv


def changes_of(variant: RuleVariant) -> str:
    overrides = variant.overrides if isinstance(variant.overrides, dict) else {}
    return ", ".join(f"{name} {value}" for name, value in overrides.items()) or "nothing"


@admin.register(RuleVariant)
class RuleVariantAdmin(admin.ModelAdmin):
    list_display = ["name", "base", "changes", "created_at", "created_by"]
    search_fields = ["name", "description"]
    readonly_fields = ["created_by", "created_at", "parameters"]
    fields = ["name", "base", "overrides", "description", "parameters", "created_by", "created_at"]

    @admin.display(description="what it changes")
    def changes(self, obj):
        return changes_of(obj)

    @admin.display(description="the parameters a variant may change")
    def parameters(self, obj):
        return format_html_join(
            "", "<p><code>{}</code>: {} ({})</p>", ((name, p.help, p.kind) for name, p in PARAMETERS.items())
        )

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class MonthSpanForm(forms.Form):
    """A list and a span of months, as the laboratory's pages ask for them."""

    # By its code, which an address can be written with (the health page's is a GET), not its id.
    rating_list = forms.ModelChoiceField(
        RatingList.objects.order_by("display_order", "code"),
        label="List",
        to_field_name="code",
        error_messages={"invalid_choice": "No rating list has that code."},
    )
    first_month = forms.CharField(label="From", max_length=7, help_text="YYYY-MM")
    last_month = forms.CharField(label="To", max_length=7, help_text="YYYY-MM")

    def clean_month(self, name):
        text = self.cleaned_data[name]
        try:
            return Month.parse(text)
        except ValueError:
            raise forms.ValidationError(f"{text!r} is not a month: write it YYYY-MM.") from None

    def clean_first_month(self):
        return self.clean_month("first_month")

    def clean_last_month(self):
        return self.clean_month("last_month")

    def clean(self):
        data = super().clean()
        if data.get("first_month") and data.get("last_month"):
            try:
                check_span(data["first_month"], data["last_month"])
            except SimulationRefused as refused:
                raise forms.ValidationError(refused_text(refused)) from None
        return data


def refused_text(refused: SimulationRefused) -> str:
    """A refusal as the admin shows it: the command's words, without its options' dashes."""
    return str(refused).replace("--", "")


class SimulationForm(MonthSpanForm):
    rules = forms.ChoiceField(label="Rules", help_text="A stored variant, or a rule set as it is.")
    fide_adjustment = forms.BooleanField(
        label="FIDE's adjustment of March 2024",
        required=False,
        help_text="Raise every rating under 2000 by 0.4 x its distance to 2000 at the start of the first month, "
        "as a change to FIDE's 2024 rules may (try it with and without).",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first_month"].help_text = "The first month to rate again, YYYY-MM."
        self.fields["last_month"].help_text = "The last month, YYYY-MM: a published one."
        variants = [(v.name, f"{v.name}: {v.base}, {changes_of(v)}") for v in RuleVariant.objects.all()]
        self.fields["rules"].choices = [("Variants", variants), ("Rule sets", [(n, n) for n in RULE_SETS])]


@admin.register(Simulation)
class SimulationAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "progress", "created_at", "created_by", "seconds"]
    list_filter = ["status", "rating_list"]

    def has_change_permission(self, request, obj=None):
        return False  # a simulation is made, looked at and deleted; never edited

    def get_urls(self):
        own = [
            path("<int:pk>/csv/", self.admin_site.admin_view(self.csv_view), name="laboratory_simulation_csv"),
            path("health/", self.admin_site.admin_view(self.health_view), name="laboratory_health"),
        ]
        return own + super().get_urls()

    def add_view(self, request, form_url="", extra_context=None):
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = SimulationForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                simulation = do_start_simulation(
                    data["rating_list"],
                    data["first_month"],
                    data["last_month"],
                    data["rules"],
                    acting_user=request.user,
                    fide_adjustment=data["fide_adjustment"],
                )
            except SimulationRefused as refused:
                form.add_error(None, refused_text(refused))
            else:
                self.log_addition(request, simulation, "started")
                simulation.refresh_from_db()
                if simulation.status == Simulation.Status.FAILED and simulation.message.startswith("not started"):
                    messages.error(request, f"Simulation {simulation.pk} {simulation.message}.")
                else:
                    messages.success(request, f"Simulation {simulation.pk} queued: {simulation}.")
                return redirect("admin:laboratory_simulation_change", simulation.pk)
        context = {**self.admin_site.each_context(request), "form": form, "title": "Start a simulation"}
        return render(request, "admin/laboratory/start_simulation.html", context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        simulation = Simulation.objects.select_related("rating_list", "created_by").filter(pk=object_id).first()
        if simulation is None or not self.has_view_permission(request, simulation):
            raise Http404("No such simulation.")
        context = {
            **self.admin_site.each_context(request),
            "simulation": simulation,
            "title": str(simulation),
            "summary": simulation.summary,
            "working": simulation.status in (Simulation.Status.QUEUED, Simulation.Status.RUNNING),
            "charts": charts_of(simulation.summary),
            "opts": self.model._meta,
            "can_delete": self.has_delete_permission(request, simulation),
            # The ten largest falls and the ten largest rises.
            "falls": simulation.players.filter(difference__lt=0).select_related("player").order_by("difference")[:10],
            "rises": simulation.players.filter(difference__gt=0).select_related("player").order_by("-difference")[:10],
        }
        return render(request, "admin/laboratory/simulation.html", context)

    def csv_view(self, request, pk):
        simulation = Simulation.objects.filter(pk=pk).first()
        if simulation is None or not self.has_view_permission(request, simulation):
            raise Http404("No such simulation.")
        span = f"{simulation.rating_list.code}-{simulation.first_month}-{simulation.last_month}"
        return csv_download(simulation_csv(simulation), f"simulation-{simulation.pk}-{span}.csv")

    def health_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = MonthSpanForm(request.GET or None)
        health = None
        if form.is_bound and form.is_valid():
            data = form.cleaned_data
            health = pool_health(data["rating_list"], data["first_month"], data["last_month"])
            if request.GET.get("format") == "csv":
                span = f"{data['rating_list'].code}-{data['first_month']}-{data['last_month']}"
                return csv_download(health_csv(health), f"pool-health-{span}.csv")
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "health": health,
            "title": "The health of the rating pool",
            "csv_query": request.GET.urlencode() + "&format=csv",
            "charts": health_charts(health) if health else None,
        }
        return render(request, "admin/laboratory/health.html", context)

    def get_deleted_objects(self, objs, request):
        """What a deletion takes, counted rather than listed: a simulation owns a row for each
        player and month it rated (Django deletes them by the simulation, without reading them)."""
        simulations = list(objs)
        counts = {
            "simulations": len(simulations),
            "simulated ratings": SimulatedRating.objects.filter(simulation__in=simulations).count(),
            "players compared": SimulatedPlayer.objects.filter(simulation__in=simulations).count(),
        }
        return [str(simulation) for simulation in simulations], counts, set(), []


def chart(canvas: str, kind: str, labels: list, series: list[tuple[str, list]]) -> dict:
    """One chart as static/js/laboratory-charts.js draws it: a "bar" or "line" chart on the
    canvas of that id, a (label, values) per series."""
    return {"canvas": canvas, "type": kind, "labels": labels, "series": [{"label": n, "values": v} for n, v in series]}


def charts_of(summary: dict) -> list[dict]:
    """A simulation's two charts: the differences, and the monthly means under both rules."""
    distribution, months = summary.get("distribution", []), summary.get("months", [])
    return [
        chart("difference-chart", "bar", [row[0] for row in distribution], [("Players", [r[1] for r in distribution])]),
        chart(
            "months-chart",
            "line",
            [row["month"] for row in months],
            [("Published", [row["published"] for row in months]), ("Simulated", [row["simulated"] for row in months])],
        ),
    ]


def health_charts(health) -> list[dict]:
    """The pool health's two charts: calibration by band, and the drift of the pool."""
    bands, months = health.calibration, health.months
    return [
        chart(
            "calibration-chart",
            "line",
            [row["group"] for row in bands],
            [("Expected", [row["expected"] for row in bands]), ("Actual", [row["actual"] for row in bands])],
        ),
        chart(
            "drift-chart",
            "line",
            [row["month"] for row in months],
            [
                ("Mean before", [row["mean_before"] for row in months]),
                ("Mean after", [row["mean_after"] for row in months]),
            ],
        ),
    ]
