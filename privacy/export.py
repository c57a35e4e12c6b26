"""Everything the rating system holds about a player, as one JSON file: the officers' answer to a
subject access request (docs/privacy.md).

The record (with the duplicates merged into it), every rating published or superseded and the
live ones, every list line, every game and event entry, the merges, the integrity watch's flags
and the laboratory's simulated ratings naming them, the error reports about them or sent from
their addresses, the follows of their addresses, the mails sent to them and the applications for
an account made from them (the apps above answer: privacy/signals.py), and the history of what
officers did with their data. Other people's data in it is what the public pages show of them (an opponent's code and
name); a reporter's address appears only if it is one of the player's own.
"""

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from alerts.models import Follower
from corrections.models import Report
from events.models import Entry, Game
from grading.models import Flag, ListEntry, LiveRating, PlayerMerge, PlayerRating
from grading.run.publishing import RATING_FIELDS
from laboratory.models import SimulatedRating
from players.models import Player, PlayerChange
from privacy.services import by_address, history_row, kept_record, the_addresses, the_reason
from privacy.signals import answers, gathering_personal_data

RECORD_FIELDS = [
    "code",
    "surname",
    "forenames",
    "name_restricted",
    "birth_date",
    "sex",
    "fide_id",
    "fide_title",
    "nationality",
    "club__code",
    "club__name",
    "merged_into__code",
]
# Every field of a state as a run writes it (publishing.RATING_FIELDS: the age a run used, the
# peak and the floor included), by list and month; a game's breakdown is in "games".
STATE_FIELDS = [
    "rating_list__code",
    "month",
    *(name for name in RATING_FIELDS if name not in ("player_id", "breakdown")),
]
ENTRY_FIELDS = [
    "event__code",
    "event__name",
    "pin",
    "surname",
    "forenames",
    "code",
    "fide_id",
    "birth_date",
    "sex",
    "title",
    "club_name",
    "federation",
    "match",
    "rank",
]


def rows(queryset, *fields) -> list[dict]:
    return list(queryset.values(*fields))


def player_data(player: Player, addresses=()) -> dict:
    """Everything held about ``player`` (and the records merged into it), and about the e-mail
    addresses they give as theirs."""
    addresses = the_addresses(addresses)
    records = list(Player.objects.filter(Q(pk=player.pk) | Q(merged_into=player.pk)).order_by("pk"))
    ids = [record.pk for record in records]
    return {
        "exported_at": timezone.now(),
        "about": f"Everything the federation's rating system holds about the player {player.code}",
        "records": rows(Player.objects.filter(pk__in=ids).order_by("pk"), *RECORD_FIELDS),
        "ratings": rows(
            PlayerRating.objects.filter(player_id__in=ids).order_by("rating_list__code", "month", "published_at"),
            "player__code",
            *STATE_FIELDS,
            "published_at",
            "superseded_at",
        ),
        "live_ratings": rows(
            LiveRating.objects.filter(player_id__in=ids).order_by("rating_list__code", "month"), *STATE_FIELDS
        ),
        "list_lines": rows(
            ListEntry.objects.filter(player_id__in=ids).order_by("period__rating_list__code", "period__month"),
            "period__rating_list__code",
            "period__month",
            "revision",
            "rating",
            "type",
            "category",
            "games",
            "last_played",
            "club__code",
        ),
        "event_entries": rows(
            Entry.objects.filter(player_id__in=ids).order_by("event__start_date", "pk"), *ENTRY_FIELDS
        ),
        "games": games_of(ids),
        "merges": rows(
            PlayerMerge.objects.filter(Q(kept_id__in=ids) | Q(merged_id__in=ids)).order_by("merged_at"),
            "merged__code",
            "kept__code",
            "merged_at",
            "games",
            "ratings",
        ),
        "integrity_flags": rows(
            Flag.objects.filter(players__in=ids).distinct().order_by("found_at"),
            "rating_list__code",
            "kind",
            "month",
            "summary",
            "state",
            "found_at",
            "cleared_at",
            "reason",
        ),
        "simulated_ratings": rows(
            SimulatedRating.objects.filter(player_id__in=ids).order_by("simulation", "month"),
            "simulation_id",
            "simulation__rules_name",
            "month",
            "rating",
            "type",
            "category",
            "method",
        ),
        "error_reports": reports_of(records, addresses),
        "follows": follows_of(addresses),
        **(answers(gathering_personal_data, addresses=addresses) if addresses else {}),
        "history": rows(
            PlayerChange.objects.filter(player_id__in=ids).order_by("at", "pk"),
            "player__code",
            "at",
            "action",
            "reason",
            "details",
        ),
    }


def games_of(ids: list[int]) -> list[dict]:
    """Every game of the player: its event, round, date, colour, opponent (code and the name the
    public sees), result and whether it was rated."""
    found = []
    games = (
        Game.objects.filter(Q(white_id__in=ids) | Q(black_id__in=ids))
        .select_related("event", "white", "black")
        .order_by("date", "event__code", "round", "board", "pk")
    )
    for game in games:
        white = game.white_id in ids
        opponent = game.black if white else game.white
        found.append(
            {
                "event": game.event.code,
                "date": game.date,
                "round": game.round,
                "board": game.board,
                "colour": "white" if white else "black",
                "opponent": {"code": opponent.code, "name": opponent.name} if opponent else None,
                "result": game.result,
                "rated": game.rated,
            }
        )
    return found


def reports_of(records: list[Player], addresses: list[str]) -> list[dict]:
    """The error reports about the player (or naming one of their records as the other record
    of a duplicate), and those sent from their addresses, with every step and reply."""
    about = Q(player__in=records) | Q(other_record__in=[record.code for record in records])
    reports = Report.objects.filter(about | by_address("email", addresses)).prefetch_related("changes")
    return [
        {
            "reference": report.reference,
            "kind": report.kind,
            "about": report.about,
            "other_record": report.other_record,
            "message": report.message,
            "sent_from": report.email if report.email.lower() in addresses else "another address",
            "created_at": report.created_at,
            "state": report.state,
            "steps": [
                {"state": change.state, "at": change.at, "reply": change.reply, "note": change.note}
                for change in report.changes.all()
            ],
        }
        for report in reports.order_by("created_at")
    ]


def follows_of(addresses: list[str]) -> list[dict]:
    """The follows of the player's addresses: what each follows, since when, confirmed or not."""
    followers = Follower.objects.filter(by_address("email", addresses)).prefetch_related(
        "follows__player", "follows__club", "follows__rating_list"
    )
    return [
        {
            "address": follower.email,
            "since": follower.created_at,
            "follows": [
                {
                    "kind": follow.kind,
                    "what": str(follow.target),
                    "since": follow.created_at,
                    "confirmed_at": follow.confirmed_at,
                }
                for follow in follower.follows.all()
            ],
        }
        for follower in followers.order_by("email")
    ]


def export_file_name(player: Player) -> str:
    return f"personal-data-{player.code}-{timezone.localdate():%Y-%m-%d}.json"


def do_export_player_data(player: Player, *, acting_user, reason: str, addresses=()) -> str:
    """The player's data (player_data) as a JSON text, the export recorded in their history."""
    reason = the_reason(reason)
    addresses = the_addresses(addresses)
    kept_record(player)
    with transaction.atomic():
        data = player_data(player, addresses)
        history_row(player, PlayerChange.Action.EXPORTED, acting_user, reason, addresses=len(addresses))
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1) + "\n"
