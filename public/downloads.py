"""Files to download: CSV that opens cleanly in Excel (UTF-8 with a byte-order mark, without which
Excel reads "Fernández" as "FernÃ¡ndez"), a club's sheet with every list, and a published list
as fixed-width text, as JSON, and the whole list in all three formats zipped."""

import io
import json
import zipfile

from django.http import HttpResponse

from common.downloads import BOM
from grading.selectors.history import LIST_COLUMNS, csv_text, list_csv

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
}
NUMBERS = {"rank", "fide_id", "rating", "previous", "change", "games"}


def list_text(rows) -> str:
    """A list's rows (grading.selectors.ranks.download_rows) as fixed-width text: a header line, then a
    line per player, numbers right-aligned, nothing where a value is missing."""

    def line(values):
        cells = []
        for name, value in zip(LIST_COLUMNS, values):
            width, text = TEXT_WIDTHS[name], ("" if value is None else str(value))[: TEXT_WIDTHS[name]]
            cells.append(text.rjust(width) if name in NUMBERS else text.ljust(width))
        return " ".join(cells).rstrip()

    return "\n".join([line(LIST_COLUMNS), *(line(values) for values in rows)]) + "\n"


def list_json(published, rows) -> str:
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


def text_download(text: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def list_zip(published, rows, name: str) -> HttpResponse:
    """The whole list (its rows, grading.selectors.ranks.download_rows) as CSV, text and JSON in one zip file."""
    rows = list(rows)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{name}.csv", BOM + list_csv(rows))
        archive.writestr(f"{name}.txt", list_text(rows))
        archive.writestr(f"{name}.json", list_json(published, rows))
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}.zip"'
    return response


def club_sheet_csv(club, publications, players, ratings) -> str:
    """A club's players with their rating, type and games on every list's latest publication."""
    columns = ["code", "name", "title"]
    for published in publications:
        prefix = f"{published.period.rating_list.code} {published.period.month}"
        columns += [f"{prefix} rating", f"{prefix} type", f"{prefix} games"]
    rows = []
    for player in players:
        row = [player.code, player.name, player.fide_title]
        for published in publications:
            entry = ratings.get((player.pk, published.period.rating_list_id))
            row += [entry.rating, entry.type, entry.games] if entry else ["", "", ""]
        rows.append(row)
    return csv_text(columns, rows)
