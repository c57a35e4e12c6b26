"""Pages kept for visitors: an anonymous visitor's copy of a page that only changes when what it
shows changes, under a key that names that state (a publication, a live computation, the rule
sets in force), so that a change is never served stale and nothing has to be forgotten."""

import functools
import hashlib
from pathlib import Path

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpResponse

from players.privacy import privacy_state
from public.lists.filters import ListEntryFilter

# The parameters of the pages a visitor reaches by a list page's own links and menus. Only
# those pages are kept: a name search, an unknown parameter or an invalid value would let
# anyone fill the cache with copies of the list.
LIST_PARAMETERS = frozenset({*ListEntryFilter.base_filters, "page", "sort", "edition"} - {"q"})


@functools.cache
def templates_version() -> str:
    """A digest of the site's templates: a deploy that changes how a page looks does not serve
    the pages kept before it."""
    digest = hashlib.sha256()
    for path in sorted(Path(settings.BASE_DIR, "templates").rglob("*.html")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def keeps(request, parameters=frozenset()) -> bool:
    """Whether this request's page may be kept: an anonymous visitor's (a logged-in user's
    header is theirs) with no message waiting for them (the page shows it), asking only for
    ``parameters``, by an address of sensible length."""
    return (
        not request.user.is_authenticated
        and CookieStorage.cookie_name not in request.COOKIES
        and set(request.GET) <= parameters
        and len(request.get_full_path()) <= 200
    )


def kept_page(request, kind: str, state: str, build, seconds: int, parameters=frozenset()):
    """The response of ``build()`` (a view's own work, returning (response, keepable)), kept
    ``seconds`` for anonymous visitors under ``kind``, ``state`` (what the page shows, in
    words that change whenever it does), the address, the templates' version and what the
    public sees of personal data (players.privacy.privacy_state: a name restricted since, the
    privacy setting changed)."""
    if not keeps(request, parameters):
        return build()[0]
    state = f"{state}|{privacy_state()}"
    path = hashlib.sha256(f"{state}|{request.get_full_path()}|{templates_version()}".encode()).hexdigest()
    key = f"kept-page:{kind}:{path}"
    page = cache.get(key)
    if page is not None:
        return HttpResponse(page)
    response, keepable = build()
    if keepable and response.status_code == 200:
        cache.set(key, response.content, seconds)
    return response
