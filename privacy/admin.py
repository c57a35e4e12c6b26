"""The officers' page of a player's personal data: export it for a subject access request,
restrict the name to initials (and lift that), erase what the ratings do not need. Each step
says why and is kept in the player's history (docs/privacy.md)."""

import re

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path

from grading.admin import players as grading_players
from players.models import Player, PlayerChange, shown_name
from privacy.export import do_export_player_data, export_file_name
from privacy.services import RequestRefused, do_erase_player_data, do_lift_restriction, do_restrict_player

REASON_HELP = "The request this answers: who asked, when and how. Kept in the player's history."
ADDRESSES_HELP = (
    "The player's own e-mail addresses, if they gave any (one a line): their follows, error reports and mails sent."
)


class RequestForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "cols": 80}), help_text=REASON_HELP)


class AddressesForm(RequestForm):
    addresses = forms.CharField(
        label="Their e-mail addresses",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 80}),
        help_text=ADDRESSES_HELP,
    )


class EraseForm(AddressesForm):
    sure = forms.BooleanField(
        label="I understand that this cannot be undone: the birth date is gone for good, and the name stays as "
        "initials on every public page.",
    )


FORMS = {"export": AddressesForm, "restrict": RequestForm, "lift": RequestForm, "erase": EraseForm}
DONE = {
    "restrict": "{name}'s name is now shown as initials on every public page.",
    "lift": "{name}'s name is shown whole again.",
    "erase": "{name}'s personal data is erased: {details}.",
}


def erased(details: dict) -> str:
    return (
        f"{details['birth_dates']} birth date(s) of the record cleared, {details['entries_birth_dates']} of event "
        f"entries, {details['followers']} follower address(es) with {details['follows']} follow(s) and "
        f"{details['error_reports']} error report(s) removed; every game and rating kept"
    )


@admin.register(Player)
class PlayerAdmin(grading_players.PlayerAdmin):
    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/personal-data/", view(self.personal_data), name="players_player_personal_data"),
            *super().get_urls(),
        ]

    def personal_data(self, request, pk):
        if not request.user.has_perm("players.handle_personal_data"):
            raise PermissionDenied
        player = get_object_or_404(Player.objects.select_related("merged_into", "club"), pk=pk)
        action = request.POST.get("action") if request.method == "POST" else None
        if request.method not in ("GET", "HEAD", "POST"):
            return HttpResponseNotAllowed(["GET", "POST"])
        forms_shown = {name: form(prefix=name) for name, form in FORMS.items()}
        if action in FORMS:
            form = FORMS[action](request.POST, prefix=action)
            forms_shown[action] = form
            if form.is_valid():
                try:
                    return self.answer(request, player, action, form.cleaned_data)
                except RequestRefused as refused:
                    form.add_error(None, f"Nothing was done: {refused}.")
        elif request.method == "POST":
            messages.error(request, "Nothing was done: choose what to do.")
        return render(request, "admin/players/personal_data.html", self.page(request, player, forms_shown))

    def answer(self, request, player, action, data):
        addresses = re.split(r"[\s,;]+", data.get("addresses", ""))  # one a line, or as a mail's To
        if action == "export":
            text = do_export_player_data(player, acting_user=request.user, reason=data["reason"], addresses=addresses)
            response = HttpResponse(text, content_type="application/json; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{export_file_name(player)}"'
            return response
        if action == "restrict":
            do_restrict_player(player, acting_user=request.user, reason=data["reason"])
            details = ""
        elif action == "lift":
            do_lift_restriction(player, acting_user=request.user, reason=data["reason"])
            details = ""
        else:
            change = do_erase_player_data(player, acting_user=request.user, reason=data["reason"], addresses=addresses)
            details = erased(change.details)
        messages.success(request, DONE[action].format(name=player.full_name, details=details))
        return redirect("admin:players_player_personal_data", player.pk)

    def page(self, request, player, forms_shown) -> dict:
        history = PlayerChange.objects.filter(player=player).select_related("by").order_by("-at", "-pk")
        return {
            **self.admin_site.each_context(request),
            "title": f"Personal data: {player.full_name} ({player.code})",
            "player": player,
            "initials": shown_name(player.surname, player.forenames, True),
            "forms": forms_shown,
            "erased": any(change.action == PlayerChange.Action.ERASED for change in history),
            "history": history,
            "opts": self.model._meta,
        }
