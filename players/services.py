"""Operations on players and clubs that commands, admin actions and tasks all call."""

import datetime
import re
from dataclasses import dataclass

from django.db import transaction

from chess import titles
from chess.federations import FIDE_ID_DIGITS
from chess.federations import fide_id as read_fide_id
from chess.names import split_name
from common.locking import lock_number
from players.csvfiles import FileRefused, read_fields, read_records
from players.models import CLUB_CODE, Club, Player, is_player_code

PLAYER_COLUMNS = ["code", "name", "birth_date", "sex", "title", "fide_id", "club_code", "club_name"]
BATCH = 2000
# Control characters, and the bidirectional overrides that make a name read on screen other than
# it is written.
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


@dataclass
class ImportSummary:
    created: int
    updated: int
    clubs_created: int


def player_code(value):
    if not is_player_code(value):
        raise ValueError(f"code: {value!r} is not a federation code (six digits and a check letter)")
    return value


def record_name(value):
    """``Surname, Forenames`` (a single name is a surname) within the record's limits."""
    if _CONTROL.search(value):
        raise ValueError("name: contains a control character")
    surname, forenames = split_name(value)
    if not surname:
        raise ValueError(f"name: {value!r} has no surname; write it as 'Surname, Forenames'")
    if len(surname) > Player._meta.get_field("surname").max_length:
        raise ValueError("name: the surname is longer than 80 characters")
    if len(forenames) > Player._meta.get_field("forenames").max_length:
        raise ValueError("name: the forenames are longer than 120 characters")
    return surname, forenames


def birth_date(value):
    if not value:
        return None
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"birth_date: {value!r} is not a date in the form YYYY-MM-DD") from None
    if day >= datetime.date.today():
        raise ValueError(f"birth_date: {value} is not in the past")
    if day.year < 1900:  # no living player; a mistyped year would make an age of centuries
        raise ValueError(f"birth_date: {value} is before 1900")
    return day


def sex(value):
    value = value.upper()
    if value not in ("", "M", "F"):
        raise ValueError(f"sex: {value!r} is not M, F or empty")
    return value


def fide_title(value):
    title = titles.normalise_title(value)
    if title is None:
        raise ValueError(f"title: {value!r} is not a FIDE title ({', '.join(titles.FIDE_TITLES)})")
    return title


def fide_id(value):
    """The one rule of every format (chess.federations.fide_id, docs/decisions.md): a shorter
    number is another body's, and on a record it would match uploads to the wrong person."""
    if not value:
        return None
    number = read_fide_id(value)
    if number is None:
        raise ValueError(f"fide_id: {value[:20]!r} is not a FIDE ID ({FIDE_ID_DIGITS})")
    return number


def club_code(value):
    if value and (not CLUB_CODE.fullmatch(value) or len(value) > Club._meta.get_field("code").max_length):
        raise ValueError(
            f"club_code: {value!r} is not a club code (at most 8 letters and digits, with single - _ . between them)"
        )
    return value


def club_name(value):
    if _CONTROL.search(value) or len(value) > Club._meta.get_field("name").max_length:
        raise ValueError("club_name: not a club name (at most 120 printable characters)")
    return value


PLAYER_FIELDS = {
    "code": ("code", player_code),
    "name": ("name", record_name),
    "birth_date": ("birth_date", birth_date),
    "sex": ("sex", sex),
    "fide_title": ("title", fide_title),
    "fide_id": ("fide_id", fide_id),
    "club_code": ("club_code", club_code),
    "club_name": ("club_name", club_name),
}


def read_player(row):
    record = read_fields(row, PLAYER_FIELDS)
    record["surname"], record["forenames"] = record.pop("name")
    if record["club_name"] and not record["club_code"]:
        raise ValueError("club_code: a club_name is given without its club_code")
    return record


def import_players(data: bytes) -> ImportSummary:
    """Create or update players (by code) and their clubs from a take-on CSV, all or nothing."""
    records, errors = read_records(data, PLAYER_COLUMNS, read_player)
    club_names, more_errors = check_consistency(records)
    errors += more_errors
    with transaction.atomic():
        known_clubs = set(Club.objects.values_list("code", flat=True))
        for line, record in records:
            code = record["club_code"]
            if code and code not in known_clubs and code not in club_names:
                errors.append(f"line {line}: club_code: {code} is not a known club and no club_name is given")
        errors += fide_ids_taken(records)
        if errors:
            raise FileRefused(errors)

        clubs_created = save_clubs(club_names, known_clubs)
        club_ids = dict(Club.objects.values_list("code", "pk"))
        codes = [record["code"] for _, record in records]
        existing = sum(
            Player.objects.filter(code__in=codes[start : start + BATCH]).count()
            for start in range(0, len(codes), BATCH)
        )
        players = []
        for _, record in records:
            club_code = record.pop("club_code")
            del record["club_name"]
            players.append(Player(club_id=club_ids.get(club_code), **record))
        Player.objects.bulk_create(
            players,
            batch_size=BATCH,
            update_conflicts=True,
            unique_fields=["code"],
            update_fields=["surname", "forenames", "birth_date", "sex", "fide_title", "fide_id", "club"],
        )
    return ImportSummary(created=len(players) - existing, updated=existing, clubs_created=clubs_created)


def fide_ids_taken(records):
    """A FIDE ID names one person: twice in the file, or on another player's record, is an error
    (matching an upload by FIDE ID would pick one of them)."""
    errors, first_line = [], {}
    for line, record in records:
        if record["fide_id"] is None:
            continue
        if record["fide_id"] in first_line:
            errors.append(f"line {line}: fide_id: {record['fide_id']} is also on line {first_line[record['fide_id']]}")
        first_line.setdefault(record["fide_id"], line)
    codes = {record["fide_id"]: record["code"] for _, record in records if record["fide_id"] is not None}
    ids = list(codes)
    for start in range(0, len(ids), BATCH):
        taken = Player.objects.filter(fide_id__in=ids[start : start + BATCH], merged_into=None)
        for fide_id, code in taken.values_list("fide_id", "code"):
            if codes[fide_id] != code:
                errors.append(f"line {first_line[fide_id]}: fide_id: {fide_id} is the FIDE ID of {code} already")
    return errors


def check_consistency(records):
    """Codes appear once and each club code has one name: the clubs named, and the problems."""
    errors, first_line, club_names = [], {}, {}
    for line, record in records:
        code = record["code"]
        if code in first_line:
            errors.append(f"line {line}: code: {code} is also on line {first_line[code]}")
        first_line.setdefault(code, line)
        club, name = record["club_code"], record["club_name"]
        if name:
            other_name, other_line = club_names.setdefault(club, (name, line))
            if other_name != name:
                errors.append(f"line {line}: club_name: club {club} is named {other_name!r} on line {other_line}")
    return {code: name for code, (name, _) in club_names.items()}, errors


def save_clubs(club_names, known_clubs):
    """Create the clubs the file introduces and rename those whose name it changes."""
    Club.objects.bulk_create(
        [Club(code=code, name=name) for code, name in club_names.items() if code not in known_clubs]
    )
    for club in Club.objects.filter(code__in=[code for code in club_names if code in known_clubs]):
        if club.name != club_names[club.code]:
            club.name = club_names[club.code]
            club.save(update_fields=["name"])
    return sum(code not in known_clubs for code in club_names)


CHECK_LETTERS = "ABCDEFGHJKL"


def check_letter(number: int) -> str:
    """The check letter of codes this system issues: a weighted digit sum modulo 11.

    The ECF does not publish its algorithm, so codes issued here use their own, documented one.
    """
    digits = f"{number:06d}"
    return CHECK_LETTERS[sum(int(d) * w for d, w in zip(digits, (7, 6, 5, 4, 3, 2))) % 11]


REGISTRATION_LOCK = 7_301_001  # any number no other advisory lock of this database uses


def lock_player_registration():
    """Serialise the creation of player records to the end of the transaction: two approvals at
    once would read the same highest code, or miss each other's new records. Refuses to run
    outside a transaction, where the lock would be gone at once."""
    lock_number(REGISTRATION_LOCK)


def issue_codes(count: int, also_taken=()) -> list[str]:
    """``count`` unused federation codes, numbered on from the highest six-digit code in use
    (or in ``also_taken``, codes about to be used)."""
    in_use = Player.objects.filter(code__regex=r"^[0-9]{6}[A-Z]$").order_by("-code")
    numbers = [
        int(code[:6]) for code in [*in_use.values_list("code", flat=True)[:1], *also_taken] if code[:6].isdigit()
    ]
    highest = max(numbers, default=0)
    return [f"{number:06d}{check_letter(number)}" for number in range(highest + 1, highest + 1 + count)]
