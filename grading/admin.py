from django.contrib import admin

from .models import PlayerRating, RatingList, RatingPeriod, RatingRun


@admin.register(RatingList)
class RatingListAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "rule_set", "standard_play", "online", "min_minutes", "max_minutes"]
    list_editable = ["rule_set"]
    search_fields = ["code", "name"]
    prepopulated_fields = {"code": ["name"]}


@admin.register(RatingPeriod)
class RatingPeriodAdmin(admin.ModelAdmin):
    list_display = ["month", "rating_list", "rule_set", "status", "published_at", "adjustment_a", "adjustment_b"]
    list_filter = ["rating_list", "status", "rule_set"]
    search_fields = ["month"]
    list_select_related = ["rating_list"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = [
        "player", "rating_list", "period", "rating", "type", "games", "points", "last_played", "category", "method",
    ]
    list_filter = ["rating_list", "type", "category", "method", "period__month"]
    search_fields = ["player__code", "player__surname", "player__forenames"]
    list_select_related = ["player", "rating_list", "period", "period__rating_list"]
    autocomplete_fields = ["player"]
    raw_id_fields = ["period"]


@admin.register(RatingRun)
class RatingRunAdmin(admin.ModelAdmin):
    list_display = ["period", "trigger", "started_by", "started_at", "finished_at", "outcome", "games", "players_rated"]
    list_filter = ["outcome", "trigger", "period__rating_list"]
    search_fields = ["period__month", "message"]
    list_select_related = ["period", "period__rating_list", "started_by"]
    readonly_fields = [field.name for field in RatingRun._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
