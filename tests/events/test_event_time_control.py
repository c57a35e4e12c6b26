"""Staff giving an event its time control in the admin (an Elo list rates no event without one,
docs/rules.md 16.1): stored as the site writes it, or refused with what to write."""

import pytest
from django.forms import modelform_factory

from events.admin.events import EventForm
from events.models import Event
from tests.builders import EventFactory

pytestmark = pytest.mark.django_db


def form_for(event, text):
    return modelform_factory(Event, form=EventForm, fields=["time_control"])({"time_control": text}, instance=event)


def test_a_time_control_staff_give_is_stored_as_the_site_writes_it():
    event = EventFactory(time_control="")

    form = form_for(event, "40/90, 30 + 30s")

    assert form.is_valid(), form.errors
    form.save()
    event.refresh_from_db()
    assert event.time_control == "40 moves in 90 min, then 30 min + 30 s/move"


def test_a_time_control_that_cannot_be_read_is_refused_and_the_stored_one_kept():
    event = EventFactory(time_control="90 min + 30 s/move")

    form = form_for(event, "ninety minutes-ish")

    assert not form.is_valid()
    assert form.errors["time_control"] == [
        "Cannot read the time control 'ninety minutes-ish': write it as, for example, 90+30 (minutes and seconds a "
        "move) or 40/90, 30 + 30s (40 moves in 90 minutes, then 30 minutes, 30 seconds a move)."
    ]
    event.refresh_from_db()
    assert event.time_control == "90 min + 30 s/move"


def test_no_time_control_is_allowed_and_stored_empty():
    form = form_for(EventFactory(), "  ")

    assert form.is_valid() and form.cleaned_data["time_control"] == ""
