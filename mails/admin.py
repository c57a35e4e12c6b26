"""The role mails in the admin, read only: each occasion with its deliveries, and the users'
choices with their history (docs/mails.md)."""

from django.contrib import admin

from common.admin import Kept, KeptInline
from mails.models import Delivery, MailChoice, MailChoiceChange, Occasion


class DeliveryInline(KeptInline):
    model = Delivery
    fields = ["address", "user", "claimed_at", "sent_at", "refused", "attempts"]


@admin.register(Occasion)
class OccasionAdmin(Kept):
    list_display = ["title", "kind", "created_at", "finished_at", "recipients", "sent"]
    list_filter = ["kind"]
    search_fields = ["title", "subject", "deliveries__address"]
    readonly_fields = ["kind", "subject", "title", "created_at", "claimed_at", "finished_at", "recipients", "sent"]
    inlines = [DeliveryInline]

    def has_add_permission(self, request):
        return False


@admin.register(MailChoice)
class MailChoiceAdmin(Kept):
    """A user's own to change, on their page (/accounts/mails/)."""

    list_display = ["user", "kind", "on", "changed_at"]
    list_filter = ["kind", "on"]
    search_fields = ["user__username", "user__email"]

    def has_add_permission(self, request):
        return False


@admin.register(MailChoiceChange)
class MailChoiceChangeAdmin(Kept):
    list_display = ["user", "kind", "on", "by", "at"]
    list_filter = ["kind"]
    search_fields = ["user__username"]

    def has_add_permission(self, request):
        return False


@admin.register(Delivery)
class DeliveryAdmin(Kept):
    list_display = ["occasion", "address", "claimed_at", "sent_at", "refused", "attempts"]
    list_filter = ["occasion__kind", "refused"]
    search_fields = ["address", "occasion__title"]
    list_select_related = ["occasion"]

    def has_add_permission(self, request):
        return False
