"""Finding a record by the code in an address."""


def by_code(queryset, code):
    """The record with this code or, typed in another case, the one it names; None if none."""
    return queryset.filter(code=code).first() or queryset.filter(code__iexact=code).order_by("pk").first()


def rows_with(model, relations: list[str], where: str, params) -> list:
    """``model``'s rows where ``where`` (SQL on its table, named ``t``), each with the records its
    foreign keys ``relations`` name read in the same plain query (None where a key is empty): the
    ORM's select_related, without the cost of building the query, which was several times the
    query's for the records every player and event page finds by their codes."""
    joins, selected, related = [], [], []
    for number, name in enumerate(relations):
        field = model._meta.get_field(name)
        other = field.related_model
        columns = [(f.attname, f"{name}__{f.attname}") for f in other._meta.concrete_fields]
        joins.append(
            f"LEFT JOIN {other._meta.db_table} r{number} ON r{number}.{field.target_field.column} = t.{field.column}"
        )
        selected += [f"r{number}.{other._meta.get_field(attname).column} AS {alias}" for attname, alias in columns]
        related.append((field, other, columns))
    found = model.objects.raw(
        f"SELECT t.*, {', '.join(selected)} FROM {model._meta.db_table} t {' '.join(joins)} WHERE {where}", params
    )
    rows = list(found)
    for row in rows:
        for field, other, columns in related:
            values = [row.__dict__.pop(alias) for _, alias in columns]
            names = [attname for attname, _ in columns]
            record = other.from_db(found.db, names, values) if getattr(row, field.attname) is not None else None
            setattr(row, field.name, record)
    return rows
