"""The e-mail alerts' pages: follow a player, a club or a list; confirm; manage; unsubscribe.

The key in an address is the authority (alerts/follows.py): only the follower's mail holds it.
The one-click unsubscribe takes a POST from a mail program, which has no CSRF token: the key
alone stands for the address there, as RFC 8058 has it.
"""

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from alerts.follows import (
    LINK_INTERVAL,
    MOST_WAITING,
    FollowRefused,
    MailDelayed,
    Target,
    ask_for_link,
    ask_to_follow,
    confirm,
    follower_of,
    stop_following,
    unsubscribe,
)
from alerts.letters import unsubscribe_path, unsubscribe_token
from alerts.models import Follower
from common.cache import within_rate
from common.lookups import by_code
from common.middleware import client_address
from grading.models import RatingList
from players.models import Club
from players.selectors import player_by_code

MINUTES = int(LINK_INTERVAL.total_seconds() // 60)
ASKS_PER_HOUR = 20  # from one visitor's address: a person follows a few things, a script many


class AddressForm(forms.Form):
    email = forms.EmailField(label="Your e-mail address", max_length=254)
    # The honeypot: hidden from people by the page's style, filled in by form-filling robots.
    website = forms.CharField(required=False, label="Leave this empty")


def target_of(request) -> Target:
    """What the address asks to follow, from ``?player=``, ``?club=`` or ``?list=``; or 404."""
    player = club = rating_list = None
    if code := request.GET.get("player", ""):
        player = player_by_code(code[:20])
        player = None if player is None or player.merged_into_id else player
    elif code := request.GET.get("club", ""):
        club = by_code(Club.objects.all(), code[:20])
    elif code := request.GET.get("list", ""):
        rating_list = RatingList.objects.filter(code=code[:40]).first()
    if player or club or rating_list:
        kind = "player" if player else "club" if club else "list"
        return Target(kind, player=player, club=club, rating_list=rating_list)
    raise Http404("Follow what? The address names no player, club or list of ours.")


def follow(request):
    target = target_of(request)
    form = AddressForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["website"]:  # a robot: it is told what a person would be, and nothing is done
            return render(request, "public/alerts/check_inbox.html", {"target": target.thing, "minutes": MINUTES})
        refusal = too_many(request)
        if refusal is None:
            try:
                not_mailed = ask_to_follow(form.cleaned_data["email"], target)
                context = {"target": target.thing, "minutes": MINUTES, "not_mailed": not_mailed}
                return render(request, "public/alerts/check_inbox.html", context)
            except (FollowRefused, MailDelayed) as problem:
                refusal = str(problem)
        form.add_error(None, refusal)
    return render(request, "public/alerts/follow.html", {"form": form, "target": target}, status=status_of(form))


def too_many(request) -> str | None:
    allowed, wait = within_rate(f"alerts-asks:{client_address(request)}", ASKS_PER_HOUR, 3600)
    return None if allowed else f"Too many requests from your connection: try again in {wait // 60 + 1} minutes."


def status_of(form) -> int:
    return 400 if form.is_bound and form.errors else 200


def manage_link(request):
    """``/alerts/``: the link to manage one's alerts, mailed to the address asking."""
    form = AddressForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not form.cleaned_data["website"]:
            refusal = too_many(request)
            if refusal is None:
                try:
                    ask_for_link(form.cleaned_data["email"])
                except MailDelayed as problem:
                    refusal = str(problem)
            if refusal:
                form.add_error(None, refusal)
                return render(request, "public/alerts/manage_link.html", {"form": form}, status=400)
        return render(request, "public/alerts/check_inbox.html", {"manage": True, "minutes": MINUTES})
    return render(request, "public/alerts/manage_link.html", {"form": form}, status=status_of(form))


def follower_or_404(key):
    follower = follower_of(key)
    if follower is None:
        raise Http404("This link is not (or no longer) one of ours: ask for a new one on the alerts page.")
    return follower


def confirm_page(request, key):
    """A mail's confirmation link: a page with a button (a mail scanner opening the link
    confirms nothing), whose POST confirms the follows the page listed."""
    follower = follower_or_404(key)
    if request.method == "POST":
        count = confirm(follower, [pk for pk in request.POST.getlist("follow")[:MOST_WAITING] if pk.isdigit()])
        messages.success(request, f"Confirmed: you will be mailed about {count} more thing{'s' if count != 1 else ''}.")
        return redirect("alerts-manage", key=key)
    pending = follower.follows.filter(confirmed_at=None).select_related("player", "club", "rating_list")
    return render(request, "public/alerts/confirm.html", {"follower": follower, "pending": pending})


def manage(request, key):
    follower = follower_or_404(key)
    follows = follower.follows.select_related("player", "club", "rating_list")
    pending = [follow for follow in follows if follow.confirmed_at is None]
    context = {
        "follower": follower,
        "follows": follows,
        "pending": pending,
        "unsubscribe_url": unsubscribe_path(follower),
    }
    return render(request, "public/alerts/manage.html", context)


@require_POST
def remove(request, key, pk):
    follower = follower_or_404(key)
    if (removed := stop_following(follower, pk)) is not None:
        messages.success(request, f"You no longer follow {removed.target}.")
    return redirect("alerts-manage", key=key)


@csrf_exempt  # RFC 8058: a mail program's one-click POST carries the token, no CSRF token
def unsubscribe_page(request, pk, token):
    """The unsubscribe link of every alert mail (its List-Unsubscribe header too): a page with a
    button, and the one-click POST that stops every alert of the address."""
    follower = Follower.objects.filter(pk=pk).first() if pk < 2**63 else None
    if follower is None or not constant_time_compare(token, unsubscribe_token(follower)):
        raise Http404("This link is not (or no longer) one of ours: ask for a new one on the alerts page.")
    if request.method == "POST":
        unsubscribe(follower)
        return render(request, "public/alerts/unsubscribed.html", {"follower": follower})
    return render(request, "public/alerts/unsubscribe.html", {"follower": follower})
