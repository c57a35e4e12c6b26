"""The live ratings in the admin: read only, with the computation asked for again by hand."""

from django.contrib import admin, messages

from grading.admin.lists import ReadOnlyAdmin, StateAsJson
from grading.live.requests import request_live
from grading.models import LiveEntry, LiveGameNotRated, LiveList, LiveRating


@admin.register(LiveList)
class LiveListAdmin(ReadOnlyAdmin):
    list_display = [
        "rating_list",
        "months",
        "based_on",
        "games",
        "events",
        "players_rated",
        "computed_at",
        "seconds",
        "failed",
    ]
    list_select_related = ["rating_list", "based_on", "based_on__rating_list"]
    actions = ["compute_again"]

    @admin.action(description="Compute the live ratings again", permissions=["view"])
    def compute_again(self, request, queryset):
        for live in queryset.select_related("rating_list"):
            request_live(live.rating_list)
        messages.success(
            request, f"Asked for {queryset.count()} live list(s) to be computed again; they follow within a minute."
        )


@admin.register(LiveRating)
class LiveRatingAdmin(StateAsJson, ReadOnlyAdmin):
    list_display = ["player", "rating_list", "month", "rating", "type", "games", "category", "method"]
    list_filter = ["rating_list", "month", "type", "method"]
    search_fields = ["player__code", "player__surname", "player__forenames"]
    list_select_related = ["player", "rating_list"]


@admin.register(LiveEntry)
class LiveEntryAdmin(ReadOnlyAdmin):
    list_display = ["rating_list", "player", "rating", "published_rating", "live_games", "type", "category", "club"]
    list_filter = ["rating_list", "type", "category"]
    search_fields = ["player__code", "player__surname"]
    list_select_related = ["rating_list", "player", "club"]


@admin.register(LiveGameNotRated)
class LiveGameNotRatedAdmin(ReadOnlyAdmin):
    """The games the live ratings leave out under FIDE's conditions on events: what the month's
    run will leave out as things stand (the published ones: Games not rated)."""

    list_display = ["game", "event", "reason", "rating_list"]
    list_filter = ["rating_list"]
    search_fields = ["game__event__code", "reason"]
    list_select_related = ["rating_list", "game__event", "game__white_entry", "game__black_entry"]

    @admin.display(ordering="game__event__code")
    def event(self, row):
        return row.game.event.code
