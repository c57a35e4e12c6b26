"""What every admin of ours shares."""

from django.contrib import admin


def username(user) -> str:
    """A user as plain text: a link would lead rating officers, who do not manage accounts, to a 403."""
    return user.get_username() if user else "-"


class DeleteOneByOne(admin.ModelAdmin):
    """No "delete selected" action: the bulk action checks has_delete_permission(request) only,
    not each object, so the rules that keep published data would not apply to it."""

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


class Kept(DeleteOneByOne):
    """A record of what happened (an upload, a step of the workflow): never changed or deleted."""

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class KeptInline(admin.TabularInline):
    """Rows of a record's history shown under it as they are: none added, changed or deleted
    here. A subclass names its ``fields``; they are all read only."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False
