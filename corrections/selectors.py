"""What the officers' queue and an arbiter's event page read of the reports."""

from django.db.models import Count

from corrections.models import Report

OPEN = (Report.State.NEW, Report.State.IN_HAND)


def reports_of_event(event) -> list[Report]:
    """The reports about ``event``, latest first, with their steps: its arbiter's page shows
    them (the replies and the officers' notes too, the reporter's address not)."""
    return list(Report.objects.filter(event=event).prefetch_related("changes__by").order_by("-created_at"))


def open_reports_of_arbiter(arbiter) -> dict[int, int]:
    """{event id: its reports new or in hand} of ``arbiter``'s events: My events marks them."""
    found = Report.objects.filter(event__arbiter=arbiter, state__in=OPEN).order_by()
    return dict(found.values_list("event_id").annotate(count=Count("pk")))
