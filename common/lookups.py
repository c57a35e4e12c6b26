"""Reading what the public pages ask on every request: a record by the code in an address, and
plain queries that PostgreSQL keeps prepared.

A page's few queries each cost PostgreSQL more to parse and plan than to run (a player page's
five: about 0.4 ms of the database's time each, planning most of it, against 0.1 prepared).
Django binds parameters on the client, so no statement of its own is ever prepared; the plain
queries of the busiest pages go through ``prepared_cursor`` instead, whose statements each
connection prepares the first time and runs from then on without parsing or planning them again.
"""

import psycopg
from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.backends.utils import CursorDebugWrapper
from django.db.models.utils import create_namedtuple_class

from common.replica import reading_alias


def by_code(queryset, code):
    """The record with this code or, typed in another case, the one it names; None if none."""
    return queryset.filter(code=code).first() or queryset.filter(code__iexact=code).order_by("pk").first()


def prepared_cursor(model=None):
    """A cursor (Django's, with its query log and execute wrappers) of the database that reads
    ``model`` (the router's choice, as the ORM's would be), whose statements are prepared on
    PostgreSQL: psycopg's server-side binding, each statement prepared on its first run on the
    connection (psycopg keeps a connection's latest hundred). Elsewhere, Django's own cursor.

    Its SQL must name its columns (never ``*``): a prepared statement whose columns a migration
    changes fails until its connection is renewed."""
    connection = connections[router.db_for_read(model) if model is not None else reading_alias()]
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = connection.connection
    if raw.prepare_threshold is None:
        # Django leaves psycopg's preparing off. Its own cursors bind parameters on the client,
        # which never prepares: this turns it on for these cursors alone.
        raw.prepare_threshold = 0
    cursor = psycopg.Cursor(raw)
    return LoggedWithValues(cursor, connection) if connection.queries_logged else connection.make_cursor(cursor)


class LoggedWithValues(CursorDebugWrapper):
    """Django's debug cursor (the tests' and DEBUG's query log), logging a prepared query with its
    values written in, as Django's own cursors log theirs, not its placeholders ($1, $2)."""

    def debug_sql(self, sql=None, params=None, use_last_executed_query=False, many=False):
        if use_last_executed_query and not many:
            sql, use_last_executed_query = self.db.ops.compose_sql(sql, params), False
        return super().debug_sql(sql, params, use_last_executed_query, many)


def prepared_rows(queryset) -> list:
    """The rows of ``queryset``, a values_list(named=True), as it would give them, its SQL (as
    the ORM builds it) run by a prepared_cursor: the same SQL for other values of its parameters
    (another club, another name) is planned once by each connection. For the queries the ORM
    builds from a page's filters that PostgreSQL took longer to plan than to run (a list page's
    rows with their count and previous ratings: 1.2 ms planned, 0.6 run)."""
    compiler = queryset.query.get_compiler(queryset.db)
    try:
        sql, params = compiler.as_sql()
    except EmptyResultSet:
        return []
    with prepared_cursor(queryset.model) as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    query = queryset.query
    names = queryset._fields or [*query.extra_select, *query.values_select, *query.annotation_select]
    row = create_namedtuple_class(*names)
    return [tuple.__new__(row, values) for values in compiler.results_iter(results=[rows], tuple_expected=True)]


def columns_of(model, alias: str) -> list[str]:
    """The SQL of ``model``'s columns on the table named ``alias``, in its fields' order."""
    return [f"{alias}.{field.column}" for field in model._meta.concrete_fields]


def records(model, rows, using=DEFAULT_DB_ALIAS) -> list:
    """Model instances of ``rows``, each the values of ``model``'s concrete fields in order
    (columns_of), as the ORM makes them: each value through its field's and its database's
    converters (JSON kept as text read back, SQLite's dates and booleans)."""
    connection = connections[using]
    names = [field.attname for field in model._meta.concrete_fields]
    converting = converters(model, connection)
    found = []
    for row in rows:
        if converting:
            row = list(row)
            for at, expression, functions in converting:
                for function in functions:
                    row[at] = function(row[at], expression, connection)
        found.append(model.from_db(using, names, row))
    return found


CONVERTERS = {}


def converters(model, connection) -> list:
    """[(position, column, converters)] of ``model``'s fields that the ORM converts as it reads
    them from ``connection``'s database (the compiler's get_converters, kept per model)."""
    key = (model, connection.alias, connection.vendor)
    if key not in CONVERTERS:
        found = []
        for at, field in enumerate(model._meta.concrete_fields):
            column = field.get_col(model._meta.db_table)
            functions = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if functions:
                found.append((at, column, functions))
        CONVERTERS[key] = found
    return CONVERTERS[key]


def rows_with(model, relations: list[str], where: str, params) -> list:
    """``model``'s rows where ``where`` (SQL on its table, named ``t``, and the tables of its
    ``relations``, named ``r0``, ``r1`` ...), each with the records those foreign keys name read in
    the same prepared query (None where a key is empty):
    the ORM's select_related, without the cost of building the query, which was several times
    the query's for the records every player and event page finds by their codes."""
    joins, selected, related = [], columns_of(model, "t"), []
    for number, name in enumerate(relations):
        field = model._meta.get_field(name)
        other = field.related_model
        joins.append(
            f"LEFT JOIN {other._meta.db_table} r{number} ON r{number}.{field.target_field.column} = t.{field.column}"
        )
        related.append((field, other, len(selected)))
        selected += columns_of(other, f"r{number}")
    with prepared_cursor(model) as cursor:
        cursor.execute(
            f"SELECT {', '.join(selected)} FROM {model._meta.db_table} t {' '.join(joins)} WHERE {where}", params
        )
        rows = cursor.fetchall()
        using = cursor.db.alias
    found = records(model, [row[: len(model._meta.concrete_fields)] for row in rows], using)
    for record, row in zip(found, rows):
        for field, other, at in related:
            values = row[at : at + len(other._meta.concrete_fields)]
            linked = records(other, [values], using)[0] if getattr(record, field.attname) is not None else None
            setattr(record, field.name, linked)
    return found
