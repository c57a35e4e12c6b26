from django.urls import path

from . import public

urlpatterns = [
    path("events/", public.event_index, name="events"),
    path("events/<path:code>/", public.event_page, name="event"),
]
