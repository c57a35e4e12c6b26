"""The arbiter's pages: their events, an upload with its report, and submitting for approval."""

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events import services
from events.checking import check_upload
from events.models import Event
from grading.history import lists_for_uploads

from .forms import UploadForm

arbiter_required = permission_required("events.submit_results", raise_exception=True)


def own_event(request, pk):
    """The event, if it is this arbiter's; staff who approve events may see any."""
    event = get_object_or_404(Event.objects.select_related("rating_list"), pk=pk)
    if event.arbiter_id != request.user.pk and not request.user.has_perm("events.approve_event"):
        raise Http404("No such event.")
    return event


@login_required
@arbiter_required
def my_events(request):
    events = Event.objects.filter(arbiter=request.user).select_related("rating_list").order_by("-end_date", "code")
    return render(request, "arbiters/my_events.html", {"events": events})


@login_required
@arbiter_required
def upload(request):
    # "Upload a corrected file" from an event's page fills in its code.
    form = UploadForm(request.POST or None, request.FILES or None, initial={"code": request.GET.get("code", "")[:40]})
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["file"]:
            filename, data = form.cleaned_data["file"].name, form.cleaned_data["file"].read()
        elif kept := kept_file(request, form.cleaned_data["kept"]):
            filename, data = kept
        else:
            form.add_error("file", "Choose the file: the one checked before is no longer kept.")
            return render(request, "arbiters/upload.html", {"form": form})
        check = check_upload(data, filename, form.details(), lists_for_uploads())
        if not check.errors:
            try:
                event = services.store_upload(check, data, filename, request.user)
            except services.WorkflowError as refused:
                form.add_error(None, str(refused))
            else:
                messages.success(request, f"{event.code} is checked: read the report, then submit it.")
                return redirect("arbiter-event", pk=event.pk)
        # Kept for an hour, so that a detail the form adds (a code, a time control) needs no
        # second search for the file: a browser never fills a file box in again.
        token = secrets.token_urlsafe(16)
        cache.set(kept_key(request), (token, filename, data), KEPT_SECONDS)
        return render(
            request,
            "arbiters/upload.html",
            {"form": form, "report": check.report(), "kept_token": token, "kept_name": filename},
        )
    return render(request, "arbiters/upload.html", {"form": form})


KEPT_SECONDS = 3600


def kept_key(request):
    # One file an arbiter: the latest checked replaces the one before, so that nobody fills the
    # cache with files of 5 MB.
    return f"checked-upload:{request.user.pk}"  # one arbiter's, never another's


def kept_file(request, token):
    """(filename, data) of the file this arbiter's form names, if it is still the one kept."""
    kept = cache.get(kept_key(request))
    if kept and token and secrets.compare_digest(kept[0], token):
        return kept[1:]
    return None


@login_required
@arbiter_required
def event_report(request, pk):
    event = own_event(request, pk)
    latest = event.uploads.order_by("-uploaded_at").first()
    return render(
        request,
        "arbiters/event.html",
        {
            "event": event,
            "report": latest.report if latest else None,
            "history": event.changes.select_related("by"),
            # Once approved, every player is a federation record: the report shows the check before.
            "entries": event.entries.select_related("player").order_by("pin") if event.in_rating else None,
        },
    )


@require_POST
@login_required
@arbiter_required
def withdraw(request, pk):
    return arbiters_step(
        request,
        pk,
        services.withdraw_event,
        "{code} is withdrawn: it will not be rated. Upload it again to bring it back.",
    )


@require_POST
@login_required
@arbiter_required
def submit(request, pk):
    return arbiters_step(request, pk, services.submit_event, "{code} is submitted for approval.")


def arbiters_step(request, pk, step, done):
    """A step of the workflow an arbiter takes on their own event, from its page."""
    event = own_event(request, pk)
    if event.arbiter_id != request.user.pk:
        raise Http404("No such event.")
    try:
        step(event, request.user)
    except services.WorkflowError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, done.format(code=event.code))
    return redirect("arbiter-event", pk=event.pk)
