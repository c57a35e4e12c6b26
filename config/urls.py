from django.contrib import admin
from django.urls import include, path

from grading import views as grading_views

admin.site.site_header = "Federation ratings: staff"
admin.site.site_title = "Federation ratings"

urlpatterns = [
    path("", grading_views.home, name="home"),
    path("admin/status/", grading_views.system_status, name="system-status"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("arbiter/", include("events.urls")),
    path("", include("grading.urls")),
    path("", include("players.urls")),
    path("", include("events.public_urls")),
    path("api/", include("api.urls")),
]
