"""The events' staff screens, found by the admin's autodiscovery: the events with their decision
page (events.py) and the records around them (records.py)."""

from events.admin import events, records

__all__ = ["events", "records"]
