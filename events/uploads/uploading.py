"""An upload from a form, the arbiters' page's and the admin's alike: the file chosen (or the one
kept from the check before), its check, and the event stored when the file has no errors; and an
upload through the API, with the same form and check, where sending a file again changes nothing."""

import hashlib
import secrets
from dataclasses import dataclass

from django.core.cache import cache

from events import workflow
from events.models import Upload
from events.uploads import storing
from events.uploads.checking import check_upload
from events.uploads.store import StoreUnavailable

KEPT_SECONDS = 3600


@dataclass
class Attempt:
    """What an upload came to: the event stored, or the report to show and the file kept."""

    event: object = None
    report: dict | None = None
    kept_token: str = ""
    kept_name: str = ""

    def context(self) -> dict:
        return {"report": self.report, "kept_token": self.kept_token, "kept_name": self.kept_name}


def upload_from_form(form, user, lists, staff=False, arbiter=None) -> Attempt:
    """Check the valid ``form``'s file against ``lists`` and store it as ``user``'s upload
    (``staff`` and ``arbiter``: as storing.do_store_upload takes them). A refusal is added to the
    form's errors; a file with errors is kept for an hour, so that a detail the form adds (a
    code, a time control) needs no second search for the file: a browser never fills a file box
    in again."""
    if form.cleaned_data["file"]:
        filename, data = form.cleaned_data["file"].name, form.cleaned_data["file"].read()
    elif kept := kept_file(user, form.cleaned_data["kept"]):
        filename, data = kept
    else:
        form.add_error("file", "Choose the file: the one checked before is no longer kept.")
        return Attempt()
    check = check_upload(data, filename, form.details(), lists)
    if not check.errors:
        try:
            return Attempt(
                event=storing.do_store_upload(check, data, filename, acting_user=user, staff=staff, arbiter=arbiter)
            )
        except workflow.WorkflowError as refused:
            form.add_error(None, str(refused))
    token = secrets.token_urlsafe(16)
    cache.set(kept_key(user), (token, filename, data), KEPT_SECONDS)
    return Attempt(report=check.report(), kept_token=token, kept_name=filename)


def kept_key(user):
    # One file a user: the latest checked replaces the one before, so that nobody fills the
    # cache with files of 5 MB.
    return f"checked-upload:{user.pk}"  # one user's, never another's


def kept_file(user, token):
    """(filename, data) of the file this user's form names, if it is still the one kept."""
    kept = cache.get(kept_key(user))
    if kept and token and secrets.compare_digest(kept[0], token):
        return kept[1:]
    return None


@dataclass
class ApiUpload:
    """What an upload through the API came to: the event stored (``changed``), or the event that
    already has this file as its latest (not ``changed``), or the report of a file with errors,
    or a refusal of the workflow's, or of a store that cannot be reached for now."""

    event: object = None
    report: dict | None = None
    changed: bool = False
    refused: str = ""
    store_unavailable: bool = False  # refused for now only: the same file sent later is stored


def upload_through_api(form, token, lists) -> ApiUpload:
    """Check the valid ``form``'s file against ``lists`` and store it as an upload of ``token``'s
    arbiter would be stored. A pairing program may send the same file again (a retry, a second
    click): if it is the latest file of one of their events, nothing changes."""
    filename, data = form.cleaned_data["file"].name, form.cleaned_data["file"].read()
    latest = latest_upload_of(token.user, hashlib.sha256(data).hexdigest())
    if latest is not None:
        return ApiUpload(event=latest.event, report=latest.report)
    check = check_upload(data, filename, form.details(), lists)
    if check.errors:
        return ApiUpload(report=check.report())
    try:
        event = storing.do_store_upload(check, data, filename, acting_user=token.user, token=token)
    except workflow.WorkflowError as refused:
        # The same file sent twice at once (a retry while the first is at work): the first stored
        # it, and the second changes nothing, as it would have a moment later.
        if (latest := latest_upload_of(token.user, hashlib.sha256(data).hexdigest())) is not None:
            return ApiUpload(event=latest.event, report=latest.report)
        return ApiUpload(
            report=check.report(), refused=str(refused), store_unavailable=isinstance(refused, StoreUnavailable)
        )
    # The stored report: with what the file changed of the event it replaces, if it does.
    return ApiUpload(event=event, report=event.uploads.order_by("-uploaded_at", "-pk").first().report, changed=True)


def latest_upload_of(user, digest: str):
    """The upload with this digest that is the latest of one of ``user``'s events, if any."""
    for upload in Upload.objects.filter(sha256=digest, event__arbiter=user).select_related("event"):
        if upload.event.uploads.order_by("-uploaded_at", "-pk").first() == upload:
            return upload
    return None
