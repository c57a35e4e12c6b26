"""The site's form renderer writes inputs and menus by string joining: the markup must be
Django's own, byte for byte, for every kind of value and attribute a form gives them."""

import datetime

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe

from common.forms import WidgetRenderer
from grading.calculator.questions import CalculatorForm, OpponentFormSet
from public.lists.filters import ListEntryFilter

DJANGO, OURS = DjangoTemplates(), WidgetRenderer()

WIDGETS = [
    (forms.TextInput(), "Dunn"),
    (forms.TextInput(attrs={"placeholder": 'say "hi" & <go>', "autofocus": True, "disabled": False}), None),
    (forms.TextInput(), '<script>alert("x")</script>'),
    (forms.TextInput(), mark_safe("<b>kept</b>")),  # noqa: S308 - a value marked safe is written as it is
    (forms.NumberInput(attrs={"min": 0, "max": 3500}), 1850),
    (forms.NumberInput(), 0),
    (forms.HiddenInput(), ""),
    (forms.EmailInput(), "a@b.org"),
    (forms.PasswordInput(render_value=True), "secret"),
    (forms.CheckboxInput(), True),
    (forms.CheckboxInput(), False),
    (forms.DateInput(), datetime.date(2026, 10, 31)),
    (forms.Select(choices=[("", "–"), ("1", "won"), ("0.5", "drew"), ("0", "lost")]), "0.5"),
    (forms.Select(choices=[("a&b", "A & B <1>"), ("c", "C")]), "a&b"),
    (forms.Select(choices=[("Europe", [("gb", "Britain"), ("fr", "France")]), ("", "Elsewhere")]), "fr"),
    (forms.Select(choices=[]), None),
    (forms.SelectMultiple(choices=[("1", "one"), ("2", "two"), ("3", "three")]), ["1", "3"]),
    (forms.NullBooleanSelect(), None),
]


@pytest.mark.parametrize(("widget", "value"), WIDGETS)
def test_a_widget_is_written_exactly_as_djangos_templates_write_it(widget, value):
    attrs = {"id": "id_field", "required": True, "aria-describedby": "id_field_helptext"}

    ours = widget.render("field", value, attrs=attrs, renderer=OURS)

    assert ours == widget.render("field", value, attrs=attrs, renderer=DJANGO)


def test_a_radio_menu_and_a_forms_layout_are_left_to_djangos_templates():
    widget = forms.RadioSelect(choices=[("full", "Full"), ("partial", "Partial")])

    assert widget.render("type", "full", renderer=OURS) == widget.render("type", "full", renderer=DJANGO)
    assert "<label" in widget.render("type", "full", renderer=OURS)


@pytest.mark.django_db
def test_the_sites_forms_are_written_as_django_writes_them():
    data = {"list": "nowhere", "player": "<b>", "rating": "abc", "o-TOTAL_FORMS": "2", "o-INITIAL_FORMS": "0"}
    data |= {"o-0-opponent": "1850", "o-0-result": "1", "o-1-opponent": "x&y", "o-1-result": "9"}
    for bound in (data, None):
        form = CalculatorForm(bound, today=datetime.date(2026, 11, 24), players={})
        opponents = OpponentFormSet(bound, prefix="o", initial=None if bound else [{}] * 3, form_kwargs={"players": {}})
        filters = ListEntryFilter(
            {"q": "o'Brien", "sex": "F", "age": "u12"},
            rule_sets=["ecf-2024"],
        ).form
        for each in (form, filters, *opponents, opponents.management_form):
            for name in each.fields:
                written = {}
                for renderer in (OURS, DJANGO):
                    each.renderer = renderer
                    written[renderer] = str(each[name])
                assert written[OURS] == written[DJANGO], name
