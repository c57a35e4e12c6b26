"""The home page: each list's latest publication with its size, the federation's counts, and the
events most recently rated or approved."""

from django.shortcuts import render

from events.models import Event
from grading.selectors.history import list_sizes, lists_with_latest
from players.models import Club, Player


def home(request):
    lists = lists_with_latest()
    sizes = list_sizes(
        [(item.latest_pk, item.latest_revision, item.latest_published_at) for item in lists if item.latest]
    )
    for item in lists:
        item.size = sizes.get((item.latest_pk, item.latest_revision), 0)
    context = {
        "lists": lists,
        "players": Player.objects.filter(merged_into=None).count(),
        "clubs": Club.objects.count(),
        "recent_events": Event.objects.in_rating().select_related("rating_list").order_by("-end_date")[:10],
    }
    return render(request, "public/home.html", context)
