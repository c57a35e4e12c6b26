from django.urls import path, register_converter

from chess.months import MONTH_PATTERN
from common.cache_control import CHANGING, EDITION, STEADY, shared
from public import alerts, calculator_page, corrections, events, feeds, help, home, players
from public.lists import live, pages


class MonthConverter:
    """A period, ``YYYY-MM``; anything else is not a URL of the site (404)."""

    regex = MONTH_PATTERN

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(MonthConverter, "month")

# Every public page declares who may keep it and how long (common/cache_control.py, docs/cache-control.md):
# a month's list and its downloads are an EDITION where the address names the revision (and with
# ?edition=original, which names revision 0: the view says so). The alerts' and the error
# reports' forms declare nothing: never shared.
changing, steady, edition = shared(CHANGING), shared(STEADY), shared(EDITION)

urlpatterns = [
    path("", changing(home.home), name="home"),
    path("lists/", changing(pages.list_index), name="lists"),
    path("lists/<slug:code>/", changing(pages.rating_list), name="rating-list"),
    path("lists/<slug:code>/top/", changing(pages.top), name="top-lists"),
    path("lists/<slug:code>/live/", changing(live.live_list), name="live-list"),
    path("lists/<slug:code>/live/csv/", changing(live.live_list_csv), name="live-list-csv"),
    path("lists/<slug:code>/<month:month>/", changing(pages.rating_list), name="rating-list-period"),
    path("lists/<slug:code>/<month:month>/csv/", changing(pages.rating_list_csv), name="rating-list-csv"),
    path("lists/<slug:code>/<month:month>/txt/", changing(pages.rating_list_text), name="rating-list-text"),
    path("lists/<slug:code>/<month:month>/json/", changing(pages.rating_list_json), name="rating-list-json"),
    path("lists/<slug:code>/<month:month>/zip/", changing(pages.rating_list_zip), name="rating-list-zip"),
    # A published edition: the month's list as one revision published it (0 the original).
    path("lists/<slug:code>/<month:month>/r<int:revision>/", edition(pages.rating_list), name="rating-list-edition"),
    path("lists/<slug:code>/<month:month>/r<int:revision>/csv/", edition(pages.rating_list_csv), name="edition-csv"),
    path("lists/<slug:code>/<month:month>/r<int:revision>/txt/", edition(pages.rating_list_text), name="edition-text"),
    path("lists/<slug:code>/<month:month>/r<int:revision>/json/", edition(pages.rating_list_json), name="edition-json"),
    path("lists/<slug:code>/<month:month>/r<int:revision>/zip/", edition(pages.rating_list_zip), name="edition-zip"),
    path("top/", changing(pages.top_index), name="top"),
    path("calculator/", changing(calculator_page.calculator), name="calculator"),
    path("help/", steady(help.help_page), name="help"),
    path("help/d-offsets/", steady(help.d_offset_table), name="help-d-offset"),
    path("help/performance/", steady(help.performance_table), name="help-performance"),
    path("privacy/", changing(help.privacy_page), name="privacy"),
    path("players/", changing(players.search_page), name="player-search"),
    path("players/<str:code>/", changing(players.player_page), name="player"),
    path("players/<str:code>/feed/", changing(feeds.PlayerFeed()), name="player-feed"),
    path("players/<str:code>/vs/", changing(players.head_to_head_search), name="head-to-head-search"),
    path("players/<str:code>/vs/<str:other>/", changing(players.head_to_head_page), name="head-to-head"),
    path(
        "players/<str:code>/live/<slug:list_code>/<month:month>/",
        changing(live.live_calculation),
        name="live-calculation",
    ),
    path(
        "players/<str:code>/<slug:list_code>/<month:month>/",
        changing(players.calculation_page),
        name="rating-calculation",
    ),
    path("clubs/", changing(players.club_index), name="clubs"),
    path("feeds/publications/", changing(feeds.PublicationsFeed()), name="publications-feed"),
    path("clubs/<path:code>/csv/", changing(players.club_csv), name="club-csv"),
    path("clubs/<path:code>/feed/", changing(feeds.ClubFeed()), name="club-feed"),
    path("clubs/<path:code>/", changing(players.club_page), name="club"),
    path("report/", corrections.report_error, name="report-error"),
    path("alerts/", alerts.manage_link, name="alerts"),
    path("alerts/follow/", alerts.follow, name="alerts-follow"),
    path("alerts/unsubscribe/<int:pk>/<str:token>/", alerts.unsubscribe_page, name="alerts-unsubscribe"),
    path("alerts/<str:key>/", alerts.manage, name="alerts-manage"),
    path("alerts/<str:key>/confirm/", alerts.confirm_page, name="alerts-confirm"),
    path("alerts/<str:key>/remove/<int:pk>/", alerts.remove, name="alerts-remove"),
    path("events/", changing(events.event_index), name="events"),
    path("events/<path:code>/", changing(events.event_page), name="event"),
]
