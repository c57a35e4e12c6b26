"""The answers to what Django refuses itself (a CSRF failure, an address that leads nowhere, a
view's PermissionDenied or BadRequest, a server error): under the API's address, JSON as every
answer of the API is; elsewhere the site's own pages.

Django calls them through ``handler400`` to ``handler500`` (config/urls.py) and
``CSRF_FAILURE_VIEW`` (config/settings.py). In DEBUG, Django shows its own 404 and 500 pages.
"""

from django.core.exceptions import BadRequest
from django.http import HttpResponse, JsonResponse
from django.urls import Resolver404
from django.views import csrf, defaults

API_PREFIX = "/api/"  # where config/urls.py includes api.urls


def under_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


def json_error(status: int, message: str, **details) -> JsonResponse:
    """The API's error: ``{"error": message, "status": status}`` and any ``details`` (an upload's
    report, a form's fields), readable from any web site."""
    response = JsonResponse({"error": message, "status": status, **details}, status=status)
    response["Access-Control-Allow-Origin"] = "*"
    return response


def no_resource(path: str) -> str:
    return f"No API resource at {path}: see {API_PREFIX} for the documentation."


def csrf_failure(request, reason=""):
    if under_api(request):
        # No form posts to the API (its writes take an API token, not a session's CSRF token).
        return json_error(403, f"Refused ({reason.rstrip('.')}): this resource is read only, use GET.")
    return csrf.csrf_failure(request, reason)


def bad_request(request, exception):
    # A BadRequest's message is ours (common.middleware); a SuspiciousOperation's is kept from
    # the visitor, as Django's own page does.
    message = str(exception) if type(exception) is BadRequest and str(exception) else ""
    if under_api(request):
        return json_error(400, message or "Bad request.")
    if message:
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    if under_api(request):
        return json_error(403, str(exception) or "Not allowed.")
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception):
    if under_api(request):
        said = "" if isinstance(exception, Resolver404) else str(exception)
        return json_error(404, said or no_resource(request.path))
    return defaults.page_not_found(request, exception)


def server_error(request):
    if under_api(request):
        return json_error(500, "Something went wrong on the server; the error has been logged. Try again in a moment.")
    return defaults.server_error(request)
