"""The officers' screens of accounts: applications to approve or decline (on the application's
page, or several at once), invitations to make and to send again; each account's history, for
administrators; and Django's own accounts' screens, which write to that history too."""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import timezone

from accounts.models import AccountChange, Application, Invitation
from accounts.pages.forms import NameField
from accounts.services.applications import MOST_REASON, do_approve_application, do_decline_application
from accounts.services.history import record
from accounts.services.invitations import do_invite_arbiter, do_send_invitation_again
from accounts.services.making import AccountRefused, account_with
from common.admin import Kept, username


class DecisionForm(forms.Form):
    reason = forms.CharField(
        required=False,
        max_length=MOST_REASON,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        label="Reason (to decline)",
        help_text="Mailed to the applicant.",
    )


class ReasonForm(ActionForm):
    # No length here: a form error would only say "No action selected"; the decline says why.
    reason = forms.CharField(required=False, label="Reason (to decline)")


class InvitationForm(forms.Form):
    email = forms.EmailField(label="E-mail address", max_length=254)
    forenames = NameField(label="Forenames")
    surname = NameField(label="Surname")


def each(modeladmin, request, queryset, step, done: str) -> None:
    """``step`` on each row, each refusal told with its row, then how many were ``done``."""
    count = 0
    for row in queryset:
        try:
            step(row)
            count += 1
        except AccountRefused as refused:
            modeladmin.message_user(request, f"{row}: {refused}", messages.ERROR)
    if count:
        modeladmin.message_user(request, f"{count} {done}.", messages.SUCCESS)


@admin.register(Application)
class ApplicationAdmin(Kept):
    list_display = ["name", "email", "identity", "licence", "created_at", "state"]
    list_filter = ["state"]
    search_fields = ["forenames", "surname", "email", "licence", "player_code"]
    fields = [
        "forenames",
        "surname",
        "email",
        "fide_id",
        "player_code",
        "player",
        "account_with_address",
        "licence",
        "created_at",
        "state",
        "decider",
        "decided_at",
        "decline_reason",
        "user",
    ]
    readonly_fields = fields
    action_form = ReasonForm
    actions = ["approve", "decline"]

    def has_add_permission(self, request):
        return False  # an application comes from the public form

    def has_decide_permission(self, request):
        return request.user.has_perm("accounts.decide_application")

    @admin.display(description="FIDE ID or code")
    def identity(self, application):
        return application.fide_id or application.player_code

    @admin.display(description="decided by")
    def decider(self, application):
        return username(application.decided_by)

    @admin.display(description="an account with this address")
    def account_with_address(self, application):
        existing = account_with(application.email)
        return existing.get_username() if existing else "none"

    def get_urls(self):
        view = self.admin_site.admin_view
        return [path("<int:pk>/decide/", view(self.decide), name="accounts_application_decide"), *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        application = self.get_object(request, object_id)
        deciding = (
            application is not None
            and application.state == Application.State.WAITING
            and self.has_decide_permission(request)
        )
        extra = {"decision_form": DecisionForm() if deciding else None}
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    def decide(self, request, pk):
        if not self.has_decide_permission(request):
            raise PermissionDenied
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        application = get_object_or_404(Application, pk=pk)
        form = DecisionForm(request.POST)
        try:
            if not form.is_valid():
                raise AccountRefused(" ".join(error for errors in form.errors.values() for error in errors))
            if "approve" in request.POST:
                application = do_approve_application(application, acting_user=request.user)
                told = f"approved: the account {application.user.get_username()} is made and its link mailed."
            else:
                do_decline_application(application, form.cleaned_data["reason"], acting_user=request.user)
                told = "declined: the reason is mailed to the applicant."
        except AccountRefused as refused:
            self.message_user(request, f"Nothing was done: {refused}", messages.ERROR)
        else:
            self.message_user(request, f"{application.name}'s application is {told}", messages.SUCCESS)
        return redirect("admin:accounts_application_change", application.pk)

    @admin.action(description="Approve the selected applications (accounts made, links mailed)", permissions=["decide"])
    def approve(self, request, queryset):
        each(
            self,
            request,
            queryset,
            lambda application: do_approve_application(application, acting_user=request.user),
            "approved",
        )

    @admin.action(description="Decline the selected applications (the reason mailed)", permissions=["decide"])
    def decline(self, request, queryset):
        reason = request.POST.get("reason", "")
        each(
            self,
            request,
            queryset,
            lambda application: do_decline_application(application, reason, acting_user=request.user),
            "declined",
        )


@admin.register(Invitation)
class InvitationAdmin(Kept):
    list_display = ["email", "name", "user", "inviter", "invited_at", "state"]
    list_select_related = ["user", "invited_by"]
    search_fields = ["email", "forenames", "surname", "user__username"]
    fields = ["email", "forenames", "surname", "user", "application", "inviter", "invited_at", "sent_at", "state"]
    readonly_fields = fields
    actions = ["send_again"]

    @admin.display(description="name")
    def name(self, invitation):
        return f"{invitation.forenames} {invitation.surname}"

    @admin.display(description="invited by")
    def inviter(self, invitation):
        return username(invitation.invited_by)

    @admin.display(description="state")
    def state(self, invitation):
        if invitation.accepted_at:
            return f"set up {timezone.localtime(invitation.accepted_at):%d/%m/%Y %H:%M}"
        if invitation.sent_at is None:
            return "not yet mailed"
        if invitation.expires_at < timezone.now():
            return f"expired {timezone.localtime(invitation.expires_at):%d/%m/%Y %H:%M}"
        return f"mailed; works until {timezone.localtime(invitation.expires_at):%d/%m/%Y %H:%M}"

    def add_view(self, request, form_url="", extra_context=None):
        """Invite an arbiter: the account is made, and the link to set its password mailed."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = InvitationForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                invitation = do_invite_arbiter(**form.cleaned_data, acting_user=request.user)
            except AccountRefused as refused:
                form.add_error("email", str(refused))
            else:
                self.message_user(
                    request,
                    f"Invited {invitation.email}: the account {invitation.user.get_username()} is made "
                    "and its link mailed.",
                    messages.SUCCESS,
                )
                return redirect("admin:accounts_invitation_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": "Invite an arbiter",
            "form": form,
            "opts": self.model._meta,
            "days": settings.INVITATION_TIMEOUT // 86400,
        }
        return render(request, "admin/accounts/invitation/invite.html", context, status=400 if form.errors else 200)

    def has_add_permission(self, request):
        return request.user.has_perm("accounts.add_invitation")

    @admin.action(description="Send the link again (it lasts from the new mail)", permissions=["add"])
    def send_again(self, request, queryset):
        each(
            self,
            request,
            queryset,
            lambda invitation: do_send_invitation_again(invitation, acting_user=request.user),
            "sent again",
        )


@admin.register(AccountChange)
class AccountChangeAdmin(Kept):
    list_display = ["at", "username", "what", "changed_by", "note"]
    list_filter = ["what"]
    search_fields = ["username", "note"]
    list_select_related = ["by"]

    @admin.display(description="by")
    def changed_by(self, change):
        return username(change.by)

    def has_add_permission(self, request):
        return False


class AccountAdmin(UserAdmin):
    """Django's accounts' screens, for administrators: a password set or turned off, or an
    address changed, here goes into the account's history as on the account page."""

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            if change and "email" in form.changed_data:
                record(obj, AccountChange.What.EMAIL_CHANGED, request.user, "by an administrator")

    def user_change_password(self, request, id, form_url=""):
        with transaction.atomic():
            user = self.get_object(request, unquote(id))  # None for an id of no account, or no id
            response = super().user_change_password(request, id, form_url)
            if user is not None:
                before = user.password
                user.refresh_from_db(fields=["password"])
                if user.password != before:
                    record(user, AccountChange.What.PASSWORD_SET, request.user)
        return response


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), AccountAdmin)
