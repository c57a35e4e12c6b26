"""A CSV file to download that opens cleanly in Excel: UTF-8 with a byte-order mark, without which
Excel reads "Fernández" as "FernÃ¡ndez". The public pages and the admin both send them."""

from django.http import HttpResponse

BOM = "\ufeff"


def csv_download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(BOM + text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
