"""Logging in, each role's start page, and the staff's system status."""

import datetime

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth import views as auth_views
from django.db import DatabaseError
from django.shortcuts import render, resolve_url
from django.utils import timezone

from accounts.roles import start_page
from common.cache import shared_cache_reachable
from common.replica import replica_configured, replica_state
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
        **replica_context(),
    }
    return render(request, "admin/system_status.html", context)


def replica_context() -> dict:
    """What System status says of the read replica (docs/database-replica.md): none, how far
    behind the primary it is, or the error that keeps it from answering."""
    if not replica_configured():
        return {"replica": None}
    try:
        return {"replica": replica_state()}
    except DatabaseError as error:
        return {"replica": False, "replica_error": str(error).strip().splitlines()[0]}
