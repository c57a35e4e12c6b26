"""Who may keep a response, and for how long: one decision, read by every page, feed, download and
API answer (docs/cache-control.md).

A view declares the policy of what it answers, by the decorator ``shared(POLICY)`` or, where its
address decides, ``declare(request, POLICY)``; ``CachePolicy`` middleware has the last word and
writes the header. Only three policies are shared, by a browser and by a proxy or CDN in front
(``s-maxage``):

- EDITION: a published edition named by its address (a list's month and revision, its files).
  It never changes but for what the privacy setting lets the public see (a name restricted, what
  is shown of an age), a name corrected and a deploy's new look, so a CDN keeps it a day, not a
  year: a restriction reaches every copy within a day without anyone purging the CDN.
- STEADY: pages that change with a deploy or the rule sets in force (the help pages, the API's
  description): an hour.
- CHANGING: everything that a publication, a revision or an approval changes (the latest list, a
  month's list as it stands, live ratings, players, events, feeds, search, the API's reads): a
  minute at the CDN, half that in a browser, and a stale copy served for half a minute more while
  one request fetches the new one (the crowd on a publication day does not wait on the site).

Anything else is ``NEVER_SHARED``: a page without a declared policy, a logged-in user's (or any
request with a session cookie, or an Authorization header), any response that sets a cookie or
varies on Cookie, anything but GET and HEAD, an error other than a 404 or 410, and every page under
``settings.NEVER_SHARED_PATHS`` (the admin, the arbiters' and the accounts' pages), whatever it
declared.
"""

import functools
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils.cache import cc_delim_re


@dataclass(frozen=True)
class Policy:
    name: str
    browser: int  # max-age: seconds a browser keeps it
    shared: int  # s-maxage: seconds a proxy or CDN keeps it
    stale: int = 0  # stale-while-revalidate: seconds a stale copy is served while a fresh one is fetched
    immutable: bool = False  # a browser need not ask again while it is fresh, even on a reload

    @property
    def header(self) -> str:
        parts = ["public", f"max-age={self.browser}", f"s-maxage={self.shared}"]
        if self.stale:
            parts.append(f"stale-while-revalidate={self.stale}")
        if self.immutable:
            parts.append("immutable")
        return ", ".join(parts)


EDITION = Policy("edition", browser=3600, shared=24 * 3600, immutable=True)
STEADY = Policy("steady", browser=300, shared=3600, stale=60)
CHANGING = Policy("changing", browser=30, shared=60, stale=30)
NEVER_SHARED = "private, no-store"

# What a declared policy covers besides a 200: a redirect or an address with nothing (yet) at it,
# kept no longer than a changing page (a month not yet published may be by the next visit).
SHORT_STATUSES = frozenset({301, 302, 307, 308, 404, 410})
SAFE_METHODS = frozenset({"GET", "HEAD"})


def declare(request, policy: Policy):
    """The policy of the response to ``request`` (the last declared wins)."""
    request.cache_policy = policy


def shared(policy: Policy):
    """A view's responses may be kept as ``policy`` says (the view may declare another)."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            declare(request, policy)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def policy_of(request, response) -> Policy | None:
    """The shared policy ``response`` goes out with, or None: kept by no one but its browser."""
    policy = getattr(request, "cache_policy", None)
    if policy is None or not shareable(request, response):
        return None
    if response.status_code == 200:
        return policy
    if response.status_code in SHORT_STATUSES:
        return min(policy, CHANGING, key=lambda each: each.shared)
    return None


def shareable(request, response) -> bool:
    """Whether nothing about the request or the response is its visitor's own."""
    return (
        request.method in SAFE_METHODS
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
        and not response.cookies
        and "cookie" not in varies_on(response)
        and not request.path_info.startswith(tuple(settings.NEVER_SHARED_PATHS))
    )


def varies_on(response) -> set[str]:
    return {name.strip().lower() for name in cc_delim_re.split(response.get("Vary", "")) if name.strip()}


class CachePolicy:
    """Writes Cache-Control on every response the site's views answer: the declared policy where
    it may be shared (policy_of), else ``private, no-store``. It sits outside the session, CSRF
    and messages middleware, so that it sees the cookies they set, and inside
    ConditionalGetMiddleware, which adds the ETag (none to what no one may store) and answers 304
    with these headers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = policy_of(request, response)
        response["Cache-Control"] = policy.header if policy else NEVER_SHARED
        if policy is None:
            response.headers.pop("Expires", None)  # never_cache's: Cache-Control says it all
        return response


class AnonymousWithoutSession:
    """A request without a session cookie is an anonymous visitor's: its user is known without
    reading the (empty) session. Reading it would mark the session accessed, and Django then
    sends ``Vary: Cookie``, which a CDN either ignores or keys on every cookie a visitor carries;
    so a public page touches no session. Placed just after AuthenticationMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            request.user = AnonymousUser()
        return self.get_response(request)
