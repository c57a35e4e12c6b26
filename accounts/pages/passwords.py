"""Django's own password views, styled like the site, their steps taken by our actions:
a reset asked for (the same answer and the same work for any address), set from its link,
changed on the account page; and an invited arbiter's first password, from the invitation's link."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.views import INTERNAL_RESET_SESSION_TOKEN
from django.shortcuts import redirect, resolve_url
from django.urls import reverse_lazy

from accounts.links import invitation_tokens
from accounts.pages.forms import ResetForm
from accounts.roles import start_page
from accounts.services.invitations import do_set_up_account
from accounts.services.passwords import ask_for_password_reset, do_change_password, do_reset_password
from common.cache import within_rate
from common.middleware import client_address
from grading.run.broker import Unreachable

ASKS_AN_HOUR = 10  # resets asked for from one connection


class PasswordResetView(auth_views.PasswordResetView):
    """The address is handed to a worker (accounts.tasks.mail_password_reset) as it is: whether an
    account has it is looked up there, so the page answers alike, as fast, for any address."""

    form_class = ResetForm

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "hours": settings.PASSWORD_RESET_TIMEOUT // 3600}

    def form_valid(self, form):
        if not within_rate(f"password-reset-asks:{client_address(self.request)}", ASKS_AN_HOUR, 3600)[0]:
            form.add_error(None, "Too many resets asked for from your connection: please try again in an hour.")
            return self.form_invalid(form)
        try:
            ask_for_password_reset(form.cleaned_data["email"])
        except Unreachable:
            form.add_error(None, "The mail cannot be sent just now: please ask again in a few minutes.")
            return self.form_invalid(form)
        return redirect(self.success_url)


class ActiveOnly:
    """A link opens nothing for an account an administrator has made inactive since it was mailed."""

    def get_user(self, uidb64):
        user = super().get_user(uidb64)
        return user if user is not None and user.is_active else None


class PasswordResetConfirmView(ActiveOnly, auth_views.PasswordResetConfirmView):
    def form_valid(self, form):
        do_reset_password(form, acting_user=form.user)
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        return redirect(self.get_success_url())


class PasswordChangeView(auth_views.PasswordChangeView):
    # Not registration/password_change_form.html: the admin's own "Change password" uses that.
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("account")

    def form_valid(self, form):
        do_change_password(form, acting_user=self.request.user)
        # Django's own step: the session stays logged in with the new password.
        update_session_auth_hash(self.request, form.user)
        messages.success(self.request, "Your password is changed.")
        return redirect(self.success_url)


class SetUpView(ActiveOnly, auth_views.PasswordResetConfirmView):
    """An invited (or approved) arbiter's first password, from the link mailed to them: set, they
    are logged in and taken to their start page."""

    token_generator = invitation_tokens
    template_name = "accounts/set_up.html"
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"

    def form_valid(self, form):
        do_set_up_account(form, acting_user=form.user)
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        login(self.request, form.user, self.post_reset_login_backend)
        messages.success(self.request, f"Welcome: your account {form.user.get_username()} is ready.")
        return redirect(resolve_url(start_page(form.user)))
