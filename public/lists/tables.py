"""The rating lists' tables: a page of a list, sorted on the server by any column, paginated,
its header, rows and page links written by string joining.

The events index is a django-tables2 table; a list page is read far more often, and
django-tables2 copied its columns and wrote every header and page link through templates (a
fifth of a filtered list page's time), so the lists' tables are written here.
"""

from dataclasses import dataclass
from html import escape
from urllib.parse import quote, urlencode

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.db.models import Count, F, OuterRef, Subquery, Window
from django.http import Http404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.safestring import mark_safe

from chess.numbers import signed
from common.lookups import prepared_rows
from grading.models import LIST_ORDER, ListEntry, PlayerRating, rating_text
from grading.selectors.history import LINE_FIELDS
from players.models import shown_name

PER_PAGE = 50
SORT = "sort"  # the query parameter naming the column sorted by, "-" before it for descending
# Rank, name, rating and change stay on a phone; the rest fold away (.fold, static/css/site.css).
ROW = (
    '<tr><td class="num">{}</td><td><a href="{}">{}</a></td><td class="fold">{}</td><td class="num">{}</td>'
    '<td class="num fold">{}</td><td class="num">{}</td><td class="fold">{}</td><td class="num fold">{}</td>'
    '<td class="fold">{}</td><td class="fold">{}</td></tr>'
)
# Fields that may be empty (a player without a club, a live player without a published rating):
# the empty ones come last whichever way, on PostgreSQL and SQLite alike (they disagree where
# NULL sorts).
NULLABLE = frozenset({"club__name", "published_rating"})


@dataclass(frozen=True)
class Column:
    """A column: its header, the class of its cells (``num`` right-aligns, ``fold`` folds away
    on a phone) and, if it can be sorted by, its key in ``?sort=`` and the fields it sorts by,
    ascending (all of them reversed for descending)."""

    label: str
    css: str = ""
    key: str = ""
    order_by: tuple[str, ...] = ()


NAME = LIST_ORDER[1:]  # surname, forenames, code
RANK = Column("Rank", "num")
NAME_COLUMN = Column("Name", key="name", order_by=NAME)
CODE = Column("Code", "fold", "code", ("player__code",))
RATING = Column("Rating", "num", "rating", ("rating",))
CATEGORY = Column("Category", "fold", "category", ("category",))
CLUB = Column("Club", "fold", "club", ("club__name",))


def ordering(fields, descending: bool) -> list:
    """``fields`` reversed if ``descending``, then the list's order where they do not name its
    fields: players equal on a column stay in rating, then name order, so that a page never
    depends on the database's whim."""
    named = {field.lstrip("-") for field in fields}
    chosen = [(field[1:] if field.startswith("-") else f"-{field}") if descending else field for field in fields]
    return [empty_last(field) for field in chosen] + [field for field in LIST_ORDER if field.lstrip("-") not in named]


def empty_last(field: str):
    name = field.lstrip("-")
    if name not in NULLABLE:
        return field  # as it is: the list's rating index serves "-rating", not "-rating NULLS LAST"
    return F(name).desc(nulls_last=True) if field.startswith("-") else F(name).asc(nulls_last=True)


def page_of(paginator, number: str, whole: str):
    """Page ``number`` of ``paginator``, or a 404 that says why: not a number, or past the last
    page of the ``whole`` (the "list", the "index")."""
    try:
        return paginator.page(number)
    except PageNotAnInteger:
        raise Http404(f"{number!r} is not a page number.") from None
    except EmptyPage:
        pages = paginator.num_pages
        raise Http404(f"There is no page {number}: the {whole} has {pages} page{'s' if pages != 1 else ''}.") from None


class CountedPaginator(Paginator):
    """A paginator whose count is given (a published list's size never changes; a filtered
    one's is the ``total`` of its rows, counted in the query that reads them), or else counted
    by ``counter``."""

    def __init__(self, *args, count, counter=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.known_count, self.counter = count, counter

    @cached_property
    def count(self):
        return self.known_count if self.known_count is not None else self.counter()


def counted_page(paginator: CountedPaginator, number: str, whole: str, read=None):
    """Page ``number`` of ``paginator`` (of page_rows), its rows read at once by a prepared query
    (common.lookups.prepared_rows; or ``read(offset, limit)``, rows of the same fields) and first
    where its count is not known: the count is then their ``total`` (a window over every row,
    page_rows(counted=True)), and only a page past the last needs a count of its own. Else as
    page_of."""
    read = read or (lambda at, size: prepared_rows(paginator.object_list[at : at + size]))
    rows = None
    if paginator.known_count is None and number.isdigit() and int(number) >= 1:
        rows = read((int(number) - 1) * paginator.per_page, paginator.per_page)
        if rows:
            paginator.known_count = rows[0].total
    page = page_of(paginator, number, whole)
    if rows is None:
        rows = read((page.number - 1) * paginator.per_page, paginator.per_page) if paginator.count else []
    page.object_list = rows
    return page


class ListTable:
    """A page of a published list. ``ranks`` (grading.selectors.ranks.Ranks) is set by the view: a
    rank is on the whole list, whatever the filters and the sort."""

    label = "The rating list"  # what its scrolling region is called to a screen reader
    table_id = "list-table"
    empty_text = "No player on this list matches."
    default_sort = "-rating"
    columns = (
        RANK,
        NAME_COLUMN,
        CODE,
        RATING,
        Column("Previous", "num fold"),
        Column("±", "num"),
        CATEGORY,
        Column("Games", "num fold", "games", ("games",)),
        Column("Last played", "fold", "last_played", ("last_played",)),
        CLUB,
    )
    row_html = ROW
    ranks = None

    def __init__(self, entries, request, count: int | None, per_page=PER_PAGE, counter=None, read=None):
        """The page of ``entries`` (rows of page_rows: ``count`` of them; None: their ``total``,
        page_rows(counted=True), or where the page has none, ``counter()``) that ``request`` asks
        for, sorted as it asks (or, ``entries`` None, read by ``read(offset, limit)``, in the
        default sort). A page that is not a number, or past the last, is a 404 that says so; an
        unknown sort is the default one."""
        self.query = request.GET
        self.sort = self.chosen_sort(request.GET.get(SORT, ""))
        rows = [] if entries is None else self.sorted(entries, self.sort)
        self.paginator = CountedPaginator(rows, per_page, count=count, counter=counter)
        self.page = counted_page(self.paginator, request.GET.get("page", "1"), "list", read)

    @classmethod
    def chosen_sort(cls, sort: str) -> str:
        keys = {column.key for column in cls.columns if column.key}
        return sort if sort.lstrip("-") in keys else cls.default_sort

    @classmethod
    def sorted(cls, entries, sort: str):
        """``entries`` in the order of ``sort`` (a column's key, ``-`` before it for descending)."""
        sort = cls.chosen_sort(sort)
        column = next(column for column in cls.columns if column.key == sort.lstrip("-"))
        return entries.order_by(*ordering(column.order_by, sort.startswith("-")))

    def link(self, **changes) -> str:
        """This page's address with ``changes`` to its query (None drops a parameter), escaped: as
        a copy of the QueryDict would write it, without copying it for each of a page's links."""
        query = dict(self.query.lists())
        for name, value in changes.items():
            if value is None:
                query.pop(name, None)
            else:
                query[name] = [value]
        return escape("?" + urlencode([(name, value) for name, values in query.items() for value in values]))

    def header_html(self):
        cells = []
        for column in self.columns:
            css = f' class="{column.css}"' if column.css else ""
            if not column.key:
                cells.append(f'<th scope="col"{css}>{escape(column.label)}</th>')
                continue
            descending = self.sort == f"-{column.key}"
            ordered = descending or self.sort == column.key
            aria = f' aria-sort="{"descending" if descending else "ascending"}"' if ordered else ""
            arrow = f'<span aria-hidden="true"> {"▼" if descending else "▲"}</span>' if ordered else ""
            following = f"-{column.key}" if self.sort == column.key else column.key
            cells.append(
                f'<th scope="col"{css}{aria}><a href="{self.link(**{SORT: following, "page": None})}" '
                f'title="Sort by {escape(column.label.lower())}">{escape(column.label)}{arrow}</a></th>'
            )
        return mark_safe("".join(cells))  # noqa: S308 - every text escaped above

    def pagination_html(self):
        paginator, page = self.paginator, self.page
        if paginator.num_pages <= 1:
            return ""
        items = []
        if page.has_previous():
            items.append(f'<li><a href="{self.link(page=page.previous_page_number())}" rel="prev">Previous</a></li>')
        for number in paginator.get_elided_page_range(page.number, on_each_side=3, on_ends=1):
            if number == paginator.ELLIPSIS:
                items.append("<li><span>…</span></li>")
            else:
                current = ' aria-current="page"' if number == page.number else ""
                items.append(f'<li><a{current} href="{self.link(page=number)}">{number}</a></li>')
        if page.has_next():
            items.append(f'<li><a href="{self.link(page=page.next_page_number())}" rel="next">Next</a></li>')
        return mark_safe(  # noqa: S308 - the links escaped above, the rest numbers
            f'<nav class="pagination" aria-label="Pages"><p>Page {page.number} of {paginator.num_pages} '
            f"({paginator.count} rows)</p><ul>{''.join(items)}</ul></nav>"
        )

    def html(self):
        """The table in its container: the button that unfolds its columns on a phone, the
        scrolling region, the header, the rows (or why there are none) and the page links. Written
        here, not by a template and its include, which cost as much as the rows."""
        body = (
            self.rows_html()
            if self.page.object_list
            else f'<tr><td colspan="{len(self.columns)}">{escape(self.empty_text)}</td></tr>'
        )
        return mark_safe(  # noqa: S308 - the parts escaped where they are written
            '<div class="table-container">\n'
            f'  <button type="button" class="fold-toggle secondary" aria-controls="{self.table_id}" '
            'aria-expanded="false">Show every column</button>\n'
            f'  <div class="scroll" tabindex="0" role="region" aria-label="{escape(self.label)}">\n'
            f'  <table class="data list-table foldable" id="{self.table_id}">\n'
            f"    <thead><tr>{self.header_html()}</tr></thead>\n"
            f"    <tbody>{body}</tbody>\n"
            "  </table>\n"
            "  </div>\n"
            f"  {self.pagination_html()}\n"
            "</div>"
        )

    def rows_html(self):
        players = reverse("player-search")
        categories = dict(PlayerRating.Category.choices)
        rows = (self.cells(row, players, categories) for row in self.page.object_list)
        # Every text cell escaped (none is markup); a number needs none.
        return mark_safe("".join(self.row_html.format(*map(cell_html, cells)) for cells in rows))  # noqa: S308

    def cells(self, entry, players: str, categories: dict) -> tuple:
        """One line's cells, in row_html's order, from a row of LINE_FIELDS (with ``previous``)."""
        previous = getattr(entry, "previous", None)  # none without a list before
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
            rank_text(self.ranks, entry.rating, entry.type),
            f"{players}{quote(entry.player__code)}/",
            shown_name(entry.player__surname, entry.player__forenames, entry.player__name_restricted),
            entry.player__code,
            rating_text(entry.rating, entry.type),
        )


def cell_html(cell) -> str:
    return str(cell) if type(cell) is int else escape(str(cell))


def rank_text(ranks, rating: int, rating_type: str) -> str:
    """A line's rank as a list shows it: "–" for a rating that is not ranked (a Partial one)."""
    if ranks is None:
        return ""
    rank = ranks.rank(rating, rating_type)
    return "–" if rank is None else str(rank)


# A page's rows are read as plain values (grading.selectors.history.LINE_FIELDS), all that
# rows_html reads: fifty entries with their players and clubs as model instances were a sixth of
# a filtered page's time.


def page_rows(entries, *extra, counted=False, previous=None):
    """``entries`` (a queryset of list lines) as the rows a list page shows, with ``extra`` fields;
    ``counted``: each with ``total``, how many rows there are (a window, in the same query); with
    ``previous`` (a PublishedList), each with ``previous``, the player's rating on it (None where
    they were not on it: a subquery PostgreSQL runs for the page's rows alone, after its sort)."""
    annotations = {}
    if counted:
        annotations["total"] = Window(Count("pk"))
    if previous is not None:
        on_it = ListEntry.objects.filter(
            period_id=previous.period.pk, revision=previous.revision, player_id=OuterRef("player_id")
        )  # one row at most (one_entry_per_list): no order, which would join its model's ordering
        annotations["previous"] = Subquery(on_it.order_by().values("rating")[:1])
    return entries.annotate(**annotations).values_list(*LINE_FIELDS, *extra, *annotations, named=True)
