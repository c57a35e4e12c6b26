"""The rating lists (a page, its downloads: grading.selectors.downloads) and the top lists."""

from html import escape

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.http import http_date
from django.utils.safestring import mark_safe

from chess.months import Month
from common.cache_control import EDITION, declare
from common.downloads import csv_download, text_download, zip_download
from grading.models import RatingList
from grading.selectors.calculations import adjustment_of
from grading.selectors.downloads import download_rows, file_name, list_csv, list_files, list_json, list_text
from grading.selectors.history import (
    PublishedList,
    club_lines,
    list_publications,
    list_size,
    lists_with_latest,
    publication_before,
    publication_in,
    publication_key,
)
from grading.selectors.months import month_so_far
from grading.selectors.ranks import ranks_of
from grading.selectors.rule_sets import rules_named
from grading.selectors.toplists import top_lists
from players.privacy import privacy_setting
from public.kept import LIST_PARAMETERS, kept_page
from public.lists.filters import ListEntryFilter, fields_html, rule_sets_until
from public.lists.tables import SORT, ListTable, page_rows


def list_index(request):
    return render(request, "public/lists.html", {"lists": lists_with_latest()})


class NotPublished(Http404):
    def __init__(self, rating_list, month):
        super().__init__(f"The {rating_list.name} list was not published for {month}.")
        self.rating_list, self.month = rating_list, month


def the_list(code, month=None, original=False, revision=None):
    """(rating list, PublishedList) or 404: an unknown list, a month never published, or a
    revision of it never published. The list's published periods are
    ``rating_list.published_periods``: read with it, once."""
    rating_list, periods = list_publications(code)
    if rating_list is None:
        raise Http404(f"There is no rating list {code[:40]!r}.")
    published = publication_in(periods, month, original)
    rating_list.published_periods = periods
    if published is None and month is not None:
        raise NotPublished(rating_list, month)
    if revision is not None:
        if revision > published.period.revision:
            latest = published.period.revision
            raise Http404(
                f"The {rating_list.name} list of {month} has no revision {revision}: "
                + ("only the original was published." if latest == 0 else f"its latest is revision {latest}.")
            )
        published = PublishedList(published.period, revision)
    return rating_list, published


def wants_original(request):
    return request.GET.get("edition") == "original"


def names_edition(request, month, revision) -> bool:
    """Whether the address names one edition, which never changes: a month's revision, or its
    original (``?edition=original``). Without a month it is the latest list, which does."""
    return revision is not None or (month is not None and wants_original(request))


def rating_list(request, code, month=None, revision=None):
    if month is None and request.GET.get("period"):
        return redirect_to_period(request, code)
    try:
        rating_list, published = the_list(code, month, wants_original(request), revision)
    except NotPublished as missing:
        if revision is not None:
            raise  # an edition's address: a month not yet published has none
        return month_page(request, missing)
    if published is None:
        return render(request, "public/list.html", {"rating_list": rating_list, "published": None})
    if names_edition(request, month, revision):
        declare(request, EDITION)
    periods = rating_list.published_periods
    # A publication never changes: an anonymous visitor's page of it is kept, keyed by the
    # publication and every period of the menu with its revision.
    menu = ",".join(f"{period.pk}.{period.revision}" for period in periods)
    state = publication_key("list-page", published.period.pk, published.revision, published.period.published_at)

    def build():
        response, filters = render_list(request, code, rating_list, published, periods)
        return response, filters.is_valid()

    return kept_page(request, "list", f"{state}|{menu}", build, 3600, LIST_PARAMETERS)


def month_page(request, missing):
    """A month not yet published: what is in it so far and when it will be; or the 404 of a
    month never to be (not begun, or before the list's ratings began)."""
    try:
        so_far = month_so_far(missing.rating_list, Month.parse(missing.month))
    except ValueError:
        so_far = None
    if so_far is None:
        raise missing
    return render(request, "public/month.html", {"rating_list": missing.rating_list, "so_far": so_far})


def next_month(periods) -> Month | None:
    """The month after the latest published, if it has begun: the list's month in preparation."""
    upcoming = Month.parse(periods[0].month) + 1 if periods else None
    return upcoming if upcoming and upcoming <= Month.of(timezone.localdate()) else None


def edition_url(name, published, query="") -> str:
    """The address of ``published``'s own page (``name`` rating-list-edition) or file (edition-csv,
    edition-text, edition-json, edition-zip), with ``query`` (filters and sort)."""
    period = published.period
    url = reverse(name, args=[period.rating_list.code, period.month, published.revision])
    return url + ("?" + query if query else "")


def render_list(request, code, rating_list, published, periods):
    filters = ListEntryFilter(
        request.GET,
        queryset=published.entries(),
        rule_sets=rule_sets_until(rating_list.published_periods, published.period.month),
        period=published.period,
    )
    # A filtered list is counted with its page's rows (a window in the same query), which read
    # the previous list's ratings too: one query, where a count, the rows and the previous ratings
    # were three.
    count = None if filters.active else list_size(published)
    before = publication_before(published, periods)
    read = one_club(request, filters, published, before)
    rows = None if read else page_rows(filters.qs, counted=count is None, previous=before)
    table = ListTable(rows, request, count, counter=lambda: filters.qs.count(), read=read)
    table.ranks = ranks_of(published)
    query = request.GET.copy()
    query.pop("page", None)
    query.pop("edition", None)  # the files' addresses name the edition
    rules = rules_named(published.period.rule_set)
    context = {
        "rating_list": rating_list,
        "published": published,
        "rules": rules,
        # A month that began with FIDE's adjustment of March 2024 says so above its ratings (an
        # ECF list's never does: no query for it).
        "adjusted": rules.is_elo and rating_list.adjusted_in(published.period.month) and adjustment_of(1500),
        "period_options": period_options(periods, published.period),
        "next_month": next_month(periods),
        "filters": filters,
        "filter_fields": fields_html(filters, filters.form.cleaned_data["club"] if read else None),
        "table": table,
        # This edition's own address, and its files', which never change (docs/cache-control.md).
        "edition_url": edition_url("rating-list-edition", published),
        "csv_url": edition_url("edition-csv", published, query.urlencode()),
        "text_url": edition_url("edition-text", published, query.urlencode()),
        "json_url": edition_url("edition-json", published, query.urlencode()),
        "zip_url": edition_url("edition-zip", published),
        # Another period keeps the filters and the sort.
        "carried": [
            (name, value) for name, values in query.lists() if name not in ("period", "edition") for value in values
        ],
    }
    return render(request, "public/list.html", context), filters


def period_options(periods, chosen) -> str:
    """The period menu's options, newest first, ``chosen``'s selected: written here, as a
    template's loop over a list's months cost a fifth of a list page's own template."""
    return mark_safe(  # noqa: S308 - months and a fixed word
        "".join(
            f'<option value="{escape(period.month)}"{" selected" if period.pk == chosen.pk else ""}>'
            f"{escape(period.month)}{' (revised)' if period.revision else ''}</option>"
            for period in periods
        )
    )


def one_club(request, filters, published, before):
    """How to read a page of one club's players in the list's order (the commonest filtered
    list: a club's own), or None for any other filter or sort: a prepared query of its own
    (grading.selectors.history.club_lines), without the ORM's building of the filters' query."""
    used = {name for name in filters.filters if filters.data.get(name)}
    if used != {"club"} or ListTable.chosen_sort(request.GET.get(SORT, "")) != ListTable.default_sort:
        return None
    if not filters.is_valid():
        return None
    club = filters.form.cleaned_data["club"]
    return lambda offset, limit: club_lines(published, before, club, offset, limit)


def redirect_to_period(request, code):
    month = request.GET["period"]
    rest = request.GET.copy()
    del rest["period"]
    rest.pop("page", None)
    try:
        url = reverse("rating-list-period", args=[code, month])
    except NoReverseMatch:
        raise Http404(f"{month[:20]!r} is not a month (YYYY-MM).") from None
    return redirect(url + ("?" + rest.urlencode() if rest else ""))


def downloaded(request, code, month, revision):
    """(rating list, publication, its rows with the page's filters and sort, the file's name)."""
    rating_list, published = the_list(code, month, wants_original(request), revision)
    filters = ListEntryFilter(
        request.GET,
        queryset=published.entries(),
        rule_sets=rule_sets_until(rating_list.published_periods, published.period.month),
        period=published.period,
    )
    entries = ListTable.sorted(filters.qs, request.GET.get(SORT, ""))
    name = file_name(published) + ("-filtered" if filters.active else "")
    return rating_list, published, download_rows(published, entries.iterator(chunk_size=5000)), name


def edition_file(request, rating_list, published, response, url_name, revision):
    """A list's file as its edition's: where the address did not name the edition, it says where
    the same file is kept (Content-Location); and while the edition is the month's latest, when
    what it holds last changed (Last-Modified: its publication, the month before's, whose
    ratings are its "previous" column, and the privacy setting's last change)."""
    month = published.period.month
    if names_edition(request, month, revision):
        declare(request, EDITION)
    else:
        query = request.GET.copy()
        query.pop("edition", None)
        response["Content-Location"] = edition_url(url_name, published, query.urlencode())
    if published.revision == published.period.revision:
        before = next((period for period in rating_list.published_periods if period.month < month), None)
        times = [published.period.published_at, before and before.published_at, privacy_setting().changed_at]
        response["Last-Modified"] = http_date(max(time for time in times if time).timestamp())
    return response


def rating_list_csv(request, code, month, revision=None):
    rating_list, published, rows, name = downloaded(request, code, month, revision)
    response = csv_download(list_csv(rows), f"{name}.csv")
    return edition_file(request, rating_list, published, response, "edition-csv", revision)


def rating_list_text(request, code, month, revision=None):
    rating_list, published, rows, name = downloaded(request, code, month, revision)
    response = text_download(list_text(rows), f"{name}.txt", "text/plain")
    return edition_file(request, rating_list, published, response, "edition-text", revision)


def rating_list_json(request, code, month, revision=None):
    rating_list, published, rows, name = downloaded(request, code, month, revision)
    response = text_download(list_json(published, rows), f"{name}.json", "application/json")
    return edition_file(request, rating_list, published, response, "edition-json", revision)


def rating_list_zip(request, code, month, revision=None):
    rating_list, published = the_list(code, month, wants_original(request), revision)
    name = file_name(published)
    rows = download_rows(published, published.entries().iterator(chunk_size=5000))
    response = zip_download(list_files(published, rows, name), f"{name}.zip")
    return edition_file(request, rating_list, published, response, "edition-zip", revision)


def top_index(request):
    first = RatingList.objects.order_by("display_order", "code").first()
    if first is None:
        raise Http404("There is no rating list yet.")
    return redirect("top-lists", first.code)


def top(request, code):
    rating_list, published = the_list(code)
    context = {
        "rating_list": rating_list,
        "published": published,
        "lists": RatingList.objects.order_by("display_order", "code"),
        "tops": top_lists(published) if published else [],
    }
    return render(request, "public/top.html", context)
