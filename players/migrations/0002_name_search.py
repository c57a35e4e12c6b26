"""A trigram index for searching players by name, on PostgreSQL only.

The index is on ``surname || ' ' || forenames`` (players.search.FullName builds the same
expression), with pg_trgm's GIN operator class. SQLite has no such index: there the search
falls back to icontains. The operations run SQL only, so the model state does not change.
"""

from django.db import migrations

INDEX = "players_player_name_trgm"


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {INDEX} ON players_player "
        "USING gin ((surname || ' ' || forenames) gin_trgm_ops)"
    )


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("players", "0001_initial")]
    operations = [migrations.RunPython(create_index, drop_index, elidable=False)]
