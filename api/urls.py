from django.urls import path, re_path

from api import uploads, views

urlpatterns = [
    path("", views.docs, name="api-docs"),
    path("v1/", views.index, name="api-index"),
    path("v1/openapi.json", views.openapi, name="api-openapi"),
    path("v1/players/", views.players, name="api-players"),
    path("v1/players/<str:code>/", views.player, name="api-player"),
    path("v1/players/<str:code>/ratings/", views.player_ratings, name="api-player-ratings"),
    path("v1/players/<str:code>/games/", views.player_games, name="api-player-games"),
    path("v1/lists/", views.lists, name="api-lists"),
    path("v1/lists/<slug:code>/", views.rating_list, name="api-list"),
    path("v1/lists/<slug:code>/live/", views.live_list, name="api-live-list"),
    path("v1/lists/<slug:code>/<str:month>/", views.rating_list, name="api-list-period"),
    path("v1/lists/<slug:code>/<str:month>/r<int:revision>/", views.rating_list, name="api-list-edition"),
    path("v1/calculator/", views.calculator, name="api-calculator"),
    path("v1/clubs/", views.clubs, name="api-clubs"),
    path("v1/clubs/<path:code>/", views.club, name="api-club"),
    path("v1/events/", uploads.events_or_upload, name="api-events"),
    path("v1/events/<path:code>/", uploads.event_or_submission, name="api-event"),
    re_path(r"^v1/.*$", views.not_found),
]
