"""Reading and writing many rows fast: plain SQL into numpy columns, and COPY on PostgreSQL
(one executemany elsewhere).

A rating run moves hundreds of thousands of rows each way; model instances, and even the
ORM's ``values_list``, cost more than the database does at that size.
"""

import json

import numpy as np
from django.db import connection


def is_postgresql() -> bool:
    return connection.vendor == "postgresql"


def fetch_columns(sql: str, params, dtypes: list) -> list[np.ndarray]:
    """Run ``sql`` and return its columns as numpy arrays of ``dtypes`` (None: a list)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    columns = list(zip(*rows)) if rows else [()] * len(dtypes)
    return [column(values, dtype) for values, dtype in zip(columns, dtypes)]


def column(values, dtype):
    if dtype is None:
        return list(values)
    if np.dtype(dtype).kind == "M":  # dates: None becomes NaT
        return np.array(values, dtype=dtype)
    return np.fromiter(values, dtype=dtype, count=len(values))


def where_in(column: str, ids) -> tuple[str, list]:
    """A condition ``column`` is one of ``ids`` (a list or an array), with one parameter however
    many there are: the same SQL every time."""
    ids = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
    if is_postgresql():
        return f"{column} = ANY(%s)", [ids]
    return f"{column} IN (SELECT value FROM json_each(%s))", [json.dumps(ids)]


def insert_rows(model, fields: list[str], rows):
    """Insert tuples of ``fields`` values (attribute names, e.g. ``player_id``) into ``model``."""
    table = model._meta.db_table
    columns = ", ".join(f'"{model._meta.get_field(name).column}"' for name in fields)
    with connection.cursor() as cursor:
        if is_postgresql():
            with cursor.cursor.copy(f'COPY "{table}" ({columns}) FROM STDIN') as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            placeholders = ", ".join(["%s"] * len(fields))
            cursor.executemany(f'INSERT INTO "{table}" ({columns}) VALUES ({placeholders})', list(rows))


def table(model) -> str:
    return model._meta.db_table
