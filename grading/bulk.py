"""Writing many rows fast: COPY on PostgreSQL, one executemany elsewhere.

The rows of a rating run (hundreds of thousands of ratings, two breakdown lines per game) go
in this way rather than through model instances.
"""

from django.db import connection


def reserve_ids(model, count: int) -> list[int]:
    """``count`` primary keys for rows about to be inserted with explicit ids."""
    if count == 0:
        return []
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, count]
            )
            return [row[0] for row in cursor.fetchall()]
        # Other databases: the writer holds the write lock for the whole run transaction.
        cursor.execute(f'SELECT COALESCE(MAX(id), 0) FROM "{table}"')
        start = cursor.fetchone()[0] + 1
        return list(range(start, start + count))


def insert_rows(model, fields: list[str], rows):
    """Insert tuples of ``fields`` values (attribute names, e.g. ``player_id``) into ``model``."""
    table = model._meta.db_table
    columns = ", ".join(f'"{model._meta.get_field(name).column}"' for name in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f'COPY "{table}" ({columns}) FROM STDIN') as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            placeholders = ", ".join(["%s"] * len(fields))
            cursor.executemany(f'INSERT INTO "{table}" ({columns}) VALUES ({placeholders})', list(rows))
