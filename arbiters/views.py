"""The arbiter's pages: their events, an upload with its report, and submitting for approval."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from corrections.selectors import open_reports_of_arbiter, reports_of_event
from events import workflow
from events.approval import may_approve
from events.models import ApiToken, Event
from events.tokens import MOST_ACTIVE, TokenRefused, do_create_token, do_revoke_token
from events.uploads.forms import UploadForm
from events.uploads.uploading import upload_from_form
from grading.selectors.game_counts import game_counts
from grading.selectors.history import lists_for_uploads

arbiter_required = permission_required("events.submit_results", raise_exception=True)


def own_event(request, pk):
    """The event, if it is this arbiter's; staff who approve events may see any."""
    event = get_object_or_404(Event.objects.select_related("rating_list"), pk=pk)
    if event.arbiter_id != request.user.pk and not may_approve(request.user):
        raise Http404("No such event.")
    return event


@login_required
@arbiter_required
def my_events(request):
    events = list(
        Event.objects.filter(arbiter=request.user).select_related("rating_list").order_by("-end_date", "code")
    )
    reports = open_reports_of_arbiter(request.user)
    for event in events:
        event.open_reports = reports.get(event.pk, 0)
    return render(request, "arbiters/my_events.html", {"events": events})


@login_required
@arbiter_required
def upload(request):
    # "Upload a corrected file" from an event's page fills in its code.
    form = UploadForm(request.POST or None, request.FILES or None, initial={"code": request.GET.get("code", "")[:40]})
    if request.method == "POST" and form.is_valid():
        attempt = upload_from_form(form, request.user, lists_for_uploads())
        if attempt.event:
            messages.success(request, f"{attempt.event.code} is checked: read the report, then submit it.")
            return redirect("arbiter-event", pk=attempt.event.pk)
        return render(request, "arbiters/upload.html", {"form": form, **attempt.context()})
    return render(request, "arbiters/upload.html", {"form": form})


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
            "history": history_shown(event, may_approve(request.user)),
            # Once approved, every player is a federation record: the report shows the check before.
            "entries": event.entries.select_related("player").order_by("pin") if event.in_rating else None,
            # Its games counted as every page counts them (the event page, the API's answers): on a
            # list rated by the Elo method, what FIDE's conditions leave out, and why.
            "counts": game_counts(event),
            # What the public reported wrong in it, and the officers' answers (not the reporters' addresses).
            "error_reports": reports_of_event(event),
        },
    )


def history_shown(event, officer: bool) -> list:
    """The event's history as its page shows it. The integrity watch's steps are the officers':
    its arbiter reads that it was held and released, not why, nor the flags cleared."""
    shown, status = [], None
    for change in event.changes.select_related("by"):
        change.told = officer or not change.for_officers
        if change.told or change.status != status:
            shown.append(change)
        status = change.status
    return shown


@require_POST
@login_required
@arbiter_required
def withdraw(request, pk):
    return arbiters_step(
        request,
        pk,
        workflow.do_withdraw_event,
        "{code} is withdrawn: it will not be rated. Upload it again to bring it back.",
    )


@require_POST
@login_required
@arbiter_required
def submit(request, pk):
    return arbiters_step(request, pk, workflow.do_submit_event, "{code} is submitted for approval.")


def arbiters_step(request, pk, step, done):
    """A step of the workflow an arbiter takes on their own event, from its page."""
    event = own_event(request, pk)
    if event.arbiter_id != request.user.pk:
        raise Http404("No such event.")
    try:
        step(event, acting_user=request.user)
    except workflow.WorkflowError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, done.format(code=event.code))
    return redirect("arbiter-event", pk=event.pk)


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100)


NEW_TOKEN = "new-api-token"  # the session's key of a token just made, until its page shows it


@never_cache  # a new token's secret is on this page once: no cache keeps it
@login_required
@arbiter_required
def api_tokens(request):
    """The arbiter's API tokens; a POST makes one and comes back here (a reload makes no second
    token), where its secret is shown once, taken from the session as the page shows it."""
    if request.method == "POST":
        form = TokenForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Name the token: " + " ".join(form.errors.get("name", [])))
        else:
            try:
                created, secret = do_create_token(form.cleaned_data["name"], acting_user=request.user)
            except TokenRefused as refused:
                messages.error(request, str(refused))
            else:
                request.session[NEW_TOKEN] = {"pk": created.pk, "secret": secret}
        return redirect("arbiter-api-tokens")
    shown = request.session.pop(NEW_TOKEN, None)
    created = ApiToken.objects.filter(pk=shown["pk"], user=request.user).first() if shown else None
    secret = shown["secret"] if created else None
    tokens = ApiToken.objects.filter(user=request.user).order_by("revoked_at", "-created_at")
    return render(
        request,
        "arbiters/tokens.html",
        {
            "tokens": tokens,
            "created": created,
            "secret": secret,
            "most": MOST_ACTIVE,
            "api": request.build_absolute_uri("/api/v1/events/"),
        },
    )


@require_POST
@login_required
@arbiter_required
def revoke_api_token(request, pk):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    do_revoke_token(token, acting_user=request.user)
    messages.success(request, f"The token {token.name} is revoked: a program sending it is refused from now on.")
    return redirect("arbiter-api-tokens")
