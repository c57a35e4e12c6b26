"""Reading and writing many rows fast: plain SQL into numpy columns, and COPY on PostgreSQL
(one executemany elsewhere).

A rating run moves hundreds of thousands of rows each way; model instances, and even the
ORM's ``values_list``, cost more than the database does at that size.
"""

import hashlib
import json

import numpy as np
from django.db import connection

from common.replica import reading


def is_postgresql() -> bool:
    return connection.vendor == "postgresql"


def fetch_columns(sql: str, params, dtypes: list, order: tuple[int, ...] = ()) -> list[np.ndarray]:
    """Run ``sql`` and return its columns as numpy arrays of ``dtypes`` (None: a list), its rows
    ordered by the columns at positions ``order`` (the SQL's own ORDER BY is not kept). It reads
    where the ORM would (common.replica): a run's transaction the primary, a public page the replica.

    On PostgreSQL a query of numbers and dates only, none of them NULL, is packed by the server
    into one value of 8-byte integers that becomes the arrays with no Python object per row:
    rows one by one cost more than the database's work (a COPY sends a message per row).
    """
    if is_postgresql() and None not in dtypes:
        return packed_columns(sql, params, dtypes, order)
    if order:
        sql = f"SELECT * FROM ({sql}) AS q ORDER BY {', '.join(str(i + 1) for i in order)}"
    with reading().cursor() as cursor:
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
    with reading().cursor() as cursor:
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
    lists = [as_list(values, count) for values in columns.values()]
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


def row_digests(columns: dict, count: int) -> np.ndarray:
    """A 64-bit digest of each of ``count`` rows given as columns (see insert_columns): the
    columns' values hashed a column at a time (numbers as they are, anything else by its text)
    and mixed, the same in every process."""
    digests = np.full(count, 0x9E3779B97F4A7C15, dtype=np.uint64)
    for values in columns.values():
        digests = mixed(digests ^ column_hashes(values, count))
    return digests.view(np.int64)


def column_hashes(values, count: int) -> np.ndarray:
    if not isinstance(values, (list, np.ndarray)):
        values = [values] * count
    numbers = np.asarray(values) if isinstance(values, list) and values and type(values[0]) is int else values
    if isinstance(numbers, np.ndarray) and numbers.dtype.kind in "iub":
        return mixed(numbers.astype(np.int64).view(np.uint64) + np.uint64(1))
    # Each distinct value hashed once; a whole number as in a column of numbers (a column with
    # an empty value is one of objects, and a row's digest must not change with its neighbours).
    values = as_list(values, count)
    hashes, whole = {}, []
    for value in set(values):
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            whole.append(value)
        else:
            hashes[value] = int.from_bytes(hashlib.blake2b(str(value).encode(), digest_size=8).digest(), "big")
    if whole:
        numbers = np.asarray(whole, dtype=np.int64)
        hashes.update(zip(whole, mixed(numbers.view(np.uint64) + np.uint64(1)).tolist()))
    return np.fromiter(map(hashes.__getitem__, values), dtype=np.uint64, count=count)


def mixed(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: every bit of the input moves every bit of the output."""
    with np.errstate(over="ignore"):
        values = values ^ (values >> np.uint64(30))
        values = values * np.uint64(0xBF58476D1CE4E5B9)
        values = values ^ (values >> np.uint64(27))
        values = values * np.uint64(0x94D049BB133111EB)
        return values ^ (values >> np.uint64(31))


def replace_rows(
    model, where: str, params: list, key_sql: str, keys: np.ndarray, columns: dict
) -> tuple[int, np.ndarray]:
    """Make ``model``'s rows that match ``where`` the rows given as ``columns``, writing only those
    that changed: each row has a key (``keys``, as ``key_sql`` computes it from a stored row) and
    a digest of its values (the model's ``digest`` field), and a stored row with the same key and
    digest stays. Returns how many rows were written, and the rows' digests."""
    digests = row_digests(columns, len(keys))
    ids, old_keys, old_digests = fetch_columns(
        f"SELECT id, {key_sql}, digest FROM {table(model)} WHERE {where}", params, [np.int64] * 3
    )
    # Keys are unique on both sides: a stored row stays where the row of its key has its digest.
    order = np.argsort(keys, kind="stable")
    at = np.minimum(np.searchsorted(keys[order], old_keys), max(len(keys) - 1, 0))
    stays = np.zeros(len(ids), dtype=bool)
    if len(keys):
        stays = (keys[order][at] == old_keys) & (digests[order][at] == old_digests)
    gone = ids[~stays].tolist()
    with connection.cursor() as cursor:
        if len(gone) == len(ids):
            cursor.execute(f"DELETE FROM {table(model)} WHERE {where}", params)
        elif gone:
            condition, values = where_in("id", gone)
            cursor.execute(f"DELETE FROM {table(model)} WHERE {condition}", values)
    kept = np.zeros(len(keys), dtype=bool)
    kept[order[at[stays]]] = True
    changed = np.flatnonzero(~kept)
    insert_columns(
        model, {**{name: subset(values, changed) for name, values in columns.items()}, "digest": digests[changed]}
    )
    return len(changed), digests


def as_list(values, count: int) -> list:
    if isinstance(values, np.ndarray):
        return values.tolist()
    return values if isinstance(values, list) else [values] * count


def subset(values, positions: np.ndarray):
    """The rows at ``positions`` of a column (see insert_columns)."""
    if isinstance(values, np.ndarray):
        return values[positions]
    if isinstance(values, list):
        return [values[at] for at in positions.tolist()]
    return values
