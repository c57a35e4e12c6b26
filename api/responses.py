"""The API's conventions: JSON errors, pagination, CORS; reads by GET (its writes, an arbiter's
upload and submission, are api/uploads.py's).

Every list is ``{"count", "next", "previous", "results"}``; ``page`` (from 1) and
``page_size`` (1 to MAX_PAGE_SIZE, default DEFAULT_PAGE_SIZE) choose the page. A bad parameter
is a 400 ``{"error": message, "status": 400}``, an unknown object or a page past the end a 404,
anything but GET to a resource that only reads a 405. What Django refuses before or after a
view (a POST's CSRF check, an address that leads nowhere, a server error) answers the same JSON
(common/errors.py).
"""

import functools

from django.core.paginator import Paginator
from django.http import Http404, HttpResponseRedirect, JsonResponse

from chess.months import Month
from chess.numbers import NotAWholeNumber, OutOfRange, read_whole_number
from common.cache_control import CHANGING, declare
from common.errors import json_error

DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 500


class BadParameter(Exception):
    """A 400: the message says which parameter and why."""


class NotFound(Exception):
    """A 404 with a message."""


class MergedInto(Exception):  # noqa: N818 (an answer, not an error)
    """A merged duplicate player's address: the answer is a redirect to the same resource of the
    record it was merged into."""

    def __init__(self, code, kept_code):
        self.code, self.kept_code = code, kept_code

    def location(self, request) -> str:
        path = request.path.replace(f"/players/{self.code}/", f"/players/{self.kept_code}/", 1)
        query = request.META.get("QUERY_STRING", "")
        return path + ("?" + query if query else "")


error = json_error  # the one shape of an error, Django's own refusals under the API included


def wrong_method():
    response = error(405, "This resource is read only: use GET.")
    response["Allow"] = "GET, HEAD"
    return response


def api_view(view):
    """GET only, JSON errors, and readable from any web site (the data is public). Its answers
    change with an approval (live ratings) or a publication: CHANGING, unless the view declares
    otherwise (common/cache_control.py)."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            response = wrong_method()
        else:
            declare(request, CHANGING)
            try:
                response = view(request, *args, **kwargs)
            except BadParameter as problem:
                response = error(400, str(problem))
            except (NotFound, Http404) as problem:
                response = error(404, str(problem) or "Not found.")
            except MergedInto as merged:
                response = HttpResponseRedirect(merged.location(request))
        response["Access-Control-Allow-Origin"] = "*"
        return response

    return wrapper


def whole_number(request, name, default, low=1, high=None):
    value = request.GET.get(name, "")
    if value == "":
        return default
    try:
        return read_whole_number(value, low, high)
    except NotAWholeNumber:
        raise BadParameter(f"{name} must be a whole number, not {value[:20]!r}.") from None
    except OutOfRange:
        raise BadParameter(
            f"{name} must be from {low} to {high}." if high else f"{name} must be {low} or more."
        ) from None


def month_parameter(request, name="period"):
    value = request.GET.get(name, "")
    return check_month(value, name) if value else None


def check_month(value, name="period"):
    try:
        Month.parse(value)  # and not year 0, which is no date
    except ValueError:
        raise BadParameter(f"{name} must be a month as YYYY-MM, not {value[:20]!r}.") from None
    return value


def paginated(request, items, serialize, count=None, **extra):
    """The page of ``items`` (a queryset or list) the request asks for, as a JSON response."""
    page_size = whole_number(request, "page_size", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE)
    number = whole_number(request, "page", 1)
    paginator = Paginator(items, page_size)
    if count is not None:
        paginator.count = count  # a cached_property: a known size saves the COUNT query
    if number > paginator.num_pages:
        raise NotFound(
            f"There is no page {number}: there {'is' if paginator.num_pages == 1 else 'are'} {paginator.num_pages}."
        )
    page = paginator.page(number)
    body = dict(extra)
    body.update(
        {
            "count": paginator.count,
            "next": page_url(request, page.next_page_number()) if page.has_next() else None,
            "previous": page_url(request, page.previous_page_number()) if page.has_previous() else None,
            "results": [serialize(item) for item in page.object_list],
        }
    )
    return JsonResponse(body, json_dumps_params={"ensure_ascii": False})


def page_url(request, number):
    query = request.GET.copy()
    query["page"] = str(number)
    return request.build_absolute_uri(request.path + "?" + query.urlencode())


def one(body):
    return JsonResponse(body, json_dumps_params={"ensure_ascii": False})
