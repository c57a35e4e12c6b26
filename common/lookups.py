"""Finding a record by the code in an address."""


def by_code(queryset, code):
    """The record with this code or, typed in another case, the one it names; None if none."""
    return queryset.filter(code=code).first() or queryset.filter(code__iexact=code).order_by("pk").first()
