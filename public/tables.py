"""The rating list as a django-tables2 table: sorted on the server by any column, paginated."""

from urllib.parse import quote

import django_tables2 as tables
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import Http404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import escape
from django.utils.safestring import mark_safe

from grading.models import ListEntry, PlayerRating, rating_text
from players.names import full_name

from .rendering import signed

PER_PAGE = 50
# Rank, name, rating and change stay on a phone; the rest fold away (.fold, static/css/site.css).
ROW = (
    '<tr><td class="num">{}</td><td><a href="{}">{}</a></td><td class="fold">{}</td><td class="num">{}</td>'
    '<td class="num fold">{}</td><td class="num">{}</td><td class="fold">{}</td><td class="num fold">{}</td>'
    '<td class="fold">{}</td><td class="fold">{}</td></tr>'
)
NUM, FOLD, NUM_FOLD = {"class": "num"}, {"class": "fold"}, {"class": "num fold"}
TEMPLATE = "tables/table.html"


class CountedPaginator(Paginator):
    """A paginator whose count can be given (a published list's size never changes)."""

    def __init__(self, *args, known_count=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.known_count = known_count

    @cached_property
    def count(self):
        return self.known_count if self.known_count is not None else super().count


class ListTable(tables.Table):
    """A published list's page. ``ranks`` (grading.ranks.Ranks) and ``previous`` ({player id:
    rating on the list before}) are set by the view: a rank is on the whole list, whatever the
    filters and the sort."""

    label = "The rating list"  # what its scrolling region is called to a screen reader
    ranks = None
    previous: dict = {}
    position = tables.Column(
        "Rank", empty_values=(), orderable=False, attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    name = tables.Column(
        "Name", accessor="player__name", order_by=("player__surname", "player__forenames", "player__code")
    )
    code = tables.Column("Code", accessor="player__code", attrs={"th": FOLD})
    rating = tables.Column("Rating", attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    previous_rating = tables.Column("Previous", empty_values=(), orderable=False, attrs={"th": NUM_FOLD})
    change = tables.Column(
        "±", empty_values=(), orderable=False, attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    category = tables.Column("Category", attrs={"th": FOLD})
    games = tables.Column("Games", attrs={"th": NUM_FOLD})
    last_played = tables.Column("Last played", attrs={"th": FOLD})
    club = tables.Column(
        "Club", accessor="club__name", order_by=("club__name", "-rating"), default="", attrs={"th": FOLD}
    )

    class Meta:
        model = ListEntry
        fields = ()
        sequence = (
            "position",
            "name",
            "code",
            "rating",
            "previous_rating",
            "change",
            "category",
            "games",
            "last_played",
            "club",
        )
        template_name = "tables/list_table.html"
        attrs = {"class": "data list-table foldable", "id": "list-table"}
        empty_text = "No player on this list matches."
        order_by_field = "sort"
        order_by = "-rating"

    def order_rating(self, queryset, is_descending):
        """Equal ratings stay in name order whichever way the ratings are sorted."""
        rating = "-rating" if is_descending else "rating"
        return queryset.order_by(rating, "player__surname", "player__forenames", "player__code"), True

    def rows_html(self):
        """The page's rows, the same cells the columns' render methods give, by string joining:
        django-tables2 builds each cell through several layers, 30 ms for a 50-row page."""
        players = reverse("player-search")
        categories = dict(PlayerRating.Category.choices)
        rows = (self.cells(row.record, players, categories) for row in self.page.object_list)
        # Every cell escaped (none is markup): conditional_escape's checks cost a millisecond a page.
        return mark_safe("".join(self.row_html.format(*(escape(str(cell)) for cell in cells)) for cells in rows))  # noqa: S308

    row_html = ROW

    def cells(self, entry, players: str, categories: dict) -> tuple:
        """One line's cells, in row_html's order, from a row of ROW_FIELDS."""
        previous = self.previous.get(entry.player_id)
        return (
            *self.first_cells(entry, players),
            "" if previous is None else previous,
            "" if previous is None else signed(entry.rating - previous),
            categories.get(entry.category, entry.category),
            entry.games,
            entry.last_played,
            entry.club__name or "",
        )

    def first_cells(self, entry, players: str) -> tuple:
        """Rank, the player's address, name and code, and the rating: every list's first cells."""
        return (
            self.ranks.rank(entry.rating) if self.ranks else "",
            f"{players}{quote(entry.player__code)}/",
            full_name(entry.player__surname, entry.player__forenames),
            entry.player__code,
            rating_text(entry.rating, entry.type),
        )


# A page's rows are read as plain values, all that rows_html reads: fifty entries with their
# players and clubs as model instances were a sixth of a filtered page's time.
ROW_FIELDS = (
    "player_id",
    "rating",
    "type",
    "category",
    "games",
    "last_played",
    "club__name",
    "player__code",
    "player__surname",
    "player__forenames",
)


def page_rows(entries, *extra):
    """``entries`` (a queryset of list lines) as the rows a list page shows, with ``extra`` fields."""
    return entries.values_list(*ROW_FIELDS, *extra, named=True)


def paginate(table, request, per_page=PER_PAGE, known_count=None):
    """Order and paginate ``table`` from the query string (``sort``, ``page``).

    A page that is not a number, or past the last, is a 404 with a message saying so.
    """
    table.request = request
    order_by = [key for key in request.GET.getlist(table.prefixed_order_by_field) if key]
    if order_by:
        table.order_by = order_by
    page = request.GET.get(table.prefixed_page_field, "1")
    try:
        table.paginate(CountedPaginator, page=page, per_page=per_page, known_count=known_count)
    except PageNotAnInteger:
        raise Http404(f"{page!r} is not a page number.") from None
    except EmptyPage:
        pages = table.paginator.num_pages
        raise Http404(f"There is no page {page}: the list has {pages} page{'s' if pages != 1 else ''}.") from None
    return table
