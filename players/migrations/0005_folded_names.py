"""The name search compares names folded: lower case, without accents, one kind of apostrophe.

On PostgreSQL, ``fed_fold(text)`` is unaccent then lower (an IMMUTABLE wrapper naming its
dictionary, so that indexes may use it), and the search's indexes of 0002 and 0003 are built
again on the folded expressions (players.search.Fold and NameKey build exactly these). On SQLite
the function is chess.names.fold, registered on each connection (players.apps): nothing to do
here.
"""

from django.db import migrations

FOLD = (
    "CREATE OR REPLACE FUNCTION fed_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT "
    "AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$"
)
NAMES = {
    "players_player_surname_start": "surname || ' ' || forenames",
    "players_player_forenames_start": "forenames || ' ' || surname",
}


def fold_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public")
    schema_editor.execute(FOLD)
    schema_editor.execute("DROP INDEX IF EXISTS players_player_name_trgm")
    schema_editor.execute(
        "CREATE INDEX players_player_name_trgm ON players_player "
        "USING gin ((fed_fold(surname || ' ' || forenames)) gin_trgm_ops)"
    )
    for name, expression in NAMES.items():
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
        schema_editor.execute(
            f'CREATE INDEX {name} ON players_player ((fed_fold({expression}) COLLATE "C"), code) '
            "WHERE merged_into_id IS NULL"
        )


def unfold_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("DROP INDEX IF EXISTS players_player_name_trgm")
    schema_editor.execute(
        "CREATE INDEX players_player_name_trgm ON players_player USING gin ((surname || ' ' || forenames) gin_trgm_ops)"
    )
    for name, expression in NAMES.items():
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
        schema_editor.execute(
            f'CREATE INDEX {name} ON players_player ((LOWER(({expression})) COLLATE "C"), code) '
            "WHERE merged_into_id IS NULL"
        )
    schema_editor.execute("DROP FUNCTION IF EXISTS fed_fold(text)")


class Migration(migrations.Migration):
    dependencies = [("players", "0004_club_codes_fit_an_address")]
    operations = [migrations.RunPython(fold_indexes, unfold_indexes, elidable=False)]
