from django.http import HttpResponseBadRequest


class RefuseNulCharacters:
    """A 400 for a URL with a NUL character in its path or its query.

    PostgreSQL refuses NUL in any text, so such a value reaching a query would be a server
    error wherever it is used (a search, a code in a path, the admin's search box). No one
    types a NUL: it is refused once, here, rather than cleaned in every view.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or any("\x00" in key or "\x00" in value
                                         for key, values in request.GET.lists() for value in values):
            return HttpResponseBadRequest("The address contains a NUL character (%00), which no page accepts.",
                                          content_type="text/plain; charset=utf-8")
        return self.get_response(request)
