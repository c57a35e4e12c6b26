from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

# Logging in and out, and changing one's password. There is no reset by email: an administrator
# sets a new password in the admin.
urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]
