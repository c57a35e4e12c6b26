from django.urls import path, register_converter

from chess.months import MONTH_PATTERN
from public import alerts, calculator, corrections, events, feeds, help, home, players
from public.lists import live, pages


class MonthConverter:
    """A period, ``YYYY-MM``; anything else is not a URL of the site (404)."""

    regex = MONTH_PATTERN

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(MonthConverter, "month")

urlpatterns = [
    path("", home.home, name="home"),
    path("lists/", pages.list_index, name="lists"),
    path("lists/<slug:code>/", pages.rating_list, name="rating-list"),
    path("lists/<slug:code>/top/", pages.top, name="top-lists"),
    path("lists/<slug:code>/live/", live.live_list, name="live-list"),
    path("lists/<slug:code>/live/csv/", live.live_list_csv, name="live-list-csv"),
    path("lists/<slug:code>/<month:month>/", pages.rating_list, name="rating-list-period"),
    path("lists/<slug:code>/<month:month>/csv/", pages.rating_list_csv, name="rating-list-csv"),
    path("lists/<slug:code>/<month:month>/txt/", pages.rating_list_text, name="rating-list-text"),
    path("lists/<slug:code>/<month:month>/json/", pages.rating_list_json, name="rating-list-json"),
    path("lists/<slug:code>/<month:month>/zip/", pages.rating_list_zip, name="rating-list-zip"),
    path("top/", pages.top_index, name="top"),
    path("calculator/", calculator.calculator, name="calculator"),
    path("help/", help.help_page, name="help"),
    path("help/d-offsets/", help.d_offset_table, name="help-d-offset"),
    path("help/performance/", help.performance_table, name="help-performance"),
    path("privacy/", help.privacy_page, name="privacy"),
    path("players/", players.search_page, name="player-search"),
    path("players/<str:code>/", players.player_page, name="player"),
    path("players/<str:code>/feed/", feeds.PlayerFeed(), name="player-feed"),
    path("players/<str:code>/vs/", players.head_to_head_search, name="head-to-head-search"),
    path("players/<str:code>/vs/<str:other>/", players.head_to_head_page, name="head-to-head"),
    path("players/<str:code>/live/<slug:list_code>/<month:month>/", live.live_calculation, name="live-calculation"),
    path("players/<str:code>/<slug:list_code>/<month:month>/", players.calculation_page, name="rating-calculation"),
    path("clubs/", players.club_index, name="clubs"),
    path("feeds/publications/", feeds.PublicationsFeed(), name="publications-feed"),
    path("clubs/<path:code>/csv/", players.club_csv, name="club-csv"),
    path("clubs/<path:code>/feed/", feeds.ClubFeed(), name="club-feed"),
    path("clubs/<path:code>/", players.club_page, name="club"),
    path("report/", corrections.report_error, name="report-error"),
    path("alerts/", alerts.manage_link, name="alerts"),
    path("alerts/follow/", alerts.follow, name="alerts-follow"),
    path("alerts/unsubscribe/<int:pk>/<str:token>/", alerts.unsubscribe_page, name="alerts-unsubscribe"),
    path("alerts/<str:key>/", alerts.manage, name="alerts-manage"),
    path("alerts/<str:key>/confirm/", alerts.confirm_page, name="alerts-confirm"),
    path("alerts/<str:key>/remove/<int:pk>/", alerts.remove, name="alerts-remove"),
    path("events/", events.event_index, name="events"),
    path("events/<path:code>/", events.event_page, name="event"),
]
