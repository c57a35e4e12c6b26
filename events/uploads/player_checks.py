"""The checks of an uploaded event's players: impossible birth dates held out, names too long to
store, one person entered twice, and the new players the file would register, summed up."""

from django.utils import timezone

from events.formats import WARNING, Problem
from events.models import Entry
from events.uploads.matching import of_another_federation
from players.models import birth_date_problem


def sum_up_new_players(check):
    """One warning for all the players on no federation record, not one each: the Players table
    lists them, and a congress of juniors would bury every other warning."""
    new = [parsed for parsed in check.parsed.players if check.matches[parsed.pin].player is None]
    if not new:
        return
    codes = [parsed.federation_code for parsed in new if parsed.federation_code]
    visitors = [parsed for parsed in new if of_another_federation(parsed.fide_federation, parsed.federation_code)]
    text = (
        f"{len(new)} player{'s are' if len(new) != 1 else ' is'} on no federation record and will be registered "
        "as new on approval (see Players)"
    )
    if visitors:
        federations = sorted({parsed.fide_federation.strip().upper() for parsed in visitors})
        text += (
            f"; {len(visitors)} of them {'are' if len(visitors) != 1 else 'is'} of other federations "
            f"({', '.join(federations[:10])}{', ...' if len(federations) > 10 else ''}): registered only if a "
            "rating officer says so"
        )
    if codes:
        text += (
            f"; the file gives {'these codes' if len(codes) > 1 else 'this code'}, not on record: "
            f"{', '.join(codes[:10])}{', ...' if len(codes) > 10 else ''}"
        )
    check.problems.append(Problem(None, None, text, WARNING))


def hold_out_impossible_birth_dates(check):
    """A birth date no player of the event can have is not stored (a typo, or a program's
    placeholder): kept, it would stop the rating of the whole list. A warning, not an error, so
    that one date does not refuse a congress; staff can add the right date to the record."""
    first_day = check.start_date or timezone.localdate()
    for parsed in check.parsed.players:
        if problem := birth_date_problem(parsed.birth_date, first_day, ", the event's first day"):
            check.problems.append(
                Problem(parsed.line, None, f"player {parsed.pin} ({parsed.name}): {problem}: it is not stored", WARNING)
            )
            parsed.birth_date = None


def check_name_lengths(check):
    surname, forenames = (Entry._meta.get_field(name).max_length for name in ("surname", "forenames"))
    for parsed in check.parsed.players:
        if len(parsed.surname) > surname or len(parsed.forenames) > forenames:
            check.problems.append(
                Problem(
                    parsed.line,
                    None,
                    f"player {parsed.pin}: a surname is kept to {surname} characters and forenames "
                    f"to {forenames}: this name is cut to fit",
                    WARNING,
                )
            )


def check_same_person_twice(check):
    """Two players of the file that are one person: the same federation record, or the same
    federation code or FIDE ID (on no record yet: they would become two records, or crash the
    approval)."""
    for label, key in (("federation code", "federation_code"), ("FIDE ID", "fide_id")):
        first = {}
        for parsed in check.parsed.players:
            value = getattr(parsed, key)
            if not value:
                continue
            if value in first and check.matches[parsed.pin].player is None:
                other = first[value]
                check.problems.append(
                    Problem(
                        parsed.line,
                        None,
                        f"players {other.pin} ({other.name}, line {other.line}) and {parsed.pin} "
                        f"({parsed.name}) have the same {label} {value}: one person cannot be two players",
                    )
                )
            first.setdefault(value, parsed)
    seen = {}
    for parsed in check.parsed.players:
        player = check.matches[parsed.pin].player
        if player is None:
            continue
        if player.pk in seen:
            check.problems.append(
                Problem(
                    parsed.line,
                    None,
                    f"players {seen[player.pk]} and {parsed.pin} are both the federation's "
                    f"{player.code} ({player.name})",
                )
            )
        seen.setdefault(player.pk, parsed.pin)
