"""A published list as a file: its rows (what the list page shows, rank, previous rating and
change among them, the player's FIDE title and ID, and what the federation's privacy setting
shows of their age: players.ages) and those rows written as CSV, as
fixed-width text and as JSON, as the list's downloads and ``manage.py export_list`` give them;
a live list as CSV; and a club's sheet of its players on every list.

The rows are read a chunk at a time, as a page of the list reads them: the whole list is
300,000 players. The site sends the files (common/downloads.py adds Excel's byte-order mark).
"""

import json
from itertools import islice

from common.downloads import BOM, csv_text
from grading.selectors.history import PREVIOUS_CHUNK, list_publications, previous_ratings
from grading.selectors.ranks import ranks_of
from grading.selectors.rule_sets import rules_named
from grading.selectors.toplists import first_day
from players.ages import age_shower
from players.privacy import privacy_setting

# A download's columns: what the list page shows (rank, previous rating and change among them),
# the player's FIDE title and ID, and last what the privacy setting shows of their age on the
# list's first day (an age band, a year of birth, or nothing).
LIST_COLUMNS = [
    "rank",
    "code",
    "name",
    "title",
    "fide_id",
    "rating",
    "previous",
    "change",
    "type",
    "category",
    "games",
    "last_played",
    "club",
    "age",
]


def download_rows(published, entries):
    """The rows of a download of ``published`` (list_rows) from its ``entries`` (all or some of
    them): ranked on the whole list, with the previous list's ratings of their players, read a
    chunk of rows at a time, as its page shows them."""
    periods = list_publications(published.period.rating_list.code)[1]
    ranks = ranks_of(published)
    ages = age_shower(first_day(published.period), privacy_setting())
    entries = iter(entries)

    def rows():
        while chunk := list(islice(entries, PREVIOUS_CHUNK)):
            previous = previous_ratings(published, [entry.player_id for entry in chunk], periods)
            yield from list_rows(chunk, ranks, previous, ages)

    return rows()


def list_rows(entries, ranks, previous: dict, ages):
    """The rows of a list download, in LIST_COLUMNS order: ``ranks`` (grading.selectors.ranks.Ranks)
    ranks them as the page does, ``previous`` holds their players' previous ratings
    (previous_ratings), ``ages`` (players.ages.age_shower) says what is shown of an age. None
    where there is nothing: no rank (a Partial rating), no previous rating, no title or FIDE ID,
    no age shown."""
    for entry in entries:
        before = previous.get(entry.player_id)
        yield [
            ranks.rank(entry.rating, entry.type),
            entry.player.code,
            entry.player.name,
            entry.player.fide_title or None,
            entry.player.fide_id,
            entry.rating,
            before,
            None if before is None else entry.rating - before,
            entry.type,
            entry.category,
            entry.games,
            entry.last_played,
            entry.club.name if entry.club_id else "",
            str(ages(entry.player.birth_date)) or None,
        ]


def file_name(published) -> str:
    """A download's name without its extension: the list's code and month, and for an edition
    since revised "-original" (the list as first published) or "-rN" (revision N)."""
    edition = ""
    if published.revision != published.period.revision:
        edition = "-original" if published.is_original else f"-r{published.revision}"
    return f"{published.period.rating_list.code}-{published.period.month}{edition}"


def list_csv(rows) -> str:
    """A list's rows (list_rows) as CSV."""
    return csv_text(LIST_COLUMNS, rows)


# The fixed-width text: each column's width, never less than its name's (the header is whole),
# its values cut to fit (names are long at times).
TEXT_WIDTHS = {
    "rank": 6,
    "code": 8,
    "name": 40,
    "title": 5,
    "fide_id": 10,
    "rating": 6,
    "previous": 8,
    "change": 6,
    "type": 8,
    "category": 9,
    "games": 6,
    "last_played": 11,
    "club": 30,
    "age": 10,
}
NUMBERS = {"rank", "fide_id", "rating", "previous", "change", "games"}


def list_text(rows) -> str:
    """A list's rows (list_rows) as fixed-width text: a header line, then a line per player,
    numbers right-aligned, nothing where a value is missing."""

    def line(values):
        cells = []
        for name, value in zip(LIST_COLUMNS, values):
            width, text = TEXT_WIDTHS[name], ("" if value is None else str(value))[: TEXT_WIDTHS[name]]
            cells.append(text.rjust(width) if name in NUMBERS else text.ljust(width))
        return " ".join(cells).rstrip()

    return "\n".join([line(LIST_COLUMNS), *(line(values) for values in rows)]) + "\n"


def list_json(published, rows) -> str:
    """A list's rows (list_rows) as the site's JSON download: which edition it is, and a
    player a line."""
    period = published.period
    body = {
        "list": period.rating_list.code,
        "period": period.month,
        "revision": published.revision,
        "edition": "original" if published.is_original else "revised",
        "rule_set": period.rule_set,
        "players": [dict(zip(LIST_COLUMNS, values)) for values in rows],
    }
    return json.dumps(body, ensure_ascii=False, indent=0)


def export_json(published, rows) -> str:
    """A list's rows (list_rows) as ``manage.py export_list`` writes them: with the rule set's
    method, indented."""
    return (
        json.dumps(
            {
                "list": published.period.rating_list.code,
                "period": published.period.month,
                "revision": published.revision,
                "rule_set": published.period.rule_set,
                "method": rules_named(published.period.rule_set).method,
                "players": [dict(zip(LIST_COLUMNS, row)) for row in rows],
            },
            ensure_ascii=False,
            indent=1,
        )
        + "\n"
    )


def list_files(published, rows, name: str) -> dict[str, str]:
    """The whole list (its rows, list_rows) as CSV (with the byte-order mark Excel needs), text
    and JSON: {file name: text}, what the list's zip file holds."""
    rows = list(rows)
    return {
        f"{name}.csv": BOM + list_csv(rows),
        f"{name}.txt": list_text(rows),
        f"{name}.json": list_json(published, rows),
    }


LIVE_COLUMNS = [
    "code",
    "name",
    "live_rating",
    "type",
    "published_rating",
    "change",
    "new_games",
    "category",
    "club",
    "status",
    "age",
]


def live_csv(entries, day) -> str:
    """A live list's ``entries`` (LiveEntry, all or some) as CSV: provisional, with the published
    rating each moves from, and what the privacy setting shows of an age on ``day`` (today)."""
    ages = age_shower(day, privacy_setting())
    rows = (
        [
            entry.player.code,
            entry.player.name,
            entry.rating,
            entry.type,
            "" if entry.published_rating is None else entry.published_rating,
            "" if entry.change is None else entry.change,
            entry.live_games,
            entry.category,
            entry.club.name if entry.club_id else "",
            "provisional",  # every row says so, wherever it is pasted
            str(ages(entry.player.birth_date)),
        ]
        for entry in entries
    )
    return csv_text(LIVE_COLUMNS, rows)


def club_sheet_csv(club, publications, players, ratings, day) -> str:
    """A club's players with what the privacy setting shows of their age on ``day`` (today), and
    their rating, type and games on every list's latest publication (``ratings``: {(player id,
    list id): ListEntry})."""
    ages = age_shower(day, privacy_setting())
    columns = ["code", "name", "title", "age"]
    for published in publications:
        prefix = f"{published.period.rating_list.code} {published.period.month}"
        columns += [f"{prefix} rating", f"{prefix} type", f"{prefix} games"]
    rows = []
    for player in players:
        row = [player.code, player.name, player.fide_title, str(ages(player.birth_date))]
        for published in publications:
            entry = ratings.get((player.pk, published.period.rating_list_id))
            row += [entry.rating, entry.type, entry.games] if entry else ["", "", ""]
        rows.append(row)
    return csv_text(columns, rows)
