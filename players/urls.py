from django.urls import path

import grading.urls  # noqa: F401  (registers the "month" path converter)

from . import views

urlpatterns = [
    path("players/", views.search_page, name="player-search"),
    path("players/<str:code>/", views.player_page, name="player"),
    path("players/<str:code>/<slug:list_code>/<month:month>/", views.calculation_page, name="rating-calculation"),
    path("clubs/", views.club_index, name="clubs"),
    path("clubs/<path:code>/", views.club_page, name="club"),
]
