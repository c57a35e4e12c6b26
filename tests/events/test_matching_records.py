"""One rule matches an entry to a record (events.uploads.matching.Records): by its code, the record
as it is now (a merged duplicate's survivor), else by its FIDE ID, the oldest record holding it
that is not a merged duplicate; an upload's check and an approval's matching again both read it."""

import datetime
from types import SimpleNamespace

import pytest

from events.approval import rematch
from events.models import Entry
from events.uploads.matching import match_players
from tests.builders import EntryFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def parsed(pin, code="", fide_id=None):
    return SimpleNamespace(
        pin=pin,
        federation_code=code,
        fide_id=fide_id,
        surname="Nobody",
        forenames="Known",
        birth_date=datetime.date(1990, 1, 1),
        federation="",
        sex="",
        title="",
        club="",
    )


def test_a_check_and_an_approval_match_by_code_first_then_the_oldest_holder_of_a_fide_id():
    survivor = PlayerFactory(fide_id=None)
    duplicate = PlayerFactory(fide_id=None, merged_into=survivor)
    oldest, younger = PlayerFactory(fide_id=2_300_001), PlayerFactory(fide_id=2_300_001)
    PlayerFactory(fide_id=2_300_002, merged_into=oldest)  # a merged duplicate holds no FIDE ID for matching
    files = [parsed(1, code=duplicate.code), parsed(2, fide_id=2_300_001), parsed(3, fide_id=2_300_002)]
    entries = [
        EntryFactory(player=None, code=duplicate.code),
        EntryFactory(player=None, code="", fide_id=2_300_001),
        EntryFactory(player=None, code="", fide_id=2_300_002),
    ]

    checked = match_players(files)
    rematch(entries)

    assert [(checked[pin].player, checked[pin].how) for pin in (1, 2)] == [
        (survivor, Entry.Match.CODE),
        (oldest, Entry.Match.FIDE_ID),
    ]
    assert checked[3].player is None
    assert [(entry.player, entry.match) for entry in entries[:2]] == [
        (survivor, Entry.Match.CODE),
        (oldest, Entry.Match.FIDE_ID),
    ]
    assert entries[2].player is None and younger.pk > oldest.pk
