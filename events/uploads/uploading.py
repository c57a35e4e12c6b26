"""An upload from a form, the arbiters' page's and the admin's alike: the file chosen (or the one
kept from the check before), its check, and the event stored when the file has no errors."""

import secrets
from dataclasses import dataclass

from django.core.cache import cache

from events import workflow
from events.uploads import storing
from events.uploads.checking import check_upload

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
