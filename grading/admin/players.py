"""The players' and clubs' admin screens as the ratings extend them: a club named on a published
list is not deleted, and duplicate player records are merged with their games and ratings."""

from django import forms
from django.contrib import admin, messages
from django.db.models import Count
from django.shortcuts import render

from common.admin import Kept
from grading.merging import MergeRefused, do_merge_players, merge_revisions
from grading.models import ListEntry, PlayerMerge, PlayerRating, RatingPeriod, rating_text
from players import admin as players_admin
from players.models import Club, Player


@admin.register(Club)
class ClubAdmin(players_admin.ClubAdmin):
    def has_delete_permission(self, request, obj=None):
        # By period first: the lists' index is (period, revision, club).
        on_a_list = obj and ListEntry.objects.filter(period__in=RatingPeriod.objects.values("pk"), club=obj).exists()
        return super().has_delete_permission(request, obj) and not on_a_list


def latest_ratings(player):
    """The record's current rating on each list: "otb-standard 1518 (2026-10, last played 2026-10)"."""
    latest = {}
    for row in (
        PlayerRating.objects.filter(player=player, superseded_at=None).select_related("rating_list").order_by("month")
    ):
        latest[row.rating_list.code] = row
    return [
        f"{code} {rating_text(row.rating, row.type)} ({row.month}, last played {row.last_played or '-'})"
        for code, row in latest.items()
    ]


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(queryset=Player.objects.none())


# Registered once, by privacy/admin.py, which adds a record's personal data to it.
class PlayerAdmin(players_admin.PlayerAdmin):
    actions = ["merge_selected"]

    def has_merge_permission(self, request):
        return request.user.has_perm("players.merge_player")

    @admin.action(description="Merge the selected players", permissions=["merge"])
    def merge_selected(self, request, queryset):
        players = list(
            queryset.select_related("club").annotate(
                event_count=Count("entries__event", distinct=True), rating_count=Count("ratings", distinct=True)
            )
        )
        if len(players) < 2:
            self.message_user(request, "Select two or more records of the same player.", messages.ERROR)
            return None
        form = MergeForm(request.POST if "keep" in request.POST else None)
        form.fields["keep"].queryset = queryset
        if not form.is_valid():
            for player in players:
                player.latest_ratings = latest_ratings(player)
            return render(
                request,
                "admin/players/merge.html",
                {
                    **self.admin_site.each_context(request),
                    "title": "Merge duplicate players",
                    "players": players,
                    # Whichever is kept, the months revised are those the others were rated in.
                    "revisions": {
                        player.pk: merge_revisions(player, [other for other in players if other.pk != player.pk])
                        for player in players
                    },
                    "opts": self.model._meta,
                    "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
                },
            )
        keep = form.cleaned_data["keep"]
        revisions = merge_revisions(keep, [player for player in players if player.pk != keep.pk])
        try:
            merged = do_merge_players(keep, players, acting_user=request.user)
        except MergeRefused as refused:
            self.message_user(request, f"Nothing merged: {refused}.", messages.ERROR)
        else:
            records = "record" if merged == 1 else "records"
            revised = ", ".join(f"{period.rating_list.code} from {period.month}" for period in revisions)
            self.message_user(
                request,
                f"{merged} {records} merged into {keep}." + (f" Revising {revised}." if revised else ""),
                messages.SUCCESS,
            )
        return None


@admin.register(PlayerMerge)
class PlayerMergeAdmin(Kept):
    """Every merge of duplicate records, as it was made: who, when, what moved."""

    list_display = ["merged", "kept", "merged_by", "merged_at", "games", "ratings"]
    search_fields = ["merged__code", "merged__surname", "kept__code", "kept__surname"]
    list_select_related = ["merged", "kept", "merged_by"]

    def has_add_permission(self, request):
        return False
