"""The repeated rows of a player's page and of a calculation's games, written by string joining.

A player with a year of history on three lists has dozens of history rows and games; the
template engine took about 30 ms to render them, ``format_html_join`` takes about 2. The cells
are those the templates would write, every value escaped.
"""

from html import escape
from urllib.parse import quote

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.safestring import mark_safe

from chess.numbers import signed
from grading.models import PlayerRating, rating_text
from grading.selectors.calculations import adjustment_of

CATEGORIES = dict(PlayerRating.Category.choices)
WITHDRAWN = mark_safe('<td colspan="3" class="muted">a game withdrawn since this rating was published</td>')
RESULTS = {2: "Won", 1: "Drew", 0: "Lost"}  # by the player's score in half points

# On a phone the category, method and games of a month fold away (.fold), as do a game's date
# and colour.
HISTORY_ROW = (
    '<tr><td class="nowrap">{}</td><td class="num">{}</td><td class="num">{}</td><td class="fold">{}</td>'
    '<td class="fold">{}</td><td class="num fold">{}</td><td><a href="{}">How<span class="fold"> it was calculated'
    '</span><span class="visually-hidden"> ({}, {})</span></a></td></tr>{}'
)
GAMES_ROW = (
    '<tr class="games-row"><td colspan="7"><details><summary>{} game{} in {}</summary>'
    '<div class="scroll" tabindex="0" role="region" aria-label="Games in {}">'
    '<table class="data compact games foldable"><thead><tr><th scope="col" class="fold">Date</th>'
    '<th scope="col" class="fold">Event</th><th scope="col">Opponent</th>'
    '<th scope="col" class="fold">Colour</th><th scope="col">Result</th>'
    '<th scope="col" class="num"><abbr title="Opponent rating used">Opp.</abbr></th>'
    "{}</tr></thead><tbody>{}</tbody></table></div></details></td></tr>"
)


MONTH_CHANGE = (
    ' <abbr title="A P rating or a first rating rates the month as a whole: this is the month&#x27;s change.">'
    "(month)</abbr>"
)


def ratings_in_cells(entry) -> str:
    """An event entry's rating going in (before the event's month) and the rating its opponents
    counted it at (for a P rating, which rates the whole month, perhaps the new one): numbers, or
    nothing. The second folds away on a phone."""
    before = entry.rated.rating_before if entry.rated else None
    used = entry.rating_used
    return (
        f'<td class="num">{"" if before is None else before}</td>'
        f'<td class="num fold">{"" if used is None else used}</td>'
    )


def rated_cells(part) -> str:
    """One player's part of an event as rated (grading.selectors.event_ratings.EventPart): its performance,
    performance by the algorithm of 400 and change cells. Every value is a number."""
    if part is None:
        return '<td class="num"></td><td class="num fold"></td><td class="num nowrap"></td>'
    change = part.change
    if change is None:
        shown = '<span class="muted">new</span>'
    else:
        shown = signed(change) + ("" if part.by_increments else MONTH_CHANGE)
    performance, by_400 = part.performance, part.performance_400
    return (
        f'<td class="num">{"" if performance is None else int(performance)}</td>'
        f'<td class="num fold">{"" if by_400 is None else int(by_400)}</td><td class="num nowrap">{shown}</td>'
    )


def day(date) -> str:
    return f"{date.day} {date:%b %Y}"


def event_rows(events, event_url) -> str:
    """The player page's events (grading.selectors.event_ratings.PlayedEvent, with ``list_name``), a row
    each; ``event_url`` gives an event's address from its code."""
    rows = []
    for event in events:
        part = event.part
        mark = ' <span class="provisional-mark">provisional</span>' if part.provisional else ""
        dates = day(event.start_date) + ("" if event.end_date == event.start_date else f" – {day(event.end_date)}")
        rows.append(
            f'<tr><th scope="row"><a href="{escape(event_url(event.code))}">{escape(event.name)}</a>{mark}</th>'
            f'<td class="nowrap fold">{dates}</td><td class="fold">{escape(event.list_name)}</td>'
            f'<td class="num fold">{part.games}</td><td class="num">{part.score.normalize()}</td>'
            f"{rated_cells(part)}</tr>"
        )
    return mark_safe("".join(rows))  # noqa: S308 - every text escaped above


def history_rows(list_name: str, rows) -> str:
    """The rows of one list's history table, newest first, each followed by its games."""
    return format_html_join(
        "",
        HISTORY_ROW,
        (
            (
                row.month,
                rating_shown(row),
                "" if row.change is None else signed(row.change),
                CATEGORIES.get(row.category, row.category),
                row.method,
                mark_safe('<span class="muted">–</span>') if row.lines is None else len(row.lines),
                row.calculation,
                list_name,
                row.month,
                games_row(row),
            )
            for row in rows
        ),
    )


def rating_shown(row):
    """A rating as the history shows it, marked where its floor held it up (section 14) and where
    its month began with FIDE's adjustment (section 18)."""
    text = rating_text(row.rating, row.type)
    if row.unfloored_rating is not None:
        text = format_html(
            '{} <abbr class="floor-mark" title="Held up by its rating floor: the method gave {}">floor</abbr>',
            text,
            row.unfloored_rating,
        )
    adjusted = adjustment_of(row.adjusted_from)
    if adjusted is not None:
        text = format_html('{} <abbr class="floor-mark" title="{}">adjusted</abbr>', text, adjusted.text)
    return text


def games_row(row) -> str:
    if not row.lines:
        return ""
    k_rated = row.method in (PlayerRating.Method.K, PlayerRating.Method.ELO)  # a change per game
    return format_html(
        GAMES_ROW,
        len(row.lines),
        "" if len(row.lines) == 1 else "s",
        row.month,
        row.month,
        mark_safe('<th scope="col" class="num"><abbr title="Increment">Incr.</abbr></th>') if k_rated else "",
        mark_safe("".join(game_cells(line, k_rated) for line in row.lines)),
    )


def game_cells(line, k_rated: bool) -> str:
    """One game's row. Plain string building, every text escaped: format_html for each cell of
    each game was most of the page's rendering. The standard library's escape, as every value
    is a plain string: Django's is the same function behind a wrapper for lazy strings, which
    cost more than the escaping."""
    game = line.game
    if game is None:
        where = WITHDRAWN
    else:
        round_ = f' <span class="muted">r{int(game.round)}</span>' if game.round else ""
        where = (
            f'<td class="nowrap fold">{game.date.day} {game.date:%b %Y}</td>'
            f'<td class="fold"><a href="{escape(line.event_url)}">{escape(game.event.name)}</a>{round_}</td>'
            f'<td><a href="{escape(line.opponent_url)}">{escape(line.opponent.name)}</a></td>'
        )
    partial = "P" if line.opponent_type == PlayerRating.Type.PARTIAL else ""
    used = "unrated" if line.opponent_rating is None else f"{int(line.opponent_rating)}{partial}"
    increment = ""
    if k_rated:
        value = "" if line.increment is None else f"{'+' if line.increment > 0 else ''}{line.increment:.2f}"
        increment = f'<td class="num">{value}</td>'
    return (
        f'<tr>{where}<td class="fold">{"White" if line.colour == "w" else "Black"}</td>'
        f"<td>{RESULTS[int(line.score * 2)]}</td>"
        f'<td class="num">{used}</td>{increment}</tr>'
    )


def address(prefix: str, code: str) -> str:
    """``prefix`` (a reversed URL up to the code) and ``code`` as {% url %} writes them: the code
    quoted as reverse() quotes a path, the whole escaped for an attribute."""
    return escape(f"{prefix}{quote(code, safe=RFC3986_SUBDELIMS + '/~:@')}/")


def calculation_rows(rows, method: str) -> str:
    """The games table of a rating's calculation (grading.selectors.explanations.GameRow each;
    templates/public/includes/rating_explained.html), a row each: the template took a third of
    a calculation page's time to write them."""
    events, players = reverse("events"), reverse("player-search")
    d_offsets = escape(reverse("help-d-offset"))
    return mark_safe("".join(calculation_row(row, method, events, players, d_offsets) for row in rows))  # noqa: S308


def calculation_row(row, method: str, events: str, players: str, d_offsets: str) -> str:
    game = row.game
    score = "1" if game.score == 1 else "0" if game.score == 0 else "½"
    partial = "P" if game.opponent_type == "partial" else ""
    used = "unrated" if game.opponent_rating is None else f"{game.opponent_rating}{partial}"
    cells = (
        f'{where_played(game, events, players)}<td class="fold">{"White" if game.colour == "w" else "Black"}</td>'
        f'<td>{score}</td><td class="num">{used}</td>'
    )
    if method == "P":
        pass1 = game.pass1_opponent_rating
        cells += f'<td class="num fold">{"–" if pass1 is None else pass1}</td>'
    if game.elo:
        counted = {"counted": "yes", "disregarded": "no: the first event without a point"}
        cells += f'<td class="fold">{counted.get(game.counted, "no: the opponent was unrated")}</td>'
    return f"<tr>{cells}{method_cells(row, method, d_offsets)}</tr>"


def where_played(game, events: str, players: str) -> str:
    """A calculation's game's date, event and opponent cells."""
    shown = game.game
    if shown is None:
        return WITHDRAWN
    event = escape(shown.event.name)
    if shown.event.code:
        event = f'<a href="{address(events, shown.event.code)}">{event}</a>'
    if shown.round:
        event += f' <span class="muted">r{shown.round}</span>'
    opponent = escape(game.opponent.name)
    if game.opponent.code:
        opponent = f'<a href="{address(players, game.opponent.code)}">{opponent}</a>'
    return f'<td class="nowrap fold">{date_format(shown.date)}</td><td class="fold">{event}</td><td>{opponent}</td>'


def method_cells(row, method: str, d_offsets: str) -> str:
    """An Elo game's difference, expected score and change; a K game's D, D offset, S offset, Q
    and increment."""
    terms = row.terms
    if method == "elo":
        if not terms:
            return '<td class="fold"></td><td></td><td></td>'
        past = ", counted whole" if terms.past_largest else ""
        past = f", counted as {terms.difference_used}" if terms.limited else past
        return (
            f'<td class="num fold">{terms.difference}{past}</td><td class="num">{row.expected}</td>'
            f'<td class="num">{row.increment}</td>'
        )
    if not terms:
        return ""
    return (
        f'<td class="num fold">{terms.d}</td><td class="num"><a href="{d_offsets}#d-{row.d_row}" '
        f'title="Its row of the D offset table">{row.d_offset}</a></td><td class="num fold">{terms.s_offset}</td>'
        f'<td class="num fold">{terms.q}</td><td class="num">{row.increment}</td>'
    )
