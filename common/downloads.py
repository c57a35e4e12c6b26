"""Files to download: CSV that opens cleanly in Excel (UTF-8 with a byte-order mark, without which
Excel reads "Fernández" as "FernÃ¡ndez", and no cell a spreadsheet would take for a formula),
text and zip files. The public pages, the admin and the laboratory all send them."""

import csv
import io
import zipfile

from django.http import HttpResponse

from chess.names import formula_start

BOM = "\ufeff"


def spreadsheet_safe(value):
    """A cell a spreadsheet would run as a formula (chess.names.formula_start) as text, with an
    apostrophe before it, as OWASP's advice on CSV injection has it."""
    return "'" + value if isinstance(value, str) and formula_start(value) else value


def csv_text(columns, rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([spreadsheet_safe(column) for column in columns])
    writer.writerows([spreadsheet_safe(value) for value in row] for row in rows)
    return out.getvalue()


def csv_download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(BOM + text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def text_download(text: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def zip_download(files: dict[str, str], filename: str) -> HttpResponse:
    """``files`` ({name: text}) in one zip file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
