"""Public event pages: the index of approved and rated events and of those submitted or held for
review, and each event's crosstable (Swiss, round robin) or match card (team match), as
grading.selectors.crosstables reads it (a submitted or held event's page gives its status alone)."""

from html import escape
from urllib.parse import quote

import django_filters
import django_tables2 as tables
from django import forms
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from events.models import Event
from events.selectors import STATUS_ONLY, public_event_by_code, public_events, steps_so_far
from grading.models import RatingList
from grading.selectors.crosstables import event_crosstable
from grading.selectors.game_counts import game_counts
from public.lists.tables import PER_PAGE, page_of
from public.rendering import rated_cells, ratings_in_cells


class EventFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="by_name", label="Name or code", max_length=100)
    rating_list = django_filters.ModelChoiceFilter(
        queryset=RatingList.objects.order_by("display_order", "code"),
        to_field_name="code",
        label="List",
        empty_label="All lists",
    )
    kind = django_filters.ChoiceFilter(choices=Event.Kind.choices, empty_label="Any kind")
    status = django_filters.ChoiceFilter(
        choices=[
            (Event.Status.SUBMITTED, "submitted"),
            (Event.Status.APPROVED, "approved"),
            (Event.Status.RATED, "rated"),
            (Event.Status.HELD, "awaiting review"),
        ],
        empty_label="Any status",
    )
    year = django_filters.NumberFilter(
        field_name="end_date", lookup_expr="year", label="Year", min_value=1900, max_value=2999
    )

    class Meta:
        model = Event
        fields = ["q", "rating_list", "kind", "status", "year"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.form.fields["q"].widget = forms.TextInput(attrs={"type": "search"})

    def by_name(self, queryset, name, value):
        return queryset.filter(Q(name__icontains=value) | Q(code__iexact=value))


def paginate(table, request):
    """Order and paginate ``table`` (django-tables2) from the query string (``sort``, ``page``),
    as the lists' tables are: a page that is not a number, or past the last, is a 404 saying so."""
    table.request = request
    order_by = [key for key in request.GET.getlist(table.prefixed_order_by_field) if key]
    if order_by:
        table.order_by = order_by
    table.paginator = Paginator(table.rows, PER_PAGE)
    table.page = page_of(table.paginator, request.GET.get(table.prefixed_page_field, "1"), "index")
    return table


class EventTable(tables.Table):
    label = "Events"  # what its scrolling region is called to a screen reader
    dates = tables.Column("Dates", empty_values=(), order_by=("end_date", "start_date", "code"))
    name = tables.Column("Event", order_by=("name", "code"))
    rating_list = tables.Column(
        "List", accessor="rating_list__name", order_by=("rating_list__display_order", "-end_date")
    )
    kind = tables.Column("Kind")
    status = tables.Column("Status")

    class Meta:
        template_name = "tables/table.html"
        attrs = {"class": "data"}
        empty_text = "No event matches."
        order_by_field = "sort"

    def render_dates(self, record):
        return event_dates(record)

    def render_name(self, record):
        return format_html(
            '<a href="{}">{}</a> <span class="muted">{}</span>',
            reverse("event", args=[record.code]),
            record.name,
            record.code,
        )


def day(date, year=True):
    """As the site writes dates ("3 Oct 2026"), or without the year where the range gives it."""
    return date_format(date) if year else date_format(date, "j M")


def event_dates(event):
    start, end = event.start_date, event.end_date
    if start == end:
        return day(start)
    return f"{day(start, year=start.year != end.year)} – {day(end)}"


def crosstable_rows(crosstable, rated: bool) -> str:
    """The Swiss crosstable's rows, by string building with every text escaped: a template loop
    over every player's every round was most of an event page's time. The standard library's
    escape, as every value is a plain string: Django's is the same behind a wrapper for lazy
    strings, which cost more than the escaping (as in public.rendering)."""
    players = reverse("player-search")
    out = []
    for number, row in enumerate(crosstable["rows"], start=1):
        entry = row["entry"]
        name = escape(entry.name)
        if entry.player:
            name = f'<a href="{players}{escape(quote(entry.player.code))}/">{name}</a>'
        cells = []
        for games in row["rounds"]:
            shown = ", ".join(
                f"bye {cell['symbol']}" if cell["bye"] else f"{cell['opponent']}{cell['colour']}{cell['symbol']}"
                for cell in games
            )
            cells.append(f'<td class="num fold">{escape(shown) if games else NO_GAME}</td>')
        out.append(
            f'<tr><td class="num">{entry.rank or number}</td><td class="num fold">{entry.pin}</td>'
            f'<th scope="row">{name}</th>'
            + (ratings_in_cells(entry) if rated else "")
            + "".join(cells)
            + f'<td class="num"><strong>{row["points"].normalize()}</strong></td>'
            + (rated_cells(entry.rated) if rated else "")
            + "</tr>"
        )
    return mark_safe("\n".join(out))


NO_GAME = '<span class="muted">–</span>'


def event_index(request):
    filters = EventFilter(request.GET, queryset=public_events().order_by("-end_date", "code"))
    table = paginate(EventTable(filters.qs), request)
    return render(request, "public/events/index.html", {"filters": filters, "table": table})


def event_page(request, code):
    event = public_event_by_code(code)
    if event is None:
        raise Http404(f"No approved or rated event has the code {code[:40]}.")
    if event.code != code:
        return redirect("event", event.code)  # typed in another case
    if event.status in STATUS_ONLY:
        # Its results wait for a rating officer's approval, or review: the public learns only that.
        context = {"event": event, "dates": event_dates(event), "steps": steps_so_far(event)}
        return render(request, "public/events/status.html", context)
    shown = event_crosstable(event)
    context = {
        "event": event,
        "dates": event_dates(event),
        "counts": game_counts(event, shown.results),
        shown.layout: shown.table,
        "entries": shown.entries,
        "rated": shown.rated,
        "provisional": shown.provisional,
    }
    if shown.layout == "crosstable":
        context["crosstable_rows"] = crosstable_rows(shown.table, shown.rated)
    return render(request, "public/events/event.html", context)
