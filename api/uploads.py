"""The API's writes: a pairing program uploads an event's file and submits the event, with one of
its arbiter's tokens (``Authorization: Bearer fr_...``). The file is checked and stored as the
arbiters' upload page does it; the answer is JSON, the check's problems numbered by line.

A token is a credential of its own, not a session: these views need no CSRF token, and a browser's
session cookie alone does not reach them.
"""

import functools

from django.conf import settings
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from api import serialize, views
from api.responses import error, one
from common.cache import within_rate
from common.lookups import by_code
from events import workflow
from events.models import Event
from events.tokens import TokenNotInUse, token_of
from events.uploads.forms import UploadForm
from events.uploads.uploading import upload_through_api
from grading.selectors.game_counts import game_counts
from grading.selectors.history import lists_for_uploads

# A store that cannot be reached: a pairing program sends the file again after this.
STORE_RETRY_SECONDS = 120
UPLOAD_FIELDS = ("code", "name", "start_date", "end_date", "time_control", "online", "kind", "submission_index")


@csrf_exempt
def events_or_upload(request):
    """``/api/v1/events/``: GET lists the public events, POST uploads one."""
    if request.method == "POST":
        return upload_event(request)
    if request.method not in ("GET", "HEAD"):
        response = error(405, "GET the events, or POST an event's file with an arbiter's API token.")
        response["Allow"] = "GET, HEAD, POST"
        return response
    return views.events(request)


SUBMIT = "/submit"


@csrf_exempt
def event_or_submission(request, code):
    """``/api/v1/events/CODE/``: GET reads the event; POST to ``CODE/submit/`` submits it. (A code
    may hold a slash, so "submit" is read as the submission only by a POST: no GET submits.)"""
    if request.method == "POST" and code.endswith(SUBMIT):
        return submit_event(request, code.removesuffix(SUBMIT))
    return views.event(request, code)


def token_required(view):
    """POST only, with a token in use of an arbiter, within the rate limit: the token reaches the
    view as ``request.token``; every refusal is the API's JSON error."""

    @csrf_exempt
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "POST":
            response = error(405, "Use POST, with an arbiter's API token.")
            response["Allow"] = "POST"
            return response
        scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
        try:
            token = token_of(secret.strip() if scheme.lower() == "bearer" else "")
        except TokenNotInUse as refused:
            response = error(401, str(refused))
            response["WWW-Authenticate"] = 'Bearer realm="api"' + (', error="invalid_token"' if secret else "")
            return response
        if not token.user.has_perm("events.submit_results"):
            return error(403, "This token's user is not an arbiter: they may not upload results.")
        allowed, wait = within_rate(f"api-writes:{token.user_id}", settings.API_WRITES_PER_HOUR, 3600)
        if not allowed:
            response = error(
                429,
                f"At most {settings.API_WRITES_PER_HOUR} uploads and submissions an hour: try again in {wait} seconds.",
            )
            response["Retry-After"] = str(wait)
            return response
        request.token = token
        return view(request, *args, **kwargs)

    return wrapper


@token_required
def upload_event(request):
    # A file sent with filename="" arrives as a plain field "file": the form says it has no name.
    unknown = sorted(set(request.POST) - {"file", *UPLOAD_FIELDS})
    if unknown:
        return error(400, f"Unknown field {unknown[0][:40]!r}: the fields are file, {', '.join(UPLOAD_FIELDS)}.")
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return form_errors(form)
    outcome = upload_through_api(form, request.token, lists_for_uploads())
    if outcome.store_unavailable:
        response = error(503, f"Nothing was stored: {outcome.refused}.", report=outcome.report)
        response["Retry-After"] = str(STORE_RETRY_SECONDS)
        return response
    if outcome.refused:
        return error(409, f"Nothing was stored: {outcome.refused}.", report=outcome.report)
    if outcome.event is None:
        count = len(outcome.report["errors"])
        return error(
            422, f"The file has {count} error{'' if count == 1 else 's'}: nothing was stored.", report=outcome.report
        )
    event = uploaded_event(request, outcome.event)
    # The report's count of rated games is the event's, as every page counts it (with FIDE's
    # conditions), not the file's alone.
    games = {**outcome.report["games"], "rated": event["games_counted"]["rated"]}
    body = {"changed": outcome.changed, "event": event, "report": {**outcome.report, "games": games}}
    response = one(body)
    response.status_code = 201 if outcome.changed else 200
    return response


def form_errors(form):
    """A 400 naming the first field wrong, and every field's messages."""
    problems = {name: [str(message) for message in messages] for name, messages in form.errors.items()}
    first = next(iter(problems))
    text = problems[first][0] if first == "__all__" else f"{first}: {problems[first][0]}"
    return error(400, text, fields=problems)


@token_required
def submit_event(request, code):
    event = by_code(Event.objects.filter(arbiter=request.token.user).select_related("rating_list"), code)
    if event is None:
        return error(404, f"None of your events has the code {code[:40]!r}.")
    if event.status == Event.Status.SUBMITTED:
        return one({"changed": False, "event": uploaded_event(request, event)})
    try:
        event = workflow.do_submit_event(event, acting_user=request.token.user)
    except workflow.WorkflowError as refused:
        event.refresh_from_db()
        if event.status == Event.Status.SUBMITTED:  # two submissions at once: the other did it
            return one({"changed": False, "event": uploaded_event(request, event)})
        return error(409, f"{refused}.")
    return one({"changed": True, "event": uploaded_event(request, event)})


def uploaded_event(request, event) -> dict:
    """An arbiter's event as the API's writes answer it: where it stands, and where to go next."""
    return {
        "code": event.code,
        "name": event.name,
        "list": event.rating_list.code,
        "start_date": event.start_date.isoformat(),
        "end_date": event.end_date.isoformat(),
        "submission": event.submission_index,
        "status": event.status,
        "status_label": event.get_status_display(),
        # Its games counted as its page counts them: what FIDE's conditions would leave out.
        "games_counted": serialize.game_counts(game_counts(event)),
        "report_page": request.build_absolute_uri(reverse("arbiter-event", args=[event.pk])),
        "submit": request.build_absolute_uri(reverse("api-event", args=[event.code + SUBMIT])),
    }
