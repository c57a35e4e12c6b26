import datetime

from django import forms
from django.contrib import admin, messages
from django.db.models import Count
from django.shortcuts import render

from config.admin import DeleteOneByOne

from .models import Club, Player, years_before
from .services import MergeRefused, merge_players, merge_revisions


@admin.register(Club)
class ClubAdmin(DeleteOneByOne):
    list_display = ["code", "name", "county", "player_count"]
    list_filter = ["county"]
    search_fields = ["code", "name", "county"]

    # Published lists name the club of each line: a club that has players or is on a list stays.
    def has_delete_permission(self, request, obj=None):
        from grading.models import ListEntry, RatingPeriod

        # By period first: the lists' index is (period, revision, club).
        on_a_list = ListEntry.objects.filter(period__in=RatingPeriod.objects.values("pk"), club=obj)
        in_use = obj and (obj.players.exists() or on_a_list.exists())
        return super().has_delete_permission(request, obj) and not in_use

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(player_count=Count("players"))

    @admin.display(ordering="player_count", description="players")
    def player_count(self, club):
        return club.player_count


class JuniorFilter(admin.SimpleListFilter):
    title = "age"
    parameter_name = "age"

    def lookups(self, request, model_admin):
        return [
            ("junior", "junior (under 18 today)"),
            ("adult", "adult"),
            ("unknown", "birth date unknown"),
        ]

    def queryset(self, request, queryset):
        born_after = years_before(datetime.date.today(), 18)
        if self.value() == "junior":
            return queryset.filter(birth_date__gt=born_after)
        if self.value() == "adult":
            return queryset.filter(birth_date__lte=born_after)
        if self.value() == "unknown":
            return queryset.filter(birth_date=None)
        return queryset


def latest_ratings(player):
    """The record's current rating on each list: "otb-standard 1518 (2026-10, last played 2026-10)"."""
    from grading.models import PlayerRating

    latest = {}
    for row in (
        PlayerRating.objects.filter(player=player, superseded_at=None).select_related("rating_list").order_by("month")
    ):
        latest[row.rating_list.code] = row
    return [
        f"{code} {row.rating}{'P' if row.type == 'partial' else ''} ({row.month}, last played {row.last_played or '-'})"
        for code, row in latest.items()
    ]


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(queryset=Player.objects.none())


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = [
        "code",
        "surname",
        "forenames",
        "birth_date",
        "sex",
        "fide_title",
        "fide_id",
        "club",
        "merged_into",
    ]
    list_display_links = ["code", "surname"]
    list_filter = [
        "sex",
        "fide_title",
        JuniorFilter,
        ("merged_into", admin.EmptyFieldListFilter),
        "club__county",
    ]
    search_fields = ["code", "surname", "forenames", "=fide_id", "club__name"]
    list_select_related = ["club", "merged_into"]
    autocomplete_fields = ["club"]
    # Set only by the merge action, which moves the games and history and checks the merge.
    readonly_fields = ["merged_into"]
    actions = ["merge_selected"]
    fieldsets = [
        (None, {"fields": ["code", ("surname", "forenames"), ("birth_date", "sex"), "club"]}),
        ("FIDE", {"fields": [("fide_id", "fide_title", "nationality")]}),
        ("Duplicates", {"fields": ["merged_into"], "classes": ["collapse"]}),
    ]

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
            merged = merge_players(keep, players, request.user)
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
