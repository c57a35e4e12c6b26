import datetime

from django.contrib import admin
from django.db.models import Count, Q

from common.admin import DeleteOneByOne, Kept, username
from players import search
from players.models import PlayerChange, PrivacySetting, years_before
from players.privacy import privacy_changed


# Club and Player are registered once, by grading/admin/players.py, which extends these with what
# the ratings add (a club on a published list kept, duplicate records merged).
class ClubAdmin(DeleteOneByOne):
    list_display = ["code", "name", "county", "player_count"]
    list_filter = ["county"]
    search_fields = ["code", "name", "county"]

    # A club that has players stays (grading's admin adds: or is named on a published list).
    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and not (obj and obj.players.exists())

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


@admin.register(PlayerChange)
class PlayerChangeAdmin(Kept):
    """Every player's data history: who exported, restricted or erased whose data, and why. Made
    only by the officers' Personal data page of a player (privacy/admin.py), which shows a
    player's own."""

    list_display = ["at", "whose", "action", "officer", "reason"]
    ordering = ["-at", "-pk"]
    list_filter = ["action"]
    search_fields = ["player__code", "reason"]
    list_select_related = ["player", "by"]
    fields = ["player", "action", "officer", "at", "reason", "details"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_view_permission(self, request, obj=None):
        # Who asked about whose data, when and how is itself personal data: it is for whoever may
        # handle it, not whoever is given "Can view player's data history" beside the players'.
        return request.user.has_perm("players.handle_personal_data") and super().has_view_permission(request, obj)

    @admin.display(description="by")
    def officer(self, change):
        return username(change.by)

    @admin.display(description="player", ordering="player__surname")
    def whose(self, change):
        return f"{change.player.full_name} ({change.player.code})"  # the whole name: officers'


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
    # Names, codes and FIDE IDs are found by the name search (get_search_results); a club by name here.
    search_fields = ["club__name"]
    list_select_related = ["club", "merged_into"]
    autocomplete_fields = ["club"]
    # Set only by the merge action (grading/admin/players.py), which moves the games and history,
    # and by the restriction and erasure of personal data (privacy/admin.py).
    readonly_fields = ["merged_into", "name_restricted"]
    fieldsets = [
        (None, {"fields": ["code", ("surname", "forenames"), "name_restricted", ("birth_date", "sex"), "club"]}),
        ("FIDE", {"fields": [("fide_id", "fide_title", "nationality")]}),
        ("Duplicates", {"fields": ["merged_into"], "classes": ["collapse"]}),
    ]

    def get_readonly_fields(self, request, obj=None):
        # An erasure is for good: a birth date is not taken again (docs/privacy.md).
        erased = obj is not None and obj.data_erased
        return [*self.readonly_fields, "birth_date"] if erased else self.readonly_fields

    def get_search_results(self, request, queryset, search_term):
        """The players the public search finds (players/search.py: "Taylor, Mohammed", "mueller",
        "o'brien", a code, a FIDE ID), merged records too, and the members of a club by its name.
        The autocomplete that picks an entry's record asks this too."""
        by_club, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        if not search.clean(search_term):
            return by_club, may_have_duplicates
        search.prepare()
        # A restricted name's search keys are its initials': officers find it by its words too.
        restricted = Q(name_restricted=True)
        for word in search_term.replace(",", " ").split():
            restricted &= Q(surname__icontains=word) | Q(forenames__icontains=word)
        found = queryset.filter(search.name_matches(search_term) | restricted)
        return by_club | found, may_have_duplicates


@admin.register(PrivacySetting)
class PrivacySettingAdmin(admin.ModelAdmin):
    """The federation's privacy setting: its one row, changed by an administrator, never added
    or deleted. A change is counted (privacy_changed) so that no page kept before it is served."""

    fields = ["age_shown", "requests_to", "changed_at"]
    readonly_fields = ["changed_at"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        privacy_changed()
