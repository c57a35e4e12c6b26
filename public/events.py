"""Public event pages: the index of approved and rated events, and each event's crosstable
(Swiss, round robin) or match card (team match), built from its Entry pins and Game rows."""

from dataclasses import dataclass
from typing import NamedTuple
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
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from chess.names import full_name
from common.lookups import by_code
from events.models import Event
from events.standings import RESULT_LABELS, match_card, round_robin_grid, swiss_crosstable
from grading.models import RatingList
from grading.run.event_conditions import GameLeftOut, published_reason
from grading.selectors.event_ratings import event_parts, ratings_used
from public.rendering import rated_cells, ratings_in_cells
from public.tables import PER_PAGE, page_of


def public_events():
    return Event.objects.in_rating().select_related("rating_list")


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
        choices=[(Event.Status.APPROVED, "approved"), (Event.Status.RATED, "rated")], empty_label="Approved or rated"
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
    over every player's every round was most of an event page's time."""
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


class PlayerCode(NamedTuple):
    code: str


@dataclass
class EntryShown:
    """An entry as the event page shows it, with what the ratings say of it (``rated``, an
    EventPart, and ``rating_used``)."""

    pk: int
    pin: int
    name: str
    club_name: str
    rank: int | None
    player_id: int | None
    player: PlayerCode | None
    rated: object = None
    rating_used: int | None = None


# An event's entries and games are read as plain values: as model instances (forty-odd
# entries, their players and a few hundred games) they were a third of the page's time.
GAME_FIELDS = (
    "pk",
    "round",
    "board",
    "date",
    "result",
    "rated",
    "white_id",
    "black_id",
    "white_entry_id",
    "black_entry_id",
    "why_not_rated",  # why the publication in force left it out (FIDE's conditions), or None
)


def entries_shown(event) -> list[EntryShown]:
    rows = event.entries.order_by("pin").values_list(
        "pk", "pin", "surname", "forenames", "club_name", "rank", "player_id", "player__code"
    )
    return [
        EntryShown(pk, pin, full_name(surname, forenames), club, rank, player, PlayerCode(code) if player else None)
        for pk, pin, surname, forenames, club, rank, player, code in rows
    ]


def games_not_rated(games, entries) -> list[tuple[str, list[GameLeftOut]]]:
    """The games the publications in force left out, by reason, in the page's order."""
    names = {entry.pk: entry.name for entry in entries}
    groups: dict[str, list[GameLeftOut]] = {}
    for game in games:
        if game.why_not_rated:
            white, black = names.get(game.white_entry_id, ""), names.get(game.black_entry_id, "")
            result = RESULT_LABELS.get(game.result, game.result)
            groups.setdefault(game.why_not_rated, []).append(
                GameLeftOut(game.pk, game.round, game.date, white, black, result)
            )
    return list(groups.items())


def event_index(request):
    filters = EventFilter(request.GET, queryset=public_events().order_by("-end_date", "code"))
    table = paginate(EventTable(filters.qs), request)
    return render(request, "public/events/index.html", {"filters": filters, "table": table})


def event_page(request, code):
    event = by_code(public_events(), code)
    if event is None:
        raise Http404(f"No approved or rated event has the code {code[:40]}.")
    if event.code != code:
        return redirect("event", event.code)  # typed in another case
    entries = entries_shown(event)
    games = event.games.order_by("round", "board", "date", "pk").annotate(why_not_rated=published_reason())
    games = list(games.values_list(*GAME_FIELDS, named=True))
    played = [game for game in games if game.black_entry_id]  # a bye has no opponent: not a game
    context = {
        "event": event,
        "dates": event_dates(event),
        "games_count": len(played),
        "rated_count": sum(game.rated and not game.why_not_rated for game in played),
        "byes": len(games) - len(played),
        "not_rated": games_not_rated(played, entries),
        "not_rated_count": sum(bool(game.why_not_rated) for game in played),
    }
    if event.kind == Event.Kind.TEAM_MATCH:
        context["card"] = match_card(entries, games)
    elif event.kind == Event.Kind.ROUND_ROBIN:
        context["grid"] = round_robin_grid(entries, games)
    elif all(game.round for game in games) and event.kind == Event.Kind.SWISS:
        context["crosstable"] = swiss_crosstable(entries, games)
    else:
        context["card"] = match_card(entries, games)
    parts = event_parts(event, games)
    used = ratings_used(parts, games)
    for entry in entries:  # what the crosstable and the match card show beside each name
        entry.rated = parts.get(entry.player_id)
        entry.rating_used = used.get(entry.player_id)
    context["entries"] = entries
    context["rated"] = bool(parts)
    if "crosstable" in context:
        context["crosstable_rows"] = crosstable_rows(context["crosstable"], bool(parts))
    context["provisional"] = bool(parts) and event.status != Event.Status.RATED
    return render(request, "public/events/event.html", context)
