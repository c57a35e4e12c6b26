"""The alerts in the admin: who follows what, and each mailing's figures. Read only: an address's
follows are its own to change, through the link in its mails."""

from django.contrib import admin

from alerts.models import Delivery, Follow, Follower, Mailing
from common.admin import Kept, KeptInline


class FollowInline(KeptInline):
    model = Follow
    fields = ["kind", "player", "club", "rating_list", "created_at", "confirmed_at"]


@admin.register(Follower)
class FollowerAdmin(Kept):
    list_display = ["email", "created_at", "link_sent_at"]
    search_fields = ["email"]
    exclude = ["key"]  # the address's own: whoever holds it manages its alerts
    readonly_fields = ["email", "created_at", "link_sent_at"]
    inlines = [FollowInline]

    def has_add_permission(self, request):
        return False


@admin.register(Follow)
class FollowAdmin(Kept):
    list_display = ["follower", "kind", "player", "club", "rating_list", "created_at", "confirmed_at"]
    list_filter = ["kind", ("confirmed_at", admin.EmptyFieldListFilter)]
    search_fields = ["follower__email", "player__code", "player__surname", "club__code"]
    list_select_related = ["follower", "player", "club", "rating_list"]

    def has_add_permission(self, request):
        return False


@admin.register(Mailing)
class MailingAdmin(Kept):
    list_display = ["subject", "created_at", "finished_at", "recipients", "sent", "seconds"]
    search_fields = ["subject", "key"]

    def has_add_permission(self, request):
        return False


@admin.register(Delivery)
class DeliveryAdmin(Kept):
    list_display = ["mailing", "follower", "sent_at"]
    search_fields = ["follower__email", "mailing__subject"]
    list_select_related = ["mailing", "follower"]

    def has_add_permission(self, request):
        return False
