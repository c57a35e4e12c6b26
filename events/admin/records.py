"""The events' records in the admin apart from the event itself: entries, games, uploads, the
events' history and the arbiters' API tokens."""

import logging

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html

from chess import results
from chess.dates import written
from common.admin import DeleteOneByOne, Kept, username
from events.models import ApiToken, Entry, EventChange, Game, Upload
from events.tokens import do_revoke_token
from events.uploads import matching
from events.uploads.store import STORE_ERRORS

logger = logging.getLogger(__name__)

_REASONS_OF_RESULTS = {results.unrated_reason(code) for code in results.ALL}


class GameForm(forms.ModelForm):
    def clean_date(self):
        day, event = self.cleaned_data["date"], self.instance.event
        if day and not event.start_date <= day <= event.end_date:
            raise forms.ValidationError(
                f"{event.code} runs from {written(event.start_date)} to {written(event.end_date)}: "
                "the game must be dated within it."
            )
        return day


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    """An entry's federation record can be chosen here as in its event's page; the rest is
    what the file said."""

    list_display = ["event", "pin", "surname", "forenames", "code", "birth_date", "player", "match"]
    list_filter = ["match", "event__status"]
    search_fields = ["surname", "forenames", "code", "event__code", "event__name"]
    list_select_related = ["event", "player"]
    autocomplete_fields = ["player"]
    readonly_fields = [
        "event",
        "pin",
        "surname",
        "forenames",
        "code",
        "fide_id",
        "birth_date",
        "sex",
        "title",
        "club_name",
        "match",
        "rank",
        "line",
    ]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and not (obj and obj.event.in_rating)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if "player" in form.changed_data:
            matching.players_chosen(obj.event, [obj.pk])


@admin.register(EventChange)
class EventChangeAdmin(Kept):
    list_display = ["event", "status", "step", "by", "at", "note"]
    list_filter = ["status", "at"]
    search_fields = ["event__code", "event__name", "by__username", "note"]
    list_select_related = ["event", "by"]

    def has_add_permission(self, request):
        return False


@admin.register(Upload)
class UploadAdmin(Kept):
    list_display = ["original_name", "format", "event", "uploaded_by", "uploaded_at"]
    list_filter = ["format", "uploaded_at"]
    search_fields = ["original_name", "sha256", "event__code", "event__name", "uploaded_by__username"]
    list_select_related = ["event", "uploaded_by"]
    fields = ["event", "original_name", "original_file", "sha256", "format", "uploader", "uploaded_at", "the_report"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    @admin.display(description="uploaded by")
    def uploader(self, upload):
        return username(upload.uploaded_by)

    @admin.display(description="report")
    def the_report(self, upload):
        # The arbiter's report, as they read it (the template escapes every value).
        return render_to_string("events/report.html", {"report": upload.report})

    @admin.display(description="the file as uploaded")
    def original_file(self, upload):
        url = reverse("admin:events_upload_original", args=[upload.pk])
        return format_html('<a href="{}" download>Download {}</a>', url, upload.original_name)

    def get_urls(self):
        original = path("<int:pk>/original/", self.admin_site.admin_view(self.download), name="events_upload_original")
        return [original, *super().get_urls()]

    def download(self, request, pk):
        """The file exactly as uploaded, for staff to check: always a download, never shown."""
        upload = Upload.objects.filter(pk=pk).first()
        if upload is None or not self.has_view_permission(request, upload):
            raise PermissionDenied
        try:
            handle = upload.file.open("rb")
        except FileNotFoundError:
            raise Http404(f"The file of {upload.original_name} is missing from the storage.") from None
        except STORE_ERRORS as error:
            # Nothing is lost: the file is in the store, which does not answer for now.
            logger.error("The file of upload %s could not be read from the store: %s", upload.pk, error)
            response = HttpResponse(
                f"The file store cannot be reached: {upload.original_name} cannot be downloaded now. "
                "Try again in a few minutes.",
                status=503,
                content_type="text/plain; charset=utf-8",
            )
            response["Retry-After"] = "120"
            return response
        return FileResponse(
            handle, as_attachment=True, filename=upload.original_name, content_type="application/octet-stream"
        )


@admin.register(Game)
class GameAdmin(DeleteOneByOne):
    list_display = ["event", "round", "board", "date", "white", "result", "black", "rated", "unrated_reason"]
    list_filter = ["rated", "result", "event__rating_list", "date"]
    search_fields = ["event__code", "event__name", "white__surname", "white__code", "black__surname", "black__code"]
    list_select_related = ["event", "white", "black"]
    # Who played follows the event's entries (corrected there); a game's round, board, date
    # and result can be corrected here, and whether it is rated follows its result.
    readonly_fields = ["event", "white_entry", "black_entry", "white", "black", "rated", "unrated_reason"]
    form = GameForm
    date_hierarchy = "date"

    def has_add_permission(self, request):
        return False  # games come from an event's file, checked as a whole

    def save_model(self, request, obj, form, change):
        # A reason its result does not give (its file said its team match was forfeited, its
        # month was taken on from the previous system) stays.
        kept = "" if obj.unrated_reason in _REASONS_OF_RESULTS else obj.unrated_reason
        obj.unrated_reason = results.unrated_reason(obj.result) or kept
        obj.rated = not obj.unrated_reason
        super().save_model(request, obj, form, change)

    # A game of an approved or rated event is corrected by sending the event back, so that
    # the months it was rated in are revised.
    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and not (obj and obj.event.in_rating)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and not (obj and obj.event.in_rating)


@admin.register(ApiToken)
class ApiTokenAdmin(DeleteOneByOne):
    """The arbiters' tokens: who has which, when each was last used; an officer revokes one that
    leaked (its arbiter makes a new one on their page). A secret is never here: only its digest
    is kept."""

    list_display = ["name", "user", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter), "created_at"]
    search_fields = ["name", "user__username", "prefix"]
    list_select_related = ["user"]
    readonly_fields = ["user", "name", "prefix", "created_at", "last_used_at", "revoked_at", "revoked_by"]
    exclude = ["digest"]
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Revoke the selected tokens", permissions=["change"])
    def revoke(self, request, queryset):
        for token in queryset:
            do_revoke_token(token, acting_user=request.user)
        self.message_user(
            request, f"{queryset.count()} token(s) revoked: a program sending one is refused from now on."
        )
