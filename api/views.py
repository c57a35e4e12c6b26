"""The JSON API's reads, version 1 (documented at /api/, templates/api/docs.html); its writes,
an arbiter's upload and submission, are api/uploads.py's."""

from django.conf import settings
from django.db.models import Q
from django.http import HttpResponsePermanentRedirect, QueryDict
from django.shortcuts import render
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone

from api import serialize
from api.openapi import description
from api.responses import (
    BadParameter,
    MergedInto,
    NotFound,
    api_view,
    check_month,
    month_parameter,
    one,
    paginated,
    wrong_method,
)
from common.cache_control import EDITION, STEADY, declare, shared
from common.errors import no_resource
from common.lookups import by_code
from events.models import Event
from events.selectors import STATUS_ONLY, public_event_by_code, public_events, steps_so_far
from grading.calculator.questions import trial_of
from grading.calculator.trial import MAX_OPPONENTS
from grading.live.selectors import live_entries, live_list_of, live_rule_set
from grading.models import PlayerRating, RatingList, RatingPeriod
from grading.run.breakdown import LinesOf
from grading.selectors.crosstables import event_results
from grading.selectors.explanations import dummy_hidden
from grading.selectors.game_counts import game_counts
from grading.selectors.history import PublishedList, list_publications, list_size, publication_in
from grading.selectors.profiles import ratings_now
from grading.selectors.rule_sets import rules_named
from grading.selectors.toplists import first_day
from players import search
from players.ages import age_shower
from players.models import Club
from players.privacy import privacy_setting
from players.selectors import club_players, clubs_with_members, player_by_code


@shared(STEADY)
def docs(request):
    if request.method not in ("GET", "HEAD"):
        return wrong_method()
    return render(
        request,
        "api/docs.html",
        {"base": request.build_absolute_uri("/api/v1/"), "writes_per_hour": settings.API_WRITES_PER_HOUR},
    )


@api_view
def index(request):
    names = ["api-lists", "api-clubs", "api-events"]
    links = {name[4:]: request.build_absolute_uri(reverse(name)) for name in names}
    # Players are only ever found: the address takes a name or code (a URI template).
    links = {"players": request.build_absolute_uri(reverse("api-players")) + "?q={name or code}", **links}
    return one(
        {
            **links,
            "documentation": request.build_absolute_uri(reverse("api-docs")),
            "openapi": request.build_absolute_uri(reverse("api-openapi")),
        }
    )


@api_view
def openapi(request):
    declare(request, STEADY)
    return one(description(request.build_absolute_uri(reverse("api-index"))))


@api_view
def not_found(request, rest=""):
    if not request.path.endswith("/"):  # the address of a resource without its slash
        match = resolve_or_none(request.path + "/")
        if match and match.func is not not_found:
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(request.path + "/" + ("?" + query if query else ""))
    raise NotFound(no_resource(request.path))


def resolve_or_none(path):
    try:
        return resolve(path)
    except Resolver404:
        return None


def player_or_404(code):
    """The player with ``code`` (players.selectors.player_by_code, as the pages find them), or the
    API's 404; a merged duplicate's address redirects to the record kept."""
    player = player_by_code(code)
    if player is None:
        raise NotFound(f"No player has the code {code!r}.")
    if player.merged_into_id:
        raise MergedInto(code, player.merged_into.code)
    return player


def list_or_404(code):
    """The rating list of ``code`` and its published periods, newest first (list_publications,
    as the pages read them), or the API's 404."""
    rating_list, periods = list_publications(code)
    if rating_list is None:
        raise NotFound(f"No rating list has the code {code!r}.")
    return rating_list, periods


def ages_on(day=None):
    """What the privacy setting shows of an age on ``day`` (today by default): players.ages."""
    return age_shower(day or timezone.localdate(), privacy_setting())


def list_parameter(request):
    code = request.GET.get("list", "")
    if code and not RatingList.objects.filter(code=code).exists():
        raise BadParameter(f"list must be the code of a rating list, not {code[:40]!r}.")
    return code or None


@api_view
def players(request):
    query, code = search.clean(request.GET.get("q")), request.GET.get("code", "").strip()
    if code:
        found = search.live_players().filter(code=code.upper())
    elif len(query) >= 2:
        found = search.matching_players(query)
    else:
        raise BadParameter(
            "Give q (a name, part of one, the start of a code or a FIDE ID; 2 characters or more) or code."
        )
    ages = ages_on()
    return paginated(request, found, lambda player: serialize.player(player, request, ages))


@api_view
def player(request, code):
    player = player_or_404(code)
    body = serialize.player(player, request, ages_on())
    body["ratings_url"] = request.build_absolute_uri(reverse("api-player-ratings", args=[player.code]))
    body["games_url"] = request.build_absolute_uri(reverse("api-player-games", args=[player.code]))
    now = ratings_now(player)
    body["ratings"] = [serialize.current_rating(entry) for entry in now.lines]
    body["live"] = [
        {"list": entry.rating_list.code, **serialize.live_entry(entry, with_player=False)} for entry in now.live
    ]
    return one(body)


@api_view
def player_ratings(request, code):
    player = player_or_404(code)
    rows = PlayerRating.objects.filter(player=player, superseded_at=None).select_related("rating_list", "period")
    rows = rows.order_by("rating_list__display_order", "rating_list__code", "-month")
    if list_code := list_parameter(request):
        rows = rows.filter(rating_list__code=list_code)
    if month := month_parameter(request):
        rows = rows.filter(month=month)

    def shown(row):
        rules = rules_named(row.period.rule_set)
        return serialize.rating(row, dummy_hidden(row, player.fide_title, row.rating_list.code, rules))

    return paginated(request, rows, shown, player=player.code)


@api_view
def player_games(request, code):
    player = player_or_404(code)
    ratings = PlayerRating.objects.filter(player=player, superseded_at=None).select_related("rating_list")
    if list_code := list_parameter(request):
        ratings = ratings.filter(rating_list__code=list_code)
    if month := month_parameter(request):
        ratings = ratings.filter(month=month)
    ratings = ratings.order_by("-month", "rating_list__display_order", "rating_list__code")
    return paginated(request, LinesOf(ratings), serialize.rated_game, player=player.code)


@api_view
def lists(request):
    periods = RatingPeriod.objects.published().order_by("-month")
    by_list = {}
    for period in periods:
        by_list.setdefault(period.rating_list_id, []).append(
            {
                "period": period.month,
                "revision": period.revision,
                "published_at": serialize.iso(period.published_at),
                **serialize.rules(period.rule_set),
            }
        )
    results = []
    for rating_list in RatingList.objects.order_by("display_order", "code"):
        published = by_list.get(rating_list.pk, [])
        for item in published:
            item["url"] = request.build_absolute_uri(
                reverse("api-list-period", args=[rating_list.code, item["period"]])
            )
        results.append(
            {
                "code": rating_list.code,
                "name": rating_list.name,
                "online": rating_list.online,
                "standard_play": rating_list.standard_play,
                "band": rating_list.band,
                "latest_period": published[0]["period"] if published else None,
                "periods": published,
            }
        )
    return one({"count": len(results), "next": None, "previous": None, "results": results})


@api_view
def rating_list(request, code, month=None, revision=None):
    """The latest list, a month's as it stands, or (``revision`` in the address, or the
    original) one edition, which never changes: an EDITION (common/cache_control.py). Each answer
    gives its edition's own address, ``edition_url``."""
    _, periods = list_or_404(code)
    if month is not None:
        check_month(month)
    edition = edition_parameter(request, revision)
    published = publication_in(periods, month, original=edition == "original")
    if published is None:
        raise NotFound(
            f"The {code} list was not published for {month}." if month else f"The {code} list is not published yet."
        )
    if revision is not None:
        if revision > published.period.revision:
            raise NotFound(f"The {code} list of {month} has no revision {revision}.")
        published = PublishedList(published.period, revision)
    if month is not None and (revision is not None or edition == "original"):
        declare(request, EDITION)
    address = reverse("api-list-edition", args=[code, published.period.month, published.revision])
    return paginated(
        request,
        published.entries(),
        serialize.list_entries(request, ages_on(first_day(published.period))),
        count=list_size(published),
        list=code,
        period=published.period.month,
        revision=published.revision,
        edition=edition,
        edition_url=request.build_absolute_uri(address),
        **serialize.rules(published.period.rule_set),
    )


def edition_parameter(request, revision) -> str:
    """``edition`` (revised, the default, or original); in an edition's address, what it names."""
    edition = request.GET.get("edition")
    if revision is not None:
        if edition is not None:
            raise BadParameter("edition is not taken where the address names the revision.")
        return "original" if revision == 0 else "revised"
    if edition not in (None, "revised", "original"):
        raise BadParameter(f"edition must be revised or original, not {edition[:20]!r}.")
    return edition or "revised"


@api_view
def live_list(request, code):
    rating_list, _ = list_or_404(code)
    live = live_list_of(rating_list)
    if live is None:
        raise NotFound(f"No live ratings have been computed for the {code} list yet.")
    return paginated(
        request,
        live_entries(rating_list),
        serialize.live_entries(request, ages_on()),
        list=code,
        **serialize.live_list(live, live_rule_set(live)),
    )


@api_view
def clubs(request):
    return paginated(
        request,
        clubs_with_members(),
        lambda club: {
            **serialize.club(club),
            "players": club.members,
            "url": request.build_absolute_uri(reverse("api-club", args=[club.code])),
        },
    )


@api_view
def club(request, code):
    club = by_code(Club.objects, code)
    if club is None:
        raise NotFound(f"No club has the code {code!r}.")
    ages = ages_on()
    return paginated(
        request,
        club_players(club),
        lambda player: serialize.player(player, request, ages),
        club=serialize.club(club),
    )


@api_view
def events(request):
    found = public_events().order_by("-end_date", "code")
    if list_code := list_parameter(request):
        found = found.filter(rating_list__code=list_code)
    kind = request.GET.get("kind", "")
    if kind:
        if kind not in Event.Kind.values:
            raise BadParameter(f"kind must be one of {', '.join(Event.Kind.values)}, not {kind[:20]!r}.")
        found = found.filter(kind=kind)
    if month := month_parameter(request, "month"):
        found = found.filter(end_date__year=int(month[:4]), end_date__month=int(month[5:]))
    if query := search.clean(request.GET.get("q")):
        found = found.filter(Q(name__icontains=query) | Q(code__iexact=query))
    return paginated(request, found, lambda event: serialize.event(event, request))


@api_view
def event(request, code):
    event = public_event_by_code(code)
    if event is None:
        raise NotFound(f"No approved or rated event has the code {code!r}.")
    body = serialize.event(event, request)
    if event.status in STATUS_ONLY:  # its results are not public yet: how far it has come
        return one({**body, **serialize.event_status(event, steps_so_far(event))})
    results = event_results(event)
    pins = {entry.pk: entry.pin for entry in results.entries}
    body["entries"] = [serialize.entry(entry, results.points[entry.pk]) for entry in results.entries]
    counts = game_counts(event, results)
    body["games"] = [serialize.game(game, pins, counts.reasons.get(game.pk)) for game in results.games]
    body["games_counted"] = serialize.game_counts(counts)
    return one(body)


SUBJECT = ("list", "player", "rating", "type", "games", "age", "title")


@api_view
def calculator(request):
    data = QueryDict(mutable=True)
    for name in SUBJECT:
        data[name] = request.GET.get(name, "")
    games = request.GET.getlist("opponent")
    if len(games) > MAX_OPPONENTS:
        raise BadParameter(f"At most {MAX_OPPONENTS} opponents, not {len(games)}.")
    for row, text in enumerate(games):
        opponent, colon, result = text.rpartition(":")
        if not colon:
            raise BadParameter(
                f"opponent {row + 1} must be CODE_OR_RATING:RESULT (1850:1, 123456A:0.5), not {text[:40]!r}."
            )
        data[f"o-{row}-opponent"], data[f"o-{row}-result"] = opponent, result
    data.update({"o-TOTAL_FORMS": str(len(games)), "o-INITIAL_FORMS": "0"})
    trial, form, opponents = trial_of(data, timezone.localdate())
    if trial is None:
        raise BadParameter(" ".join(calculator_errors(form, opponents)))
    return one(serialize.trial(trial))


def calculator_errors(form, opponents):
    """Every error of the calculator's forms, each with the parameter it is about."""
    for name, errors in form.errors.items():
        yield from (f"{name}: {error}" if name != "__all__" else error for error in errors)
    for error in opponents.non_form_errors():
        yield f"opponent: {error}"
    for row, errors in enumerate(opponents.errors):
        for name, messages in errors.items():
            yield from (
                f"opponent {row + 1} ({'result' if name == 'result' else 'code or rating'}): {m}" for m in messages
            )
