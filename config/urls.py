from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from events import views as event_views
from grading import views as grading_views

admin.site.site_header = "Federation ratings: staff"
admin.site.site_title = "Federation ratings"

urlpatterns = [
    path("", grading_views.home, name="home"),
    path("admin/status/", grading_views.system_status, name="system-status"),
    path("admin/", admin.site.urls),
    # Logging in and out, and changing one's password. There is no reset by email: an
    # administrator sets a new password in the admin.
    path("accounts/login/", event_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("arbiter/", include("events.urls")),
    path("", include("grading.urls")),
    path("", include("players.urls")),
    path("", include("events.public_urls")),
    path("api/", include("api.urls")),
]
