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


def fetch_columns(sql: str, params, dtypes: list, order: tuple[int, ...] = ()) -> list[np.ndarray]:
    """Run ``sql`` and return its columns as numpy arrays of ``dtypes`` (None: a list), its rows
    ordered by the columns at positions ``order`` (the SQL's own ORDER BY is not kept).

    On PostgreSQL a query of numbers and dates only, none of them NULL, is packed by the server
    into one value of 8-byte integers that becomes the arrays with no Python object per row:
    rows one by one cost more than the database's work (a COPY sends a message per row).
    """
    if is_postgresql() and None not in dtypes:
        return packed_columns(sql, params, dtypes, order)
    if order:
        sql = f"SELECT * FROM ({sql}) AS q ORDER BY {', '.join(str(i + 1) for i in order)}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    columns = list(zip(*rows)) if rows else [()] * len(dtypes)
    return [column(values, dtype) for values, dtype in zip(columns, dtypes)]


PG_EPOCH = np.datetime64("2000-01-01", "D")


def packed_columns(sql: str, params, dtypes: list, order: tuple[int, ...]) -> list[np.ndarray]:
    names = [f"c{i}" for i in range(len(dtypes))]
    fields = [
        f"int8send(({name} - DATE '2000-01-01')::bigint)"
        if np.dtype(dtype).kind == "M"
        else f"int8send({name}::bigint)"
        for name, dtype in zip(names, dtypes)
    ]
    packed = f"SELECT string_agg({' || '.join(fields)}, ''), count(*) FROM ({sql}) AS q({', '.join(names)})"
    with connection.cursor() as cursor:
        cursor.execute(packed, params)
        data, count = cursor.fetchone()
    table_ = np.frombuffer(data or b"", dtype=">i8").reshape(-1, len(dtypes))
    if len(table_) != count:
        # A NULL makes its row's record NULL, which the aggregate would leave out.
        raise ValueError(f"{count - len(table_)} of {count} rows had an empty value: {sql[:200]}")
    if order:  # sorted here: the server's sort of the packed rows cost more
        table_ = table_[np.lexsort([table_[:, i] for i in reversed(order)])]
    return [
        PG_EPOCH + table_[:, i] if np.dtype(dtype).kind == "M" else table_[:, i].astype(dtype)
        for i, dtype in enumerate(dtypes)
    ]


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


def insert_columns(model, columns: dict):
    """Insert rows given as columns, {attribute name (e.g. ``player_id``): values}, into
    ``model``: a list, or an array, or one value for every row."""
    count = max((len(values) for values in columns.values() if isinstance(values, (list, np.ndarray))), default=0)
    if not count:
        return
    names = ", ".join(f'"{model._meta.get_field(name).column}"' for name in columns)
    lists = [
        values.tolist() if isinstance(values, np.ndarray) else values if isinstance(values, list) else [values] * count
        for values in columns.values()
    ]
    with connection.cursor() as cursor:
        if is_postgresql():
            # The driver's row writer is compiled, and the server reads while it writes.
            with cursor.cursor.copy(f'COPY "{table(model)}" ({names}) FROM STDIN') as copy:
                for row in zip(*lists):
                    copy.write_row(row)
        else:
            placeholders = ", ".join(["%s"] * len(lists))
            cursor.executemany(f'INSERT INTO "{table(model)}" ({names}) VALUES ({placeholders})', list(zip(*lists)))


def table(model) -> str:
    return model._meta.db_table
