from django.urls import path, register_converter

from . import views


class MonthConverter:
    """A period, ``YYYY-MM``; anything else is not a URL of the site (404)."""

    regex = "[0-9]{4}-(?:0[1-9]|1[0-2])"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(MonthConverter, "month")

urlpatterns = [
    path("lists/", views.list_index, name="lists"),
    path("lists/<slug:code>/", views.rating_list, name="rating-list"),
    path("lists/<slug:code>/top/", views.top, name="top-lists"),
    path("lists/<slug:code>/<month:month>/", views.rating_list, name="rating-list-period"),
    path("lists/<slug:code>/<month:month>/csv/", views.rating_list_csv, name="rating-list-csv"),
    path("top/", views.top_index, name="top"),
]
