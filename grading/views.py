from django.contrib.admin.views.decorators import staff_member_required
from django.db.models import Count, Max, Q
from django.shortcuts import render

from events.models import Event
from players.models import Club, Player

from . import services
from .models import RatingList


def home(request):
    lists = RatingList.objects.annotate(
        latest=Max("periods__month", filter=Q(periods__status="published")),
        rated_players=Count("ratings__player", distinct=True),
    ).order_by("display_order", "code")
    context = {
        "lists": lists,
        "players": Player.objects.filter(merged_into=None).count(),
        "clubs": Club.objects.count(),
        "recent_events": Event.objects.filter(status__in=["approved", "rated"])
        .select_related("rating_list")
        .order_by("-end_date")[:10],
    }
    return render(request, "home.html", context)


@staff_member_required
def system_status(request):
    worker_ok, worker = services.check_worker()
    return render(request, "admin/system_status.html", {"worker_ok": worker_ok, "worker": worker})
