"""Storing an uploaded file, checked (events/uploads/checking.py), as its event: a new one, or replacing
the games and entries of one not yet approved. The first step of the workflow (events/workflow.py)."""

import hashlib

from django.db import IntegrityError, transaction
from django.utils import timezone

from chess.dates import written
from common.locking import lock_rows
from events.lengths import forget_length_approval, new_dates_note
from events.models import Entry, Event, Game, Upload
from events.signals import results_stored
from events.uploads import store
from events.uploads.checking import Check
from events.workflow import WorkflowError, record
from players.models import erased


def do_store_upload(
    check: Check, data: bytes, filename: str, *, acting_user, staff=False, arbiter=None, token=None
) -> Event:
    """Store a checked file as its event (new, or replacing one not yet approved), uploaded by
    ``acting_user`` (through the API with ``token``). An arbiter's new event is their own; ``staff``
    load files for any event, and a new one's arbiter is ``arbiter`` (None: no arbiter). A
    replacement keeps its event's arbiter."""
    if check.errors:
        raise WorkflowError(f"the file has {len(check.errors)} error(s): nothing was stored")
    digest = hashlib.sha256(data).hexdigest()
    upload = Upload(
        original_name=filename[:255],
        sha256=digest,
        format=check.format,
        uploaded_by=acting_user,
        report=check.report(),
        token=token,
    )
    try:
        with transaction.atomic():
            found = lock_rows(Event.objects.filter(code=check.code))  # none yet: a new event
            event = found[0] if found else None
            refuse_same_file(event, digest, acting_user, staff)
            if event:
                refuse_replacement(event, check, acting_user, staff)
            index = check.details.submission_index or check.parsed.submission_index
            index = index or (event.submission_index + 1 if event else 1)
            before = event_as_stored(event)
            event = save_event(event, check, arbiter if staff else acting_user, index, acting_user)
            if changes := event_changes(before, event_as_stored(event, check.format)):
                upload.report = {**upload.report, "changes": changes}
            upload.event, upload.uploaded_at = event, timezone.now()
            store.keep_file(upload, data)
            upload.save()
            save_games(event, check)
            through = f", through the API (token {token.name})" if token else ""
            record(event, Event.Status.UPLOADED, acting_user, f"{filename}, submission {index}{through}")
            warnings = len(check.warnings)
            record(event, Event.Status.CHECKED, acting_user, f"{warnings} warning{'' if warnings == 1 else 's'}")
            results_stored.send(sender=Event, event=event, user=acting_user)
    except BaseException as error:
        if upload.file:
            store.forget_file(upload)  # the rows are rolled back: no file without its row
        if isinstance(error, IntegrityError) and Event.objects.filter(code=check.code).exists():
            # Another upload (a double click) stored the same new code between our look and our write.
            raise WorkflowError(
                f"{check.code} was stored by another upload at the same moment: open it from "
                "My events, or upload again to replace it"
            ) from None
        raise
    return event


FORMAT_NAMES = {"trf": "TRF", "ecf": "ECF", "csv": "CSV"}


def event_as_stored(event, format=None) -> dict | None:
    """What a new file may change of a stored event, as its report says it: its name, dates,
    list and format (the latest file's, unless ``format`` is the new one's)."""
    if event is None:
        return None
    if format is None:
        latest = event.uploads.order_by("-uploaded_at", "-pk").first()
        format = latest.format if latest else ""
    return {
        "name": event.name,
        "dates": f"{written(event.start_date)} to {written(event.end_date)}",
        "list": event.rating_list.name,
        "format": FORMAT_NAMES.get(format, format),
    }


def event_changes(before, after) -> list[str]:
    """What a corrected file changed of its event ("name: Old → New"), shown in its report (the
    upload page's and the API's): a file of another event sent under this code is seen at once."""
    if before is None:
        return []
    return [f"{what}: {before[what]} → {after[what]}" for what in before if before[what] != after[what]]


def refuse_same_file(event, digest, user, staff):
    """The same bytes twice would store the same games twice, under whatever event code."""
    earlier = Upload.objects.filter(sha256=digest, event__isnull=False).select_related("event").first()
    if earlier is None:
        return
    if event and earlier.event_id == event.pk:
        raise WorkflowError(f"this file was already uploaded for {event.code}: nothing changed")
    if staff or earlier.event.arbiter_id == user.pk:
        raise WorkflowError(
            f"this file was already uploaded for the event {earlier.event.code}: its games are stored there"
        )
    raise WorkflowError("this file was already uploaded for another arbiter's event: its games are stored there")


def refuse_replacement(event, check, user, staff):
    if not staff and event.arbiter_id != user.pk:
        raise WorkflowError(f"the event code {event.code} belongs to another arbiter's event")
    # Its games are in the lists, or about to be: sending it back takes them out (and the months
    # they were rated in are revised), which a replacement would not.
    if not event.editable and staff:
        raise WorkflowError(
            f"{event.code} has been {event.get_status_display()}: send it back first, then upload the corrected file"
        )
    if event.status == Event.Status.RATED:
        raise WorkflowError(f"{event.code} has been rated: a rating officer must send it back first")
    if event.status == Event.Status.HELD:
        raise WorkflowError(f"{event.code} awaits a rating officer's review: they send it back if it needs correcting")
    if not event.editable:
        raise WorkflowError(f"{event.code} has been approved: ask a rating officer to send it back first")
    index = check.details.submission_index or check.parsed.submission_index
    if index is not None and index <= event.submission_index:
        raise WorkflowError(
            f"{event.code} is stored with submission index {event.submission_index}: "
            f"a replacement needs a higher index than {index}"
        )


def save_event(event, check, arbiter, index, user):
    """The event ``check`` describes, new or replacing ``event`` (its games and entries gone), as
    ``user`` stores it. An approval of its length was for the dates it had: other dates clear it."""
    event = event or Event(code=check.code, arbiter=arbiter)
    approved_for = event.length_text if event.length_approved else None
    event.name = check.name
    event.kind = check.details.kind or check.parsed.kind
    event.start_date, event.end_date = check.start_date, check.end_date
    event.scheduled_rounds = check.parsed.scheduled_rounds
    event.time_control = (str(check.time_control) if check.time_control else check.details.time_control)[:100]
    event.online = check.rating_list.online
    if not event.list_overridden or check.details.rating_list:
        event.rating_list = check.rating_list
        event.list_overridden = check.details.rating_list is not None
    event.submission_index = index
    event.sent_back_reason = ""
    event.save()
    if approved_for and event.length_text != approved_for:
        forget_length_approval(event, user, new_dates_note(approved_for, event, "the new file gives"))
    event.games.all().delete()
    event.entries.all().delete()
    return event


def save_games(event, check):
    # Who each player is was decided by the check (events.uploads.matching), as its report says.
    records = {
        parsed.pin: (check.matches[parsed.pin].player, check.matches[parsed.pin].how) for parsed in check.parsed.players
    }
    # A player whose personal data was erased keeps no birth date, whatever a later file gives.
    erased_now = erased({player.pk for player, _ in records.values() if player is not None})
    births = {
        parsed.pin: None if records[parsed.pin][0] and records[parsed.pin][0].pk in erased_now else parsed.birth_date
        for parsed in check.parsed.players
    }
    entries = Entry.objects.bulk_create(
        [
            Entry(
                event=event,
                pin=parsed.pin,
                surname=parsed.surname[:80],
                forenames=parsed.forenames[:120],
                code=(parsed.federation_code or "")[:12],
                fide_id=parsed.fide_id,
                birth_date=births[parsed.pin],
                sex=parsed.sex or "",
                title=parsed.title[:3],
                club_name=parsed.club_name[:120],
                federation=parsed.fide_federation.strip().upper()[:3],
                player=records[parsed.pin][0],
                match=records[parsed.pin][1],
                rank=parsed.rank,
                line=parsed.line,
            )
            for parsed in check.parsed.players
        ]
    )
    by_pin = {entry.pin: entry for entry in entries}
    games = []
    for parsed in check.parsed.games:
        white, black = by_pin[parsed.white], by_pin.get(parsed.black)
        reason = check.unrated_reason(parsed)
        games.append(
            Game(
                event=event,
                round=parsed.round,
                board=parsed.board,
                date=check.game_date(parsed),
                white_entry=white,
                black_entry=black,
                white=white.player,
                black=black.player if black else None,
                result=parsed.result,
                rated=not reason,
                unrated_reason=reason,
            )
        )
    Game.objects.bulk_create(games, batch_size=2000)
