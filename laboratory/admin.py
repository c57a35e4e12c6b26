from django.contrib import admin
from django.utils.html import format_html_join

from grading.engine.variants import PARAMETERS

from .models import RuleVariant


@admin.register(RuleVariant)
class RuleVariantAdmin(admin.ModelAdmin):
    list_display = ["name", "base", "changes", "created_at", "created_by"]
    search_fields = ["name", "description"]
    readonly_fields = ["created_by", "created_at", "parameters"]
    fields = ["name", "base", "overrides", "description", "parameters", "created_by", "created_at"]

    @admin.display(description="what it changes")
    def changes(self, obj):
        overrides = obj.overrides if isinstance(obj.overrides, dict) else {}
        return ", ".join(f"{name} {value}" for name, value in overrides.items()) or "nothing"

    @admin.display(description="the parameters a variant may change")
    def parameters(self, obj):
        return format_html_join(
            "", "<p><code>{}</code>: {} ({})</p>", ((name, p.help, p.kind) for name, p in PARAMETERS.items())
        )

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
