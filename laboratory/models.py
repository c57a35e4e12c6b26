"""The rating officers' laboratory: rule variants to try on real history (docs/laboratory.md)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from grading.engine import EngineInputError, RuleSet
from grading.engine.variants import variant
from grading.models import RULE_SET_CHOICES


class RuleVariant(models.Model):
    """A rule set with some of its parameters changed (docs/rules.md section 15): what a
    simulation re-rates history under. Stored as its base and its overrides, checked by the
    engine's own reading of a variant."""

    name = models.SlugField(max_length=60, unique=True, help_text="What simulations and the command call it.")
    base = models.CharField(max_length=40, choices=RULE_SET_CHOICES, help_text="The rule set it changes.")
    overrides = models.JSONField(
        default=dict,
        blank=True,
        help_text='The parameters it changes, as JSON: {"floors": true, "activity_window_months": 48}.',
    )
    description = models.TextField(blank=True, help_text="What it is for: the rule change it tries.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    @property
    def spec(self) -> dict:
        """The variant as the engine and the rate-file read it."""
        return {"base": self.base, **(self.overrides if isinstance(self.overrides, dict) else {})}

    @property
    def rules(self) -> RuleSet:
        return variant(self.spec)

    def clean(self):
        if not isinstance(self.overrides, dict):
            raise ValidationError({"overrides": "Give an object of parameters and values, {} for none."})
        if "base" in self.overrides:
            raise ValidationError({"overrides": "The base is the field above, not one of the overrides."})
        try:
            variant(self.spec)
        except EngineInputError as error:
            raise ValidationError({"overrides": f"{error.field.removeprefix('rules.')}: {error.message}"}) from None
