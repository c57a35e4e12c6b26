"""How ratings work, for club players: one page of explanations (each term an anchor the list,
player and calculation pages link to) and the two lookup tables as pages of their own. Every
number is read from the rule sets and tables the engine rates with, never written twice. And
the privacy page: what the site publishes of a player, why, and how to ask about it."""

from django.shortcuts import render

from grading.selectors.rule_sets import d_offset_rows, help_rules, lists_and_rules, performance_rows
from players.ages import AGE_BANDS, JUNIOR_BELOW
from players.privacy import privacy_setting
from public.kept import kept_page


def help_page(request):
    in_force = lists_and_rules()
    # The page changes only with the lists and the rule sets in force: a visitor's copy is kept.
    state = repr(
        [(item.pk, item.code, item.name, item.band, item.standard_play, rules.name) for item, rules in in_force]
    )
    return kept_page(request, "help", state, lambda: (render_help(request, in_force), True), 3600)


def render_help(request, in_force):
    return render(request, "public/help/index.html", {"lists": in_force, **help_rules(in_force)})


def d_offset_table(request):
    return render(request, "public/help/d_offset.html", {"rows": d_offset_rows()})


def performance_table(request):
    return render(request, "public/help/performance.html", {"rows": performance_rows()})


def privacy_page(request):
    """What is published of a player and why, how long it is kept, and how to ask for a copy, a
    correction, a restriction or an erasure: as the federation's privacy setting has it."""
    setting = privacy_setting()
    context = {"setting": setting, "bands": AGE_BANDS, "junior_below": JUNIOR_BELOW}
    return render(request, "public/privacy.html", context)
