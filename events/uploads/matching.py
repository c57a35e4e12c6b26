"""Matching the players of an event file to the federation's records.

By federation code, then by FIDE ID; a player matched by neither gets suggestions (same name, or
same surname and birth date) for the arbiter or staff to choose from, and otherwise becomes a
new record when the event is approved (a player of another federation only if staff say so).
Names are compared as the search compares them (chess.names: "Fernandez, Lucia" is
"Fernández, Lucía", "Mueller" is "Müller"), on every database alike. The games of an entry
follow the record it is matched to, or the one staff chose (``players_chosen``, ``link_games``).
"""

from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import OuterRef, Subquery

from chess.dates import written
from chess.names import keys_to_look_up, same_name
from events.models import Entry, Event
from players.models import Player, key_to_store


@dataclass
class Match:
    player: Player | None
    how: str
    suggestions: list[Player] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def of_another_federation(federation: str, code: str | None) -> bool:
    """A visitor: the file gives another FIDE federation than ours (HOME_FEDERATIONS) and no code
    of ours. An empty federation is ours: most files give none."""
    return bool(federation) and federation.strip().upper() not in settings.HOME_FEDERATIONS and not code


def current_record(player):
    """The record a merged duplicate now points to."""
    while player.merged_into_id:
        player = player.merged_into
    return player


@dataclass(frozen=True)
class Records:
    """The records that codes and FIDE IDs name: a code its record as it is now (a merged
    duplicate's survivor), a FIDE ID the oldest record holding it that is not a merged duplicate.
    An entry is matched by its code first, then by its FIDE ID: the one rule of an upload's check,
    its storing and an approval's matching again."""

    by_code: dict
    by_fide_id: dict

    def find(self, code, fide_id) -> tuple[Player, str] | None:
        """(the record, how it was matched: Entry.Match.CODE or FIDE_ID), or None."""
        if code and code in self.by_code:
            return self.by_code[code], Entry.Match.CODE
        if fide_id and fide_id in self.by_fide_id:
            return self.by_fide_id[fide_id], Entry.Match.FIDE_ID
        return None


def records_named(codes, fide_ids) -> Records:
    """The Records of ``codes`` and ``fide_ids`` (empty ones ignored), in two queries."""
    by_code = {
        player.code: current_record(player)
        for player in Player.objects.select_related("merged_into").filter(code__in={code for code in codes if code})
    }
    by_fide_id = {}
    holders = Player.objects.filter(fide_id__in={number for number in fide_ids if number}, merged_into=None)
    for player in holders.order_by("pk"):
        by_fide_id.setdefault(player.fide_id, player)
    return Records(by_code, by_fide_id)


def match_players(parsed_players, earlier=None) -> dict[int, Match]:
    """A Match for each parsed player, by pin, in three queries whatever the field's size; a
    player of a corrected file with no code nor FIDE ID on record is the record ``earlier``
    (earlier_records) gives their name and birth date. What the report says and what storing
    stores are this one decision."""
    earlier = earlier or {}
    records = records_named([p.federation_code for p in parsed_players], [p.fide_id for p in parsed_players])
    matches = {}
    for parsed in parsed_players:
        if found := records.find(parsed.federation_code, parsed.fide_id):
            matches[parsed.pin] = Match(*found)
        elif found := earlier.get((parsed.surname[:80], parsed.forenames[:120], parsed.birth_date)):
            matches[parsed.pin] = Match(found, Entry.Match.NAME)
        else:
            matches[parsed.pin] = Match(None, Entry.Match.NEW)  # the check sums these up in one line
    suggest(parsed_players, matches)
    for parsed in parsed_players:
        match = matches[parsed.pin]
        if match.player:
            match.warnings += differences(parsed, match.player)
    return matches


def earlier_records(code: str) -> dict:
    """{(surname, forenames, birth date): player} of the entries of the event a corrected file of
    ``code`` replaces (one not yet approved; another arbiter's is refused when stored). A player
    the file gives no code for was registered on the earlier approval: the corrected file's same
    player is that record, not another new one. Names held by two entries are left out: which is
    which cannot be told."""
    event = Event.objects.filter(code=code).first() if code else None
    if event is None or not event.editable:
        return {}
    keys = {}
    for entry in event.entries.exclude(player=None).select_related("player"):
        key = (entry.surname, entry.forenames, entry.birth_date)
        keys[key] = None if key in keys else entry.player
    return {key: player for key, player in keys.items() if player is not None}


def suggest(parsed_players, matches):
    """Records for the unmatched players: the same name, or the same surname and birth date.
    One query, by the surnames' keys (Player.surname_key)."""
    unmatched = [parsed for parsed in parsed_players if matches[parsed.pin].player is None and parsed.surname]
    keys = {
        parsed.pin: list(dict.fromkeys(key_to_store("surname_key", key) for key in keys_to_look_up(parsed.surname)))
        for parsed in unmatched
    }
    if not keys:
        return
    candidates = {}
    looked_up = {key for found in keys.values() for key in found}
    for player in Player.objects.filter(surname_key__in=looked_up, merged_into=None):
        candidates.setdefault(player.surname_key, []).append(player)
    for parsed in unmatched:
        for key in keys[parsed.pin]:
            for player in candidates.get(key, []):
                if not same_name(player.surname, parsed.surname):
                    continue  # "Xue" looked up "xu", which is another name
                same_names = same_name(player.forenames, parsed.forenames)
                same_birth = parsed.birth_date is not None and player.birth_date == parsed.birth_date
                if same_names or same_birth:
                    matches[parsed.pin].suggestions.append(player)


def differences(parsed, player):
    warnings = []
    if parsed.surname and not (
        same_name(parsed.surname, player.surname) and same_name(parsed.forenames, player.forenames)
    ):
        warnings.append(f"the name differs from the federation record {player.code} ({player.name})")
    if parsed.birth_date and player.birth_date and parsed.birth_date != player.birth_date:
        # The record's own date is personal data the arbiter's file did not give: not repeated
        # to them (docs/privacy.md); a rating officer reads it on the record.
        warnings.append(
            f"the birth date {written(parsed.birth_date)} differs from the federation record's: "
            "a rating officer will check it"
        )
    return warnings


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
