"""Names compared by keys the application writes (chess.names), not folded in the database.

Each player gets ``surname_key`` and ``forenames_key`` (the name folded: lower case, without
accents or apostrophes) and ``name_key`` (what the search looks in: the folded name, the surname
as one word when it is several, the name with its umlauts written out when it has any), filled
here for the players already recorded. On PostgreSQL the search's three indexes of 0005 move to
the keys and its ``fed_fold`` goes: unaccent could not write "ü" as "ue", nor be the one folding
the suggestions and SQLite use.
"""

import unicodedata

from django.db import migrations, models

BATCH = 2000
SURNAME_KEY, FORENAMES_KEY = 240, 360  # the columns' lengths: a longer key is cut to fit

# The folding of chess.names as it was when this migration was written, copied rather than
# imported: a migration must keep filling the keys it was written for, whatever the app's
# functions become. Change chess.names and a new migration writes the new keys.
_FOLDED = str.maketrans(
    {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D"}
    | {"ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ı": "i"}
    | dict.fromkeys("'’‘ʼ`´", None)
)
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLDED))
    return " ".join("".join(char for char in decomposed if not unicodedata.combining(char)).casefold().split())


def spellings(text):
    folded = fold(text)
    written_out = fold(unicodedata.normalize("NFC", text).translate(_UMLAUTS))
    return [folded] if written_out == folded else [folded, written_out]


def search_key(surname, forenames):
    folded, *written_out = spellings(f"{surname} {forenames}")
    folded_surname = fold(surname)
    words = [folded]
    if " " in folded_surname:
        words.append(folded_surname.replace(" ", ""))
    return " ".join(words + written_out)
START_INDEXES = {
    "players_player_surname_start": "surname_key || ' ' || forenames_key",
    "players_player_forenames_start": "forenames_key || ' ' || surname_key",
}


def fill_keys(apps, schema_editor):
    """One UPDATE a player, sent in batches (executemany): bulk_update's CASE took 5 minutes
    for 300,000 players."""
    Player = apps.get_model("players", "Player")
    names = Player.objects.values_list("pk", "surname", "forenames").order_by("pk")
    last = 0
    with schema_editor.connection.cursor() as cursor:
        while batch := list(names.filter(pk__gt=last)[:BATCH]):
            cursor.executemany(
                "UPDATE players_player SET surname_key = %s, forenames_key = %s, name_key = %s WHERE id = %s",
                [
                    (fold(surname)[:SURNAME_KEY], fold(forenames)[:FORENAMES_KEY], search_key(surname, forenames), pk)
                    for pk, surname, forenames in batch
                ],
            )
            last = batch[-1][0]


def key_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP INDEX IF EXISTS players_player_name_trgm")
    schema_editor.execute("CREATE INDEX players_player_name_trgm ON players_player USING gin (name_key gin_trgm_ops)")
    for name, expression in START_INDEXES.items():
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
        schema_editor.execute(
            f'CREATE INDEX {name} ON players_player (({expression}) COLLATE "C", code) WHERE merged_into_id IS NULL'
        )
    schema_editor.execute("DROP FUNCTION IF EXISTS fed_fold(text)")


def folded_indexes(apps, schema_editor):
    from importlib import import_module

    import_module("players.migrations.0005_folded_names").fold_indexes(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("players", "0005_folded_names")]
    operations = [
        migrations.AddField(
            "player", "surname_key", models.CharField(max_length=240, editable=False, db_index=True, default="")
        ),
        migrations.AddField("player", "forenames_key", models.CharField(max_length=360, editable=False, default="")),
        migrations.AddField("player", "name_key", models.TextField(editable=False, default="")),
        migrations.RunPython(fill_keys, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(key_indexes, folded_indexes, elidable=False),
    ]
