from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.pages import account, applying, passwords

# Logging in and out; each user's account page (password, e-mail); a password reset by e-mail
# (Django's views and URL names); an arbiter's application; an invitation's set-up link.
urlpatterns = [
    path("", account.account, name="account"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", passwords.PasswordChangeView.as_view(), name="password_change"),
    path("email/", account.change_email, name="account-email"),
    path("email/confirm/<str:token>/", account.confirm_email, name="account-email-confirm"),
    path("password_reset/", passwords.PasswordResetView.as_view(), name="password_reset"),
    path("password_reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("reset/<uidb64>/<token>/", passwords.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("apply/", applying.apply, name="account-apply"),
    path("apply/sent/", applying.applied, name="account-applied"),
    path("welcome/<uidb64>/<token>/", passwords.SetUpView.as_view(), name="account-set-up"),
]
