"""The event workflow: uploaded -> checked -> submitted -> approved -> rated, or sent back.

Views, admin actions and commands all call these; each runs in one transaction and holds a lock
on the event, so two clicks or two staff members cannot interleave.
"""

import hashlib

from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone

from common.locking import lock_row, lock_rows
from events.checking import Check
from events.matching import current_record, of_another_federation
from events.models import Entry, Event, EventChange, Game, Upload
from events.signals import rated_games_changed
from players.models import Club, Player
from players.services import issue_codes, lock_player_registration


class WorkflowError(Exception):
    """A step the event's state or the user's role does not allow; the message says why."""


def record(event, status, user, note=""):
    event.status = status
    event.status_changed_at = timezone.now()
    event.status_changed_by = user
    event.save(update_fields=["status", "status_changed_at", "status_changed_by", "sent_back_reason"])
    EventChange.objects.create(event=event, status=status, by=user, at=event.status_changed_at, note=note)


def store_upload(check: Check, data: bytes, filename: str, user, staff=False, arbiter=None) -> Event:
    """Store a checked file as its event (new, or replacing one not yet approved), uploaded by
    ``user``. An arbiter's new event is their own; ``staff`` load files for any event, and a new
    one's arbiter is ``arbiter`` (None: no arbiter). A replacement keeps its event's arbiter."""
    if check.errors:
        raise WorkflowError(f"the file has {len(check.errors)} error(s): nothing was stored")
    digest = hashlib.sha256(data).hexdigest()
    upload = Upload(
        original_name=filename[:255], sha256=digest, format=check.format, uploaded_by=user, report=check.report()
    )
    try:
        with transaction.atomic():
            found = lock_rows(Event.objects.filter(code=check.code))  # none yet: a new event
            event = found[0] if found else None
            refuse_same_file(event, digest, user, staff)
            if event:
                refuse_replacement(event, check, user, staff)
            index = check.details.submission_index or check.parsed.submission_index
            index = index or (event.submission_index + 1 if event else 1)
            earlier = earlier_records(event)
            event = save_event(event, check, arbiter if staff else user, index, user)
            upload.event, upload.uploaded_at = event, timezone.now()
            upload.file.save(digest, ContentFile(data), save=False)
            upload.save()
            save_games(event, check, earlier)
            record(event, Event.Status.UPLOADED, user, f"{filename}, submission {index}")
            warnings = len(check.warnings)
            record(event, Event.Status.CHECKED, user, f"{warnings} warning{'' if warnings == 1 else 's'}")
    except BaseException as error:
        if upload.file:
            upload.file.delete(save=False)  # the rows are rolled back: no file without its row
        if isinstance(error, IntegrityError) and Event.objects.filter(code=check.code).exists():
            # Another upload (a double click) stored the same new code between our look and our write.
            raise WorkflowError(
                f"{check.code} was stored by another upload at the same moment: open it from "
                "My events, or upload again to replace it"
            ) from None
        raise
    return event


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


def forget_length_approval(event, user, note):
    """Clear the approval of the event's length (events/lengths.py), with ``note`` in its history."""
    event.length_approved_by = event.length_approved_at = None
    event.save(update_fields=["length_approved_by", "length_approved_at"])
    EventChange.objects.create(event=event, status=event.status, by=user, at=timezone.now(), note=note)


def new_dates_note(approved_for, event, how):
    """The history's note when new dates clear the approval of an event's length: "length
    approval cleared: it was for 120 days (2026-01-05 to 2026-05-04), and the new file gives ..."."""
    then = "approve it again if they are right" if event.needs_length_approval else "90 days or fewer need none"
    return f"length approval cleared: it was for {approved_for}, and {how} {event.length_text}; {then}"


def earlier_records(event) -> dict:
    """{(surname, forenames, birth date): player} of the event's entries as stored before a
    replacement. A player the file gives no code for was registered on the earlier approval: the
    corrected file's same player is that record, not another new one. Names held by two entries
    are left out: which is which cannot be told."""
    if event is None:
        return {}
    keys = {}
    for entry in event.entries.exclude(player=None).select_related("player"):
        key = (entry.surname, entry.forenames, entry.birth_date)
        keys[key] = None if key in keys else entry.player
    return {key: player for key, player in keys.items() if player is not None}


def save_games(event, check, earlier=None):
    earlier = earlier or {}

    def record_of(parsed):
        match = check.matches[parsed.pin]
        if match.player is None and (
            found := earlier.get((parsed.surname[:80], parsed.forenames[:120], parsed.birth_date))
        ):
            return found, Entry.Match.NAME
        return match.player, match.how

    records = {parsed.pin: record_of(parsed) for parsed in check.parsed.players}
    entries = Entry.objects.bulk_create(
        [
            Entry(
                event=event,
                pin=parsed.pin,
                surname=parsed.surname[:80],
                forenames=parsed.forenames[:120],
                code=(parsed.federation_code or "")[:12],
                fide_id=parsed.fide_id,
                birth_date=parsed.birth_date,
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


def lock_event(event):
    """The event as it is now, locked for this transaction: every change of an event's workflow
    goes through here, so that two clicks or two staff members cannot interleave."""
    return lock_row(Event.objects.filter(pk=event.pk))


def submit_event(event, user):
    with transaction.atomic():
        event = lock_event(event)
        if event.status not in (Event.Status.CHECKED, Event.Status.SENT_BACK):
            raise WorkflowError(f"{event.code} is {event.get_status_display()}: only a checked event can be submitted")
        if not may_submit(event, user):
            raise WorkflowError(f"{event.code} is submitted by its arbiter, or by whoever uploaded its latest file")
        record(event, Event.Status.SUBMITTED, user)
    return event


def may_submit(event, user) -> bool:
    """Its arbiter submits an event once they have read the report; so does whoever uploaded its
    latest file (a rating officer loading results sent in by e-mail), never someone else for
    them: an officer does not approve a file its arbiter has not vouched for."""
    return user.pk == event.arbiter_id or uploaded_by(event, user)


def uploaded_by(event, user) -> bool:
    """Whether ``user`` uploaded the event's latest file."""
    latest = event.uploads.order_by("-uploaded_at", "-pk").first()
    return latest is not None and latest.uploaded_by_id == user.pk


WITHDRAWABLE = (Event.Status.UPLOADED, Event.Status.CHECKED, Event.Status.SUBMITTED, Event.Status.SENT_BACK)


def withdraw_event(event, user):
    """The arbiter takes back an event not yet approved: it will not be rated. Its uploads and
    history stay, for the record; uploading the code again brings it back (a higher index)."""
    with transaction.atomic():
        event = lock_event(event)
        if event.arbiter_id != user.pk:
            raise WorkflowError(f"{event.code} is another arbiter's event")
        if event.status not in WITHDRAWABLE:
            raise WorkflowError(
                f"{event.code} is {event.get_status_display()}: only an event not yet approved can be "
                "withdrawn; ask a rating officer to send it back"
            )
        record(event, Event.Status.WITHDRAWN, user, "withdrawn by its arbiter")
    return event


def approve_event(event, user, visitors=False):
    """Approve for rating a submitted event, or a checked one whose latest file the officer
    uploaded (their submission is recorded first): players matched by nobody become federation
    records now (players of other federations too if ``visitors``: the officer's say)."""
    with transaction.atomic():
        event = lock_event(event)
        if event.status == Event.Status.CHECKED and uploaded_by(event, user):
            record(event, Event.Status.SUBMITTED, user, "submitted by the rating officer who uploaded it")
        if event.status != Event.Status.SUBMITTED:
            raise WorkflowError(f"{event.code} is {event.get_status_display()}: only a submitted event can be approved")
        create_new_players(event, visitors)
        record(event, Event.Status.APPROVED, user)
        if event.games.rated().exists():
            rated_games_changed.send(sender=Event, event=event, user=user)
    return event


def send_back(event, user, reason):
    reason = (reason or "").strip()
    if not reason:
        raise WorkflowError("say why the event is sent back")
    if len(reason) > 2000:
        raise WorkflowError(f"the reason is {len(reason):,} characters long: say it in 2,000 or fewer")
    with transaction.atomic():
        event = lock_event(event)
        if event.status not in (
            Event.Status.SUBMITTED,
            Event.Status.CHECKED,
            Event.Status.APPROVED,
            Event.Status.RATED,
        ):
            raise WorkflowError(f"{event.code} is {event.get_status_display()}: it cannot be sent back")
        counted = event.status in (Event.Status.APPROVED, Event.Status.RATED)
        event.sent_back_reason = reason
        record(event, Event.Status.SENT_BACK, user, reason)
        if counted:
            # Withdrawn from rated months (they are revised without its games), or from the
            # live ratings.
            rated_games_changed.send(sender=Event, event=event, user=user)
    return event


def register_visitors(event, user) -> int:
    """The officer's say: the players of another federation in an event already approved or
    rated become federation records, and the published months its games fall in are revised
    with the games they played. Returns how many records were created."""
    with transaction.atomic():
        event = lock_event(event)
        if not event.in_rating:
            raise WorkflowError(
                f"{event.code} is {event.get_status_display()}: register its players of other "
                "federations when you approve it"
            )
        waiting = unregistered_visitors(event)
        if not waiting:
            raise WorkflowError(f"{event.code} has no player of another federation waiting to be registered")
        created = create_new_players(event, visitors=True)
        EventChange.objects.create(
            event=event,
            status=event.status,
            by=user,
            at=timezone.now(),
            note=f"registered {len(waiting)} player{'s' if len(waiting) != 1 else ''} of other federations: "
            + ", ".join(f"{entry.name} ({entry.federation})" for entry in waiting[:10])[:1000],
        )
        rated_games_changed.send(sender=Event, event=event, user=user)
    return created


def unregistered_visitors(event) -> list:
    """The players of other federations on no record who played a rated game in the event."""
    return [
        entry
        for entry in event.entries.filter(player=None).filter(Exists(rated_games_of(OuterRef("pk"))))
        if of_another_federation(entry.federation, entry.code)
    ]


def create_new_players(event, visitors=False) -> int:
    """Register the event's players on no record, under the lock every registration takes: each
    entry is first matched again against the records as they are now (an event approved since
    the upload may have registered the same person), and entries of one person (one code or
    FIDE ID) become one record. Only players of a rated game become members: an opponent only in
    defaulted games has played no rated chess here. A player of another federation becomes one
    only if ``visitors`` (the officer said so): until then their games are not rated.
    Returns how many records were created."""
    lock_player_registration()
    entries = list(event.entries.filter(player=None).filter(Exists(rated_games_of(OuterRef("pk")))))
    rematch(entries)
    new = [
        entry
        for entry in entries
        if entry.player_id is None and (visitors or not of_another_federation(entry.federation, entry.code))
    ]
    groups = one_group_a_person(new)
    refuse_one_person_twice([*event.entries.exclude(player=None), *entries], groups)
    own_codes = [group[0].code for group in groups if group[0].code]
    fresh = iter(issue_codes(len(groups) - len(own_codes), also_taken=own_codes))
    clubs = clubs_by_name({entry.club_name for entry in new if entry.club_name})
    players = Player.objects.bulk_create(
        [
            Player(
                code=group[0].code or next(fresh),
                surname=group[0].surname,
                forenames=group[0].forenames,
                birth_date=group[0].birth_date,
                sex=group[0].sex if group[0].sex in ("M", "F") else "",
                fide_id=group[0].fide_id,
                fide_title=group[0].title,
                club=clubs.get(group[0].club_name.casefold()),
            )
            for group in groups
        ]
    )
    for group, player in zip(groups, players):
        for entry in group:
            entry.player = player
    Entry.objects.bulk_update(entries, ["player", "match"])
    link_games(event)
    return len(players)


def one_group_a_person(entries) -> list[list]:
    """The entries grouped by person: those sharing a federation code or a FIDE ID are one."""
    groups, by_key = [], {}
    for entry in entries:
        keys = [key for key in (("code", entry.code), ("fide", entry.fide_id)) if key[1]]
        group = next((by_key[key] for key in keys if key in by_key), None)
        if group is None:
            group = []
            groups.append(group)
        group.append(entry)
        for key in keys:
            by_key.setdefault(key, group)
    return groups


def refuse_one_person_twice(entries, groups):
    """One person cannot be two players of an event: two entries on one record, or sharing a
    code or FIDE ID, are a mistake to correct, not to register."""
    by_player = {}
    for entry in entries:
        if entry.player_id is not None:
            by_player.setdefault(entry.player_id, []).append(entry)
    for group in [*by_player.values(), *groups]:
        if len(group) > 1:
            first, second = group[:2]
            same = (
                f"record {first.player.code}"
                if first.player_id
                else f"code {first.code}"
                if first.code and first.code == second.code
                else f"FIDE ID {first.fide_id}"
            )
            raise WorkflowError(
                f"players {first.pin} ({first.name}) and {second.pin} ({second.name}) are one person "
                f"({same}): correct the entries, or send the event back"
            )


def rated_games_of(entry):
    played = Q(white_entry=entry) | Q(black_entry=entry)
    return Game.objects.rated().filter(played)


def rematch(entries):
    """Entries matched to the records that now have their code or FIDE ID."""
    by_code = {
        player.code: current_record(player)
        for player in Player.objects.select_related("merged_into").filter(code__in=[e.code for e in entries if e.code])
    }
    by_fide_id = dict(
        Player.objects.filter(fide_id__in=[e.fide_id for e in entries if e.fide_id], merged_into=None).values_list(
            "fide_id", "pk"
        )
    )
    for entry in entries:
        if entry.code in by_code:
            entry.player, entry.match = by_code[entry.code], Entry.Match.CODE
        elif entry.fide_id in by_fide_id:
            entry.player_id, entry.match = by_fide_id[entry.fide_id], Entry.Match.FIDE_ID


def clubs_by_name(names):
    """{name casefolded: club} for the known clubs a file names, by name or code."""
    folded = {name.casefold() for name in names}
    return (
        {
            key: club
            for club in Club.objects.all()
            for key in (club.name.casefold(), club.code.casefold())
            if key in folded
        }
        if folded
        else {}
    )


def undecided_suggestions(event) -> list[str]:
    """The new players of the event for whom its latest report suggested records, still on none:
    "player 4 (Dunn, David) may be 345678C (Dunn, David)"."""
    upload = event.uploads.order_by("-uploaded_at").first()
    suggested = {
        row["pin"]: row["suggestions"]
        for row in (upload.report.get("players", []) if upload else [])
        if row.get("suggestions")
    }
    unmatched = event.entries.filter(player=None, pin__in=list(suggested)).order_by("pin")
    return [
        f"player {entry.pin} ({entry.name}) may be "
        + " or ".join(f"{s['code']} ({s['name']})" for s in suggested[entry.pin][:3])
        for entry in unmatched
    ]


def players_chosen(event, entry_pks):
    """Staff chose the federation records of these entries: their games follow."""
    Entry.objects.filter(pk__in=entry_pks).update(match=Entry.Match.CHOSEN)
    link_games(event)


def link_games(event):
    """Point every game at the federation records its entries are matched to: one UPDATE (an
    update a game took a minute for a 160,000-game event)."""

    def player_of(side):
        return Subquery(Entry.objects.filter(pk=OuterRef(f"{side}_entry")).values("player")[:1])

    event.games.update(white=player_of("white"), black=player_of("black"))
