"""What every request goes through: NUL characters refused, the Content-Security-Policy header,
and the client's address as the login lockout counts it."""

from django.conf import settings
from django.core.exceptions import BadRequest


class RefuseNulCharacters:
    """A 400 for a URL with a NUL character in its path or its query.

    PostgreSQL refuses NUL in any text, so such a value reaching a query would be a server
    error wherever it is used (a search, a code in a path, the admin's search box). No one
    types a NUL: it is refused once, here, rather than cleaned in every view.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or any(
            "\x00" in key or "\x00" in value for key, values in request.GET.lists() for value in values
        ):
            # Answered by common.errors.bad_request: JSON under the API, plain text elsewhere.
            raise BadRequest("The address contains a NUL character (%00), which no page accepts.")
        return self.get_response(request)


def client_address(request) -> str:
    """The visitor's address: behind our proxy, the last one it added to X-Forwarded-For (the
    ones before it are whatever the visitor sent); else the connection's."""
    if settings.BEHIND_PROXY:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR", "")


class ContentSecurityPolicy:
    """Scripts, styles, images and forms from this site only, and no framing.

    No page has an inline script or style (the chart's data is a JSON script block, which is
    not run): a script slipped into a name by an upload could not run even if it were shown
    unescaped somewhere.
    """

    POLICY = (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    )

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", self.POLICY)
        return response
