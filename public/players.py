"""Public player and club pages: search, a player's ratings and history, how a rating was
calculated, clubs and their players."""

from urllib.parse import quote

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from chess.months import Month
from common.downloads import csv_download
from common.lookups import by_code
from events.standings import head_to_head
from grading.selectors.downloads import club_sheet_csv
from grading.selectors.explanations import explained_rating
from grading.selectors.history import latest_publications, lines_on_lists
from grading.selectors.profiles import player_profile
from players import search
from players.ages import age_shown
from players.models import Club
from players.privacy import privacy_setting
from players.selectors import club_players, clubs_with_members, player_by_code
from public import rendering


def search_page(request):
    query = search.clean(request.GET.get("q"))
    limit = search_limit(request)
    # One more than shown, to know whether there are more: a search answers who you meant, and
    # counting every near match of a common name would cost more than the page.
    players, exact = search.find_players(query, limit=limit + 1)
    if exact:
        return redirect("player", exact.code)
    more, players = len(players) > limit, players[:limit]
    publications = latest_publications()
    ratings = lines_on_lists(publications, [player.pk for player in players])
    results = [
        (player, [ratings.get((player.pk, pub.period.rating_list_id)) for pub in publications.values()])
        for player in players
    ]
    link_players(players)
    context = {
        "query": query,
        "results": results,
        "publications": publications.values(),
        "more": more,
        "can_show_more": more and limit < MOST_SHOWN,
    }
    return render(request, "public/search.html", context)


def link_players(players):
    """Give each player ``url`` and ``club_url``: one reversal for the page, not two a row."""
    prefix, clubs = reverse("player-search"), reverse("clubs")
    for player in players:
        player.url = f"{prefix}{quote(player.code)}/"
        player.club_url = f"{clubs}{quote(player.club.code)}/" if player.club_id else ""


MOST_SHOWN = 50


def search_limit(request):
    return MOST_SHOWN if request.GET.get("more") else 20


def the_player(code):
    """The player with ``code``, or 404; a merged duplicate's code leads to the record kept."""
    player = player_by_code(code)
    if player is None:
        raise Http404(f"No player has the code {code[:20]}.")
    return player


def player_page(request, code):
    player = the_player(code)
    if player.merged_into_id:
        return redirect("player", player.merged_into.code)
    profile = player_profile(player)
    players, events = reverse("player-search"), reverse("events")
    for line in (line for item in profile.lists for row in item.rows for line in row.lines or () if line.game):
        line.opponent_url = player_url(line.opponent.code, players=players)
        line.event_url = event_url(line.game.event.code, events)
    lists = [list_shown(player, item, players) for item in profile.lists]
    context = {
        "player": player,
        "age_shown": age_shown(player, timezone.localdate(), privacy_setting()),
        "lists": lists,
        "chart": chart_data(player, lists),
        "events": profile.events,
        "on_their_way": profile.on_their_way,
        "events_html": rendering.event_rows(profile.events, lambda code: event_url(code, events)),
    }
    return render(request, "public/player.html", context)


def list_shown(player, item, players) -> dict:
    """A list of the player's profile (grading.selectors.profiles.ListProfile) as the page shows
    it: the addresses of each month's calculation, and the history's rows written."""
    for row in item.rows:
        row.calculation = player_url(player.code, f"{item.rating_list.code}/{row.month}/", players)
    live = [
        (month, player_url(player.code, f"live/{item.rating_list.code}/{month}/", players))
        for month in item.live_months
    ]
    return {
        **vars(item),
        "live_calculations": live,
        "rows_html": rendering.history_rows(item.rating_list.name, item.rows),
    }


def event_url(code, events=None):
    """/events/CODE/; a long page passes ``events``, reverse("events"), as for player_url."""
    return f"{events or reverse('events')}{quote(code)}/"


def player_url(code, rest="", players=None):
    """/players/CODE/ + rest; a long page passes ``players``, reverse("player-search"), so as
    not to reverse a URL for each of its links."""
    return f"{players or reverse('player-search')}{quote(code)}/{rest}"


def chart_data(player, lists):
    """What static/js/player-chart.js draws: a line per list, a point per rated month."""
    datasets = []
    for item in lists:
        points = [
            {"x": row.month, "y": row.rating, "partial": row.type == "partial", "url": row.calculation}
            for row in reversed(item["rows"])
            if row.rating is not None  # a pending Elo state has none
        ]
        if points:
            datasets.append({"label": item["rating_list"].name, "code": item["rating_list"].code, "points": points})
    return {
        "months": months_between([point["x"] for dataset in datasets for point in dataset["points"]]),
        "datasets": datasets,
    }


def months_between(months):
    """Every month from the earliest to the latest of ``months``: the chart's axis."""
    if not months:
        return []
    first, last = Month.parse(min(months)), Month.parse(max(months))
    axis = []
    while first <= last:
        axis.append(str(first))
        first += 1
    return axis


def calculation_page(request, code, list_code, month):
    player = the_player(code)
    explained = explained_rating(player, list_code, month)
    return calculation_shown(request, player, explained, f"rating on the {list_code} list for {month}")


def calculation_shown(request, player, explained, missing: str):
    """The calculation page of a rating (published or live) the selector explained, or a 404
    that says which rating the player does not have."""
    if explained is None:
        raise Http404(f"{player.name} has no {missing}.")
    return render(request, "public/calculation.html", {"player": player, **explained})


def club_index(request):
    return render(request, "public/clubs.html", {"clubs": clubs_with_members()})


def the_club(code):
    club = by_code(Club.objects, code)
    if club is None:
        raise Http404(f"No club has the code {code[:20]}.")
    return club


def club_members(club):
    """The club's players, their ratings on the latest lists, and those publications."""
    players = list(club_players(club))
    publications = latest_publications()
    return players, publications, lines_on_lists(publications, [player.pk for player in players])


def club_csv(request, code):
    club = the_club(code)
    players, publications, ratings = club_members(club)
    sheet = club_sheet_csv(club, publications.values(), players, ratings, timezone.localdate())
    return csv_download(sheet, f"club-{club.code}.csv")


def club_page(request, code):
    club = the_club(code)
    if club.code != code:
        return redirect("club", club.code)  # typed in another case
    players, publications, ratings = club_members(club)
    rows = [
        (player, [ratings.get((player.pk, pub.period.rating_list_id)) for pub in publications.values()])
        for player in players
    ]
    rated = [sum(1 for _, entries in rows if entries[i]) for i in range(len(publications))]
    context = {"club": club, "rows": rows, "publications": list(zip(publications.values(), rated))}
    return render(request, "public/club.html", context)


def head_to_head_page(request, code, other):
    player, opponent = the_player(code), the_player(other)
    if player.merged_into_id or opponent.merged_into_id:  # a duplicate's games are the record kept's
        kept = [p.merged_into or p for p in (player, opponent)]
        return redirect("head-to-head", kept[0].code, kept[1].code)
    if player == opponent:
        raise Http404("A player has no games against themself.")
    games, points, played = head_to_head(player, opponent)
    context = {"player": player, "opponent": opponent, "games": games, "points": points, "played": played}
    return render(request, "public/head_to_head.html", context)


CHOICES_SHOWN = 20  # an ambiguous opponent's choices, as many as the search page shows


def head_to_head_search(request, code):
    """The player page's form: another player's name or code, found as the search finds them,
    leads to the two players' games; an ambiguous name offers its players to choose from."""
    player = the_player(code)
    query = search.clean(request.GET.get("opponent"))
    context = {"player": player, "query": query}
    if not query:
        return render(request, "public/head_to_head.html", {**context, "error": "Give another player's name or code."})
    found, exact = search.find_players(query, limit=CHOICES_SHOWN + 2)  # the player may be among them
    others = [other for other in found if other != player]
    if exact == player:
        error = f"{query.upper()} is {player.name}'s own code: give another player's."
    elif not others:
        error = f"No other player matches “{query}”."
    elif len(others) == 1:
        return redirect("head-to-head", player.code, others[0].code)
    else:
        choices = others[:CHOICES_SHOWN]
        link_players(choices)
        for choice in choices:
            choice.versus_url = reverse("head-to-head", args=[player.code, choice.code])
        more = " (and more: give more of the name)" if len(others) > CHOICES_SHOWN else ""
        error = f"{len(choices)} players match “{query}”{more}: choose one."
        context["choices"] = choices
    return render(request, "public/head_to_head.html", {**context, "error": error})
