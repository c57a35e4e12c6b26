"""Approving an event for rating: its players on no federation record become records (those of
other federations only if the officer says so, then or later: ``do_register_visitors``), and its
rated games go to the months they fall in (events.signals.rated_games_changed)."""

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone

from events.models import Entry, Event, EventChange, Game, Upload
from events.signals import rated_games_changed
from events.uploads.matching import link_games, of_another_federation, records_named
from events.workflow import WorkflowError, lock_event, record
from players.models import Club, Player
from players.services import issue_codes, lock_player_registration

# A rating officer's permission: approve events, send them back, approve a long event's length,
# review the integrity watch's flags.
APPROVE_PERMISSION = "events.approve_event"


def may_approve(user) -> bool:
    """Whether ``user`` is a rating officer (or an administrator): who may approve events."""
    return user.has_perm(APPROVE_PERMISSION)


def approvable_by(user) -> Q:
    """The events ``user`` may approve now: those submitted, by their arbiter or by whoever
    uploaded their latest file, and those checked whose latest file ``user`` uploaded
    (approving records their submission first). The one rule of do_approve_event, the admin's
    list of events waiting for an officer and its decision page."""
    latest = Upload.objects.filter(event=OuterRef("pk")).order_by("-uploaded_at", "-pk").values("uploaded_by")[:1]
    checked = Event.objects.filter(status=Event.Status.CHECKED)  # the few checked events alone ask who uploaded
    theirs = checked.annotate(latest_uploader=Subquery(latest)).filter(latest_uploader=user.pk)
    return Q(status=Event.Status.SUBMITTED) | Q(pk__in=theirs.values("pk"))


def approvable(event, user) -> bool:
    """Whether ``user`` may approve ``event`` now (approvable_by), as the database has it."""
    return Event.objects.filter(approvable_by(user), pk=event.pk).exists()


def do_approve_event(event, *, acting_user, visitors=False):
    """Approve for rating a submitted event, or a checked one whose latest file the officer
    uploaded (their submission is recorded first): players matched by nobody become federation
    records now (players of other federations too if ``visitors``: the officer's say)."""
    with transaction.atomic():
        event = lock_event(event)
        if not approvable(event, acting_user):
            raise WorkflowError(f"{event.code} is {event.get_status_display()}: only a submitted event can be approved")
        if event.status == Event.Status.CHECKED:
            record(event, Event.Status.SUBMITTED, acting_user, "submitted by the rating officer who uploaded it")
        create_new_players(event, visitors)
        record(event, Event.Status.APPROVED, acting_user)
        if event.games.rated().exists():
            rated_games_changed.send(sender=Event, event=event, user=acting_user)
    return event


def do_register_visitors(event, *, acting_user) -> int:
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
            by=acting_user,
            at=timezone.now(),
            step="players of other federations registered",
            note=f"registered {len(waiting)} player{'s' if len(waiting) != 1 else ''} of other federations: "
            + ", ".join(f"{entry.name} ({entry.federation})" for entry in waiting[:10])[:1000],
        )
        rated_games_changed.send(sender=Event, event=event, user=acting_user)
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
    """Entries matched to the records that now have their code or FIDE ID (the upload's rule:
    events.uploads.matching.Records)."""
    records = records_named([entry.code for entry in entries], [entry.fide_id for entry in entries])
    for entry in entries:
        if found := records.find(entry.code, entry.fide_id):
            entry.player, entry.match = found


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
