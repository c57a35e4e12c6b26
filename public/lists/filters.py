"""Narrowing a published list: the list page's filters (name, club, sex, age band, category, type)."""

import datetime
from dataclasses import dataclass
from html import escape

import django_filters
from django import forms
from django.forms.utils import flatatt
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from common.memory import process_memory
from grading.models import ListEntry, PlayerRating
from grading.selectors.rule_sets import rules_named
from grading.selectors.toplists import JUNIOR_BANDS, SENIOR_AGE, age_condition, first_day
from players import search
from players.models import Club, PrivacySetting
from players.privacy import privacy_setting

AGE_CHOICES = (
    [("junior", "Juniors (under 18)")]
    + [(f"u{age}", f"Under {age}") for age in JUNIOR_BANDS]
    + [("senior", f"Seniors ({SENIOR_AGE} and over)")]
)


@dataclass(frozen=True)
class ClubMenu:
    codes: frozenset  # every club's code, for checking a chosen club
    options: str  # the <option> elements of the club filter, "All clubs" first


CLUB_MENU = process_memory(size=1, seconds=60)


def club_menu() -> ClubMenu:
    """Every club as the list filters offer them, read at most once a minute in each process: a
    federation has a thousand-odd clubs and every list page offers them (from the shared cache,
    unpickling them took two milliseconds a page)."""
    menu = CLUB_MENU.get("clubs")
    if menu is None:
        clubs = list(Club.objects.order_by("name").values_list("code", "name"))
        options = "".join(
            f'<option value="{escape(key)}">{escape(label)}</option>'
            for key, label in [("", "All clubs"), *((code, f"{name} ({code})") for code, name in clubs)]
        )
        menu = ClubMenu(frozenset(code for code, _ in clubs), options)
        CLUB_MENU.set("clubs", menu)
    return menu


class ClubSelect(forms.Select):
    """The clubs' options, written once a minute (club_menu), not with a template (or a
    format_html) per option: a federation's 1,500 clubs took 20 ms a page that way."""

    def render(self, name, value, attrs=None, renderer=None):
        chosen = f'<option value="{escape("" if value is None else str(value))}">'
        options = club_menu().options.replace(chosen, chosen[:-1] + " selected>", 1)
        return format_html(
            '<select name="{}"{}>{}</select>', name, flatatt(self.build_attrs(self.attrs, attrs)), mark_safe(options)
        )  # noqa: S308 - every part escaped above


class ClubField(forms.CharField):
    """A club code, checked against the clubs with a set lookup: a choice field normalised and
    copied its 1,500 choices a dozen times a page (a third of a filtered page's time)."""

    widget = ClubSelect

    def validate(self, value):
        super().validate(value)
        if value and value not in club_menu().codes:
            raise forms.ValidationError("No club has the code %(code)s.", params={"code": value}, code="invalid_choice")


class ClubFilter(django_filters.CharFilter):
    field_class = ClubField


# The categories each method writes; a rating taken on from the previous system is "imported"
# on any list until the list rates its player.
ELO_ONLY = ("rated", "unrated")
ECF_CATEGORIES = [(value, label) for value, label in PlayerRating.Category.choices if value not in ELO_ONLY]
ELO_CATEGORIES = [(value, label) for value, label in PlayerRating.Category.choices if value in ELO_ONLY + ("imported",)]


def categories(rule_sets) -> list:
    """The categories a list's entries can have, ``rule_sets`` having rated it: those of their
    methods (a state one method wrote stays until the other rates its player)."""
    methods = {rules_named(rule_set).is_elo for rule_set in rule_sets}
    if methods == {True}:
        return ELO_CATEGORIES
    if methods == {False}:
        return ECF_CATEGORIES
    return list(PlayerRating.Category.choices)


def rule_sets_until(periods, month: str) -> list[str]:
    """The rule sets of a list's published ``periods`` (newest first, as list_publications reads
    them) up to ``month``, oldest first."""
    return [period.rule_set for period in reversed(periods) if period.month <= month]


class ListEntryFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="by_name", label="Name or code", max_length=search.MAX_QUERY)
    club = ClubFilter(field_name="club__code", label="Club")
    sex = django_filters.ChoiceFilter(
        field_name="player__sex", choices=[("F", "Women"), ("M", "Men")], empty_label="Everyone", label="Sex"
    )
    age = django_filters.ChoiceFilter(method="by_age", choices=AGE_CHOICES, empty_label="All ages", label="Age")
    category = django_filters.ChoiceFilter(choices=PlayerRating.Category.choices, empty_label="Any category")
    type = django_filters.ChoiceFilter(
        choices=[("full", "Full"), ("partial", "Partial")], empty_label="Full and partial", label="Rating type"
    )

    class Meta:
        model = ListEntry
        fields = ["q", "club", "sex", "age", "category", "type"]

    def __init__(self, *args, rule_sets, period=None, **kwargs):
        """The filters of entries the ``rule_sets`` rated (oldest first: the last rated them
        last), ages counted on the first day of ``period`` (today for the live list)."""
        super().__init__(*args, **kwargs)
        self.rule_sets, self.period = rule_sets, period
        self.day = first_day(period) if period else datetime.date.today()
        if rules_named(rule_sets[-1]).is_elo:
            # Every rating on an Elo list is a Full one.
            del self.form.fields["type"]
            self.filters.pop("type")
        # Only the categories the list can hold; the field puts its empty choice, "Any category", first.
        self.form.fields["category"].choices = categories(rule_sets)
        if privacy_setting().age_shown == PrivacySetting.AgeShown.NOTHING:
            # Nothing of an age is public: a filter by age band would tell each player's.
            del self.form.fields["age"]
            self.filters.pop("age")

    def get_form_class(self):
        """The filters' form, made once: django-filter makes a form class, its fields and their
        widgets anew for every page. Each page's form has its own copies of the fields."""
        made = type(self).__dict__.get("_form_class")
        if made is None:
            made = super().get_form_class()
            for field in made.base_fields.values():
                field.required = False
            made.base_fields["q"].widget = forms.TextInput(attrs={"type": "search", "autocomplete": "off"})
            type(self)._form_class = made
        return made

    def by_name(self, queryset, name, value):
        search.prepare()
        return queryset.filter(search.name_matches(value, prefix="player__"))

    def by_age(self, queryset, name, value):
        return queryset.filter(age_condition(value, self.day))

    @property
    def active(self):
        """Whether any filter is in use (an unfiltered list's size is known)."""
        return self.is_bound and any(self.data.get(name) for name in self.filters)


FIELDS_TEMPLATE = "public/includes/filter_fields.html"
# A club's own list is the commonest filtered page: its fields are the blank form's, kept a minute in
# each process for each shape of the form (the fields a list offers, its categories, the clubs),
# with that club chosen. Rendered anew, a bound form's fields cost a tenth of the page.
BLANK_FIELDS = process_memory(size=16, seconds=60)
NO_CLUB = "none-chosen"  # a club menu's value that no option has: none is selected


def fields_html(filters: ListEntryFilter, club: str | None = None) -> str:
    """The filters' fields as FIELDS_TEMPLATE writes them; ``club``: the form's only value, a valid
    club code (checked by ``filters``), written into the blank form's."""
    if club is None:
        return render_to_string(FIELDS_TEMPLATE, {"filters": filters})
    menu = club_menu()
    fields = filters.form.fields
    shape = (tuple(fields), tuple(fields["category"].choices), hash(menu.options))
    blank = BLANK_FIELDS.get(shape)
    if blank is None:
        unbound = ListEntryFilter(queryset=filters.queryset, rule_sets=filters.rule_sets, period=filters.period)
        unbound.form.initial["club"] = NO_CLUB
        blank = render_to_string(FIELDS_TEMPLATE, {"filters": unbound})
        BLANK_FIELDS.set(shape, blank)
    chosen = f'<option value="{escape(club)}">'
    return mark_safe(blank.replace(menu.options, menu.options.replace(chosen, chosen[:-1] + " selected>", 1), 1))  # noqa: S308
