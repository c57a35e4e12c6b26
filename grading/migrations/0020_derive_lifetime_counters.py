"""The lifetime counters and ECF peaks of the ratings stored before they were kept
(docs/rules.md section 14), derived from each rating's breakdown and the ratings before it.

Each player's history on a list is walked month by month: a rating's counters are those of the
current rating of the month before, plus its own games (every line of an ECF breakdown; the
lines an Elo one marks counted), an event counting once three of its games are in the same
rating. An ECF peak is the highest Full rating so far, this one included; an Elo rating keeps
its own. A superseded rating counts from the current history before its month.
"""

import json
from collections import Counter

import numpy as np
from django.db import migrations

ELO_METHODS = ("elo", "first")
EVENT_GAMES = 3
BATCH = 5000


def contribution(breakdown, method, event_of):
    """(wins, draws, events3) of one rating's own games."""
    lines = json.loads(breakdown) if isinstance(breakdown, str) else (breakdown or [])
    if method in ELO_METHODS:
        lines = [line for line in lines if line[4] == "counted"]
    wins = sum(1 for line in lines if line[2] == 2)
    draws = sum(1 for line in lines if line[2] == 1)
    events = Counter(int(event_of[line[0]]) if line[0] < len(event_of) else -1 for line in lines)
    return wins, draws, sum(1 for count in events.values() if count >= EVENT_GAMES)


def streamed(connection, sql):
    """The rows of ``sql`` a batch at a time: a federation's history does not fit in memory at once."""
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql)
        while rows := cursor.fetchmany(BATCH):
            yield from rows


def derive(apps, schema_editor):
    ratings = apps.get_model("grading", "PlayerRating")._meta.db_table
    games = apps.get_model("events", "Game")._meta.db_table
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT max(id) FROM {games}")
        top = cursor.fetchone()[0] or 0
    event_of = np.full(top + 1, -1, dtype=np.int64)  # each game's event, by game id
    for game, event in streamed(connection, f"SELECT id, event_id FROM {games}"):
        event_of[game] = event
    rows = streamed(
        connection,
        f"SELECT id, rating_list_id, player_id, month, type, rating, peak, method, breakdown, "
        f"superseded_at IS NULL FROM {ratings} ORDER BY rating_list_id, player_id, month, id",
    )
    updates = []
    group = None
    with connection.cursor() as writer:
        for row_id, list_id, player_id, month, kind, rating, peak, method, breakdown, current in rows:
            if (list_id, player_id) != group:
                group, month_seen = (list_id, player_id), None
                after = (0, 0, 0, 0)  # wins, draws, events3, peak of the current history so far
            if month != month_seen:
                month_seen, before = month, after
            wins, draws, events3 = (a + b for a, b in zip(before[:3], contribution(breakdown, method, event_of)))
            if method in ELO_METHODS:
                new_peak = peak
                chain_peak = max(before[3], peak or 0)
            else:
                chain_peak = max(before[3], rating if kind == "full" and rating else 0)
                new_peak = chain_peak or None
            if current:
                after = (wins, draws, events3, chain_peak)
            if (wins, draws, events3) != (0, 0, 0) or new_peak != peak:
                updates.append((wins, draws, events3, new_peak, row_id))
            if len(updates) >= BATCH:
                write(writer, ratings, updates)
        write(writer, ratings, updates)


def write(cursor, ratings, updates):
    if updates:
        cursor.executemany(f"UPDATE {ratings} SET wins = %s, draws = %s, events3 = %s, peak = %s WHERE id = %s", updates)
        updates.clear()


class Migration(migrations.Migration):
    dependencies = [
        ("grading", "0019_lifetime_counters"),
        ("events", "0001_initial"),
    ]

    operations = [migrations.RunPython(derive, migrations.RunPython.noop, elidable=True)]
