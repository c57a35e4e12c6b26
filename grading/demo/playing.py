"""How the demo federation's games are played and stored: an event made approved with its
history, its players entered and its pairings played out."""

import datetime

from django.utils import timezone

from chess import results
from events.models import Entry, Event, EventChange, Game


def demo_event(status=Event.Status.APPROVED, note="demo data", **fields) -> Event:
    """An event of the demo, approved (or as ``status`` says), its history saying so."""
    event = Event.objects.create(status=status, status_changed_at=timezone.now(), **fields)
    EventChange.objects.create(event=event, status=status, at=event.status_changed_at, note=note)
    return event


def save_games(event, entrants, pairings, result_of) -> int:
    """``entrants`` entered in ``event`` and its ``pairings`` (rounds of (white, black), black
    None for a bye) played, each result ``result_of(white, black)``, the rounds spread over its
    days. Returns the games stored."""
    entries = dict(
        zip(
            [person.pk for person in entrants],
            Entry.objects.bulk_create(
                Entry(
                    event=event,
                    pin=pin,
                    surname=person.surname,
                    forenames=person.forenames,
                    code=person.code,
                    birth_date=person.birth_date,
                    sex=person.sex,
                    title=person.fide_title,
                    player=person,
                    match=Entry.Match.CODE,
                )
                for pin, person in enumerate(entrants, start=1)
            ),
        )
    )
    days = (event.end_date - event.start_date).days
    rows = []
    for round_number, pairs in enumerate(pairings, start=1):
        day = event.start_date + datetime.timedelta(days=(round_number - 1) * (days + 1) // len(pairings))
        for board, (white, black) in enumerate(pairs, start=1):
            result = result_of(white, black)
            reason = results.unrated_reason(result)
            rows.append(
                Game(
                    event=event,
                    round=round_number,
                    board=board,
                    date=day,
                    white_entry=entries[white.pk],
                    black_entry=entries[black.pk] if black else None,
                    white=white,
                    black=black,
                    result=result,
                    rated=not reason,
                    unrated_reason=reason,
                )
            )
    Game.objects.bulk_create(rows)
    return len(rows)


def play(rng, strength, white, black):
    if black is None:
        return results.FULL_POINT_BYE if rng.random() < 0.7 else results.HALF_POINT_BYE
    if rng.random() < 0.015:
        return rng.choice(results.DEFAULTS[:2])
    expected = 1 / (1 + 10 ** ((strength[black.pk] - strength[white.pk] - 30) / 400))
    draw = 0.25 if abs(strength[white.pk] - strength[black.pk]) < 200 else 0.12
    roll = rng.random()
    if roll < expected - draw / 2:
        return results.WHITE_WIN
    if roll < expected + draw / 2:
        return results.DRAW
    return results.BLACK_WIN
