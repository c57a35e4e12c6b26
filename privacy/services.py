"""A player's personal data restricted or erased at their request (docs/privacy.md).

Restricting shows the player's name as initials on every public page, download, feed and API
answer; officers keep the whole name. Erasing restricts the name for good and removes what the
ratings do not need: the birth date (the record's, and the event entries' from the files), and
the follows, the error reports and the record of role mails sent (mails/personal_data.py) of
the addresses the player gives. The games and the ratings stay: other players' ratings rest on
them, and a published rating keeps the age its run used, as history. Each is recorded in the
player's history (players.models.PlayerChange) in the same transaction, with who did it and why;
the history counts what was removed, it does not keep the addresses.

Here, above the apps whose rows an erasure removes (alerts, corrections, events), and not in
players; the apps above this one (mails) are asked through privacy/signals.py
(docs/architecture.md).
"""

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from alerts.models import Follow, Follower
from common.locking import lock_rows
from corrections.models import Report
from events.models import Entry
from players.models import Player, PlayerChange
from players.privacy import privacy_changed
from privacy.signals import answers, erasing_personal_data


class RequestRefused(Exception):
    """What an officer asked cannot be done: the message says why."""


def history_row(player, action, acting_user, reason, **details) -> PlayerChange:
    return PlayerChange.objects.create(
        player=player, action=action, by=acting_user, at=timezone.now(), reason=reason, details=details
    )


def the_reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise RequestRefused("say why: the request it answers (who asked, when, how)")
    return reason


def kept_record(player):
    """A request is answered on the record kept, which holds the games of its merged duplicates."""
    if player.merged_into_id:
        raise RequestRefused(f"{player.code} was merged into {player.merged_into.code}: answer on that record")


def person(player) -> list[Player]:
    """The player's record and the duplicates merged into it, locked: one person's records."""
    kept_record(player)
    return lock_rows(Player.objects.filter(Q(pk=player.pk) | Q(merged_into=player.pk)).order_by("pk"))


def do_restrict_player(player: Player, *, acting_user, reason: str) -> PlayerChange:
    """Show the player's name as initials on every public page, from now on."""
    reason = the_reason(reason)
    with transaction.atomic():
        records = person(player)
        if all(record.name_restricted for record in records):
            raise RequestRefused(f"{player.full_name}'s name is already shown as initials")
        restrict_names(records)
        return history_row(player, PlayerChange.Action.RESTRICTED, acting_user, reason)


def do_lift_restriction(player: Player, *, acting_user, reason: str) -> PlayerChange:
    """Show the player's whole name again; not after an erasure, which is for good."""
    reason = the_reason(reason)
    with transaction.atomic():
        records = person(player)
        if not any(record.name_restricted for record in records):
            raise RequestRefused(f"{player.full_name}'s name is not restricted")
        if PlayerChange.objects.filter(player__in=records, action=PlayerChange.Action.ERASED).exists():
            raise RequestRefused(f"{player.full_name}'s data was erased: the name stays as initials")
        for each in records:
            each.name_restricted = False
            each.save(update_fields=["name_restricted"])
        privacy_changed()
        return history_row(player, PlayerChange.Action.LIFTED, acting_user, reason)


def restrict_names(records):
    for each in records:
        each.name_restricted = True
        each.save(update_fields=["name_restricted"])  # with its search keys: the initials'
    privacy_changed()


def the_addresses(addresses) -> list[str]:
    """The e-mail addresses given, checked, in lower case (an address is matched in any case)."""
    found = []
    for address in addresses:
        address = address.strip()
        if not address:
            continue
        try:
            validate_email(address)
        except ValidationError:
            raise RequestRefused(f"{address!r} is not an e-mail address") from None
        found.append(address.lower())
    return sorted(set(found))


def by_address(field: str, addresses: list[str]) -> Q:
    """Rows whose ``field`` is one of ``addresses``, in any case; none for no address."""
    found = Q(pk__in=[])
    for address in addresses:
        found |= Q(**{f"{field}__iexact": address})
    return found


def do_erase_player_data(player: Player, *, acting_user, reason: str, addresses=()) -> PlayerChange:
    """Erase what the ratings do not need of the player's data, for good: the name shown as
    initials, the birth date cleared on the record (and its merged duplicates) and on their event
    entries, and the follows, error reports and mails sent of ``addresses`` (the player's own
    e-mail addresses) removed. Games, ratings and the ratings of their opponents stay as they are."""
    reason = the_reason(reason)
    addresses = the_addresses(addresses)
    with transaction.atomic():
        records = person(player)
        if PlayerChange.objects.filter(player__in=records, action=PlayerChange.Action.ERASED).exists() and not (
            addresses or any(each.birth_date for each in records)
        ):
            raise RequestRefused(f"{player.full_name}'s data was already erased, and no address is given")
        ids = [each.pk for each in records]
        births = sum(1 for each in records if each.birth_date)
        for each in records:
            each.birth_date = None
            each.save(update_fields=["birth_date"])
        restrict_names(records)
        entries = Entry.objects.filter(player_id__in=ids, birth_date__isnull=False).update(birth_date=None)
        followers = Follower.objects.filter(by_address("email", addresses))
        follows = Follow.objects.filter(follower__in=followers).count()
        followers = followers.delete()[1].get(Follower._meta.label, 0)
        reports = Report.objects.filter(by_address("email", addresses)).delete()[1].get(Report._meta.label, 0)
        above = answers(erasing_personal_data, addresses=addresses) if addresses else {}
        return history_row(
            player,
            PlayerChange.Action.ERASED,
            acting_user,
            reason,
            birth_dates=births,
            entries_birth_dates=entries,
            addresses=len(addresses),
            followers=followers,
            follows=follows,
            error_reports=reports,
            **above,
        )
