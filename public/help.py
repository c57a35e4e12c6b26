"""How ratings work, for club players: one page of explanations (each term an anchor the list,
player and calculation pages link to) and the two lookup tables as pages of their own. Every
number is read from the rule sets and tables the engine rates with, never written twice."""

from django.db.models import OuterRef, Subquery
from django.shortcuts import render
from django.utils import timezone

from chess.months import Month
from grading.engine import RULE_SETS
from grading.engine.rulesets import ECF_2024, FIDE_2017, STANDARD_LIST
from grading.engine.tables import D_OFFSET_CAP, D_OFFSET_ROWS, DP_BY_PERCENT
from grading.models import RatingList, RuleSetChange
from public.kept import kept_page


def lists_and_rules():
    """[(rating list, its rule set this month)] in the site's order, in one query."""
    month = str(Month.of(timezone.localdate()))
    changes = RuleSetChange.objects.filter(rating_list=OuterRef("pk"), month__lte=month).order_by("-month")
    in_force = RatingList.objects.annotate(changed_to=Subquery(changes.values("rule_set")[:1]))
    return [(rating_list, RULE_SETS[rating_list.changed_to or rating_list.rule_set]) for rating_list in in_force]


def tenths_text(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}"


def help_page(request):
    in_force = lists_and_rules()
    # The page changes only with the lists and the rule sets in force: a visitor's copy is kept.
    state = repr(
        [(item.pk, item.code, item.name, item.band, item.standard_play, rules.name) for item, rules in in_force]
    )
    return kept_page(request, "help", state, lambda: (render_help(request, in_force), True), 3600)


def render_help(request, in_force):
    ecf = next((rules for _, rules in in_force if not rules.is_elo), ECF_2024)
    elo_sets = list({rules.name: rules for _, rules in in_force if rules.is_elo}.values()) or [FIDE_2017]
    elo = elo_sets[0]
    context = {
        "lists": in_force,
        "ecf": ecf,
        "elo": elo,
        "elo_sets": elo_sets,
        "standard_list": next((item for item, _ in in_force if item.code == STANDARD_LIST), None),
        "titles": sorted(ecf.title_dummies.items(), key=lambda item: -item[1]),
        "junior_example": (12, 12 * ecf.junior_dummy_per_year),
        "d_cap": D_OFFSET_CAP,
        "d_cap_offset": tenths_text(D_OFFSET_ROWS[-1][1]),
        "floored_lists": [(item, rules) for item, rules in in_force if rules.floors],
        "floors": next((rules for _, rules in in_force if rules.floors), RULE_SETS["ecf-2024+floors"]),
    }
    return render(request, "public/help/index.html", context)


def d_offset_table(request):
    rows = []
    for (low, tenths), following in zip(D_OFFSET_ROWS, [*D_OFFSET_ROWS[1:], None]):
        high = following[0] - 1 if following else None
        rows.append({"low": low, "high": high, "offset": tenths_text(tenths), "anchor": f"d-{low}"})
    return render(request, "public/help/d_offset.html", {"rows": rows})


def performance_table(request):
    rows = [{"p": f"{percent / 100:.2f}", "dp": DP_BY_PERCENT[percent]} for percent in range(100, -1, -1)]
    return render(request, "public/help/performance.html", {"rows": rows})
