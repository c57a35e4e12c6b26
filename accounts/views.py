"""Logging in, each role's start page, and the staff's system status."""

import datetime

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth import views as auth_views
from django.shortcuts import render, resolve_url
from django.utils import timezone

from accounts.roles import start_page
from common.cache import shared_cache_reachable
from grading.run.workers import check_worker


class LoginView(auth_views.LoginView):
    """The login page: each role is taken to its own start page, unless a page asked for it."""

    def get_default_redirect_url(self):
        return resolve_url(start_page(self.request.user))


@staff_member_required
def system_status(request):
    worker_ok, worker = check_worker()
    if worker_ok:
        worker["time"] = datetime.datetime.fromisoformat(worker["time"])
    context = {
        **admin.site.each_context(request),
        "title": "System status",
        "worker_ok": worker_ok,
        "worker": worker,
        "cache_reachable": shared_cache_reachable(),
        "now": timezone.now(),
    }
    return render(request, "admin/system_status.html", context)
