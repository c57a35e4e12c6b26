from django.contrib import admin
from django.urls import include, path

from accounts.views import system_status

admin.site.site_header = "Federation ratings: staff"
admin.site.site_title = "Federation ratings"

urlpatterns = [
    path("admin/status/", system_status, name="system-status"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("arbiter/", include("arbiters.urls")),
    path("api/", include("api.urls")),
    path("", include("public.urls")),
]
