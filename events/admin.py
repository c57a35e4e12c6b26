from django.contrib import admin

from .models import Event, Game, Upload


class UploadInline(admin.TabularInline):
    model = Upload
    extra = 0
    fields = ["original_name", "format", "uploaded_by", "uploaded_at", "sha256"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "kind", "rating_list", "start_date", "end_date", "status", "arbiter"]
    list_filter = ["status", "rating_list", "kind", "online", "start_date"]
    search_fields = ["code", "name", "organiser", "arbiter__username"]
    date_hierarchy = "start_date"
    list_select_related = ["rating_list", "arbiter"]
    autocomplete_fields = ["arbiter"]
    readonly_fields = ["status_changed_at", "status_changed_by"]
    inlines = [UploadInline]


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = ["original_name", "format", "event", "uploaded_by", "uploaded_at"]
    list_filter = ["format", "uploaded_at"]
    search_fields = ["original_name", "sha256", "event__code", "event__name", "uploaded_by__username"]
    list_select_related = ["event", "uploaded_by"]
    readonly_fields = ["file", "original_name", "sha256", "format", "uploaded_by", "uploaded_at", "report"]
    autocomplete_fields = ["event"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["event", "round", "board", "date", "white", "result", "black", "rated", "unrated_reason"]
    list_filter = ["rated", "result", "event__rating_list", "date"]
    search_fields = ["event__code", "event__name", "white__surname", "white__code", "black__surname", "black__code"]
    list_select_related = ["event", "white", "black"]
    autocomplete_fields = ["event", "white", "black"]
    date_hierarchy = "date"
