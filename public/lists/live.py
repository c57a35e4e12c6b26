"""The live ratings: a list's provisional list (a page, its CSV) and how a live rating was reached."""

import datetime

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone

from chess.months import Month
from chess.numbers import signed
from common.downloads import csv_download
from grading.live.selectors import explained_live_rating, live_entries, live_list_of
from grading.models import RatingList, live_change
from grading.selectors.downloads import live_csv
from grading.selectors.history import list_publications
from grading.selectors.ranks import live_ranks_of
from public.kept import LIST_PARAMETERS, kept_page
from public.lists.filters import ListEntryFilter, rule_sets_until
from public.lists.tables import CATEGORY, CLUB, CODE, NAME_COLUMN, RANK, RATING, SORT, Column, ListTable, page_rows
from public.players import calculation_shown, the_player

LIVE_ROW = (
    '<tr><td class="num">{}</td><td><a href="{}">{}</a></td><td class="fold">{}</td><td class="num">{}</td>'
    '<td class="num fold">{}</td><td class="num">{}</td><td class="num fold">{}</td><td class="fold">{}</td>'
    '<td class="fold">{}</td></tr>'
)


class LiveTable(ListTable):
    label = "The live list"
    empty_text = "No player on the live list matches."
    columns = (
        RANK,
        NAME_COLUMN,
        CODE,
        RATING,
        Column("Published", "num fold", "published_rating", ("published_rating",)),
        Column("Change", "num"),
        Column("New games", "num fold", "live_games", ("live_games",)),
        CATEGORY,
        CLUB,
    )

    row_html = LIVE_ROW

    def cells(self, entry, players: str, categories: dict) -> tuple:
        return (
            *self.first_cells(entry, players),
            entry.published_rating or "–",
            "–" if (change := live_change(entry.rating, entry.published_rating)) is None else signed(change),
            entry.live_games,
            categories.get(entry.category, entry.category),
            entry.club__name or "",
        )


def live_filters(request, rating_list, live) -> ListEntryFilter:
    """The live list's filters: those of the month it rates last (this month before it rates one)."""
    month = live.last_month if live and live.last_month else str(Month.of(datetime.date.today()))
    _, periods = list_publications(rating_list.code)
    rule_sets = [*rule_sets_until(periods, month), rating_list.rule_set_for(month)]
    return ListEntryFilter(
        request.GET, queryset=live_entries(rating_list), rule_sets=rule_sets, period=live and live.based_on
    )


def the_live_list(code):
    rating_list = get_object_or_404(RatingList, code=code)
    return rating_list, live_list_of(rating_list)


def live_list(request, code):
    rating_list, live = the_live_list(code)
    # A live list changes with each computation: a visitor's page is kept until the next one.
    state = f"{live.pk}:{live.computed_at.timestamp()}" if live else "none"
    return kept_page(
        request,
        f"live:{rating_list.pk}",
        state,
        lambda: render_live_list(request, rating_list, live),
        600,
        LIST_PARAMETERS,
    )


def render_live_list(request, rating_list, live):
    code = rating_list.code
    filters = live_filters(request, rating_list, live)
    table = LiveTable(page_rows(filters.qs, "published_rating", "live_games"), request, filters.qs.count())
    table.ranks = live_ranks_of(live) if live else None
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "rating_list": rating_list,
        "live": live,
        "filters": filters,
        "table": table,
        "csv_url": reverse("live-list-csv", args=[code]) + "?" + query.urlencode(),
    }
    return render(request, "public/live_list.html", context), filters.is_valid()


def live_list_csv(request, code):
    rating_list, live = the_live_list(code)
    filters = live_filters(request, rating_list, live)
    entries = LiveTable.sorted(filters.qs, request.GET.get(SORT, "")).iterator(chunk_size=5000)
    return csv_download(live_csv(entries, timezone.localdate()), f"{code}-live-provisional.csv")


def live_calculation(request, code, list_code, month):
    player = the_player(code)
    explained = explained_live_rating(player, list_code, month)
    return calculation_shown(request, player, explained, f"live rating on the {list_code[:40]} list for {month}")
