from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from accounts.views import system_status
from common import errors

admin.site.site_header = "Federation ratings: staff"
admin.site.site_title = "Federation ratings"

urlpatterns = [
    path("admin/status/", system_status, name="system-status"),
    # The admin's login links to it by this name ("Forgotten your login credentials?").
    path("admin/password_reset/", RedirectView.as_view(pattern_name="password_reset"), name="admin_password_reset"),
    path("admin/", admin.site.urls),
    path("accounts/", include("mails.urls")),
    path("accounts/", include("accounts.urls")),
    path("arbiter/", include("arbiters.urls")),
    path(errors.API_PREFIX[1:], include("api.urls")),
    path("", include("public.urls")),
]

# JSON under the API, the site's pages elsewhere (and CSRF_FAILURE_VIEW in config/settings.py).
handler400 = errors.bad_request
handler403 = errors.permission_denied
handler404 = errors.page_not_found
handler500 = errors.server_error
