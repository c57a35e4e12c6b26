"""Public player and club pages: search, a player's ratings and history, how a rating was
calculated, clubs and their players."""

from collections import defaultdict
from urllib.parse import quote

from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from chess.months import Month
from common.downloads import csv_download
from common.lookups import by_code
from events.standings import head_to_head
from grading.engine import RULE_SETS
from grading.engine.codes import STATE_TYPE_CODES
from grading.live.selectors import live_of_player
from grading.models import LiveRating, PlayerRating
from grading.run.breakdown import rated_games
from grading.selectors.calculations import first_rating_progress_of
from grading.selectors.event_ratings import events_played
from grading.selectors.explanations import explained_rating, progress_text
from grading.selectors.history import (
    entries_of,
    latest_publications,
    player_history,
    previous_publications,
)
from grading.selectors.ranks import GROUPS, groups_of, ranks_of_many
from players import search
from players.models import Club, Player
from players.selectors import player_by_code
from public import rendering
from public.downloads import club_sheet_csv

RECENT_PERIODS = 12  # periods whose games the player page lists, per list


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
    ratings = current_ratings(publications, [player.pk for player in players])
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


def current_ratings(publications, player_ids):
    """{(player id, list id): ListEntry} on the latest published lists."""
    list_of = {published.period.pk: list_id for list_id, published in publications.items()}
    return {
        (entry.player_id, list_of[entry.period_id]): entry for entry in entries_of(publications.values(), player_ids)
    }


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
    history = player_history(player.pk)
    publications = latest_publications()
    before = previous_publications()
    rank_tables = ranks_of_many(publications.values())
    games = recent_games(history)
    players = reverse("player-search")
    lists = []
    for published in publications.values():
        rating_list = published.period.rating_list
        rows = [row for row in history if row.rating_list_id == rating_list.pk and row.month <= published.period.month]
        for earlier, row in zip([None] + rows, rows):
            row.change = row.rating - earlier.rating if earlier and earlier.rating and row.rating else None
            row.lines = games.get(row.pk)  # None: older than the periods whose games are shown
            row.calculation = player_url(player.code, f"{rating_list.code}/{row.month}/", players)
        latest = rows[-1] if rows else None
        entry = latest if latest and on_the_list(latest, published) else None
        next_period = Month.parse(published.period.month) + 1
        rules = RULE_SETS[published.period.rule_set]
        pending = latest and latest.type == PlayerRating.Type.PENDING
        lists.append(
            {
                "list": rating_list,
                "published": published,
                # On the list iff active then: the same test that wrote the list's snapshot.
                "entry": entry,
                "ranks": ranks(player, entry, published, rank_tables[published.period.pk, published.revision]),
                "previous": previous_rating(rows, before.get(rating_list.pk)),
                "latest": latest,
                "progress": progress_text(first_rating_progress_of(latest, next_period), rules) if pending else "",
                "elo": rules.is_elo,
                "rules": rules,
                "rows": rows[::-1],
                "rows_html": rendering.history_rows(rating_list.name, rows[::-1]),
            }
        )
    live = live_of_player(player.pk, [item["list"].pk for item in lists])
    live_ratings = list(LiveRating.objects.filter(player=player).order_by("month")) if live else []
    for item in lists:
        if entry := live.get(item["list"].pk):
            item["live"] = entry
            item["live_list"] = entry.rating_list.live
            item["live_calculations"] = [
                (row.month, player_url(player.code, f"live/{item['list'].code}/{row.month}/", players))
                for row in live_ratings
                if row.rating_list_id == item["list"].pk
            ]
    names = {item["list"].pk: item["list"].name for item in lists}
    shown = {line.game.pk: line.game for lines in games.values() for line in lines if line.game}
    played = [event for event in events_played(history + live_ratings, shown) if event.rating_list_id in names]
    for event in played:
        event.list_name = names[event.rating_list_id]
    events = reverse("events")
    context = {
        "player": player,
        "lists": lists,
        "chart": chart_data(player, lists),
        "events": played,
        "events_html": rendering.event_rows(played, lambda code: event_url(code, events)),
    }
    return render(request, "public/player.html", context)


def ranks(player, entry, published, table) -> list:
    """[(group, rank)] of a player on a published list: the whole list, then their groups; none
    for a rating that is not ranked (a Partial one)."""
    if entry is None or table.rank(entry.rating, entry.type) is None:
        return []
    groups = groups_of(player, published.period.month)
    return [("national", table.rank(entry.rating, entry.type))] + [
        (GROUPS[group], table.rank(entry.rating, entry.type, group)) for group in groups
    ]


def previous_rating(rows, previous) -> int | None:
    """The player's rating on the list published before the latest, if they were on it."""
    if previous is None:
        return None
    then = [row for row in rows if row.month <= previous.period.month]
    return then[-1].rating if then and on_the_list(then[-1], previous) else None


def on_the_list(state, published):
    last = Month.parse(state.last_played).index if state.last_played else -1
    rules = RULE_SETS[published.period.rule_set]
    return bool(
        rules.listed(Month.parse(published.period.month), STATE_TYPE_CODES[state.type], state.rating or 0, last)
    )


def event_url(code, events=None):
    """/events/CODE/; a long page passes ``events``, reverse("events"), as for player_url."""
    return f"{events or reverse('events')}{quote(code)}/"


def player_url(code, rest="", players=None):
    """/players/CODE/ + rest; a long page passes ``players``, reverse("player-search"), so as
    not to reverse a URL for each of its links."""
    return f"{players or reverse('player-search')}{quote(code)}/{rest}"


def recent_games(history):
    """{PlayerRating id: [RatedGame]} for each list's latest RECENT_PERIODS rows."""
    by_list = defaultdict(list)
    for row in history:
        by_list[row.rating_list_id].append(row)
    games = rated_games([row for rows in by_list.values() for row in rows[-RECENT_PERIODS:]])
    events, players = reverse("events"), reverse("player-search")
    for line in (line for lines in games.values() for line in lines if line.game):
        line.opponent_url = player_url(line.opponent.code, players=players)
        line.event_url = event_url(line.game.event.code, events)
    return games


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
            datasets.append({"label": item["list"].name, "code": item["list"].code, "points": points})
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
    if explained is None:
        raise Http404(f"{player.name} has no rating on the {list_code} list for {month}.")
    return render(request, "public/calculation.html", {"player": player, **explained})


def club_index(request):
    clubs = Club.objects.annotate(members=Count("players", filter=Q(players__merged_into=None))).order_by("name")
    return render(request, "public/clubs.html", {"clubs": clubs})


def the_club(code):
    club = by_code(Club.objects, code)
    if club is None:
        raise Http404(f"No club has the code {code[:20]}.")
    return club


def club_members(club):
    """The club's players, their ratings on the latest lists, and those publications."""
    players = list(Player.objects.filter(club=club, merged_into=None).order_by("surname", "forenames", "code"))
    publications = latest_publications()
    return players, publications, current_ratings(publications, [player.pk for player in players])


def club_csv(request, code):
    club = the_club(code)
    players, publications, ratings = club_members(club)
    return csv_download(club_sheet_csv(club, publications.values(), players, ratings), f"club-{club.code}.csv")


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
