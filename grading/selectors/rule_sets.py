"""The rule sets as the pages and the API read them: a period's by its name, the one in force on
each list this month, and what the help pages print of them and of the lookup tables. The
engine holds every number (grading.engine.rule_sets, grading.engine.rules.tables); the pages read them
here, never written twice."""

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from chess.months import Month
from common.lookups import columns_of, prepared_cursor, records
from grading.engine import RULE_SETS, RuleSet
from grading.engine.rule_sets import ECF_2024, FIDE_2017, STANDARD_LIST
from grading.engine.rules.tables import D_OFFSET_CAP, D_OFFSET_ROWS, DP_BY_PERCENT, PD_PAST_400_ROWS
from grading.models import RatingList, RuleSetChange
from grading.selectors.conditions import not_rated_help


def rules_named(name: str) -> RuleSet:
    """The rule set a period or a live month was rated by, from the name it keeps."""
    return RULE_SETS[name]


def lists_and_rules() -> list[tuple[RatingList, RuleSet]]:
    """[(rating list, its rule set this month)] in the site's order, in one query."""
    month = str(Month.of(timezone.localdate()))
    changes = RuleSetChange.objects.filter(rating_list=OuterRef("pk"), month__lte=month).order_by("-month")
    in_force = RatingList.objects.annotate(changed_to=Subquery(changes.values("rule_set")[:1]))
    return [(rating_list, RULE_SETS[rating_list.changed_to or rating_list.rule_set]) for rating_list in in_force]


def lists_with_changes() -> list[RatingList]:
    """Every rating list in the site's order, each with its rule-set changes read with it
    (``changes_read``, which rule_set_for and adjusted_in read): one prepared query, as every
    calculator page asks (common.lookups)."""
    width = len(RatingList._meta.concrete_fields)
    columns = ", ".join(columns_of(RatingList, "l") + columns_of(RuleSetChange, "c"))
    with prepared_cursor(RatingList) as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {RatingList._meta.db_table} l LEFT JOIN {RuleSetChange._meta.db_table} c "
            "ON c.rating_list_id = l.id ORDER BY l.display_order, l.code, c.month",
            [],
        )
        rows, using = cursor.fetchall(), cursor.db.alias
    lists = {}
    for row in rows:
        rating_list = lists.get(row[0])
        if rating_list is None:
            rating_list = lists[row[0]] = records(RatingList, [row[:width]], using)[0]
            rating_list.changes_read = []
        if row[width] is not None:
            rating_list.changes_read += records(RuleSetChange, [row[width:]], using)
    return list(lists.values())


def tenths_text(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}"


def help_rules(in_force) -> dict:
    """What the help page explains with, from the lists' rule sets in force (lists_and_rules):
    the ECF and Elo rule sets (the defaults where no list is rated by one), floors, dummies.
    ``elo`` is the Elo rule set of FIDE's earlier rules the page explains the method with (None
    where every Elo list is rated by FIDE's 2024 rules), ``fide_2024`` those rules' sets, each
    with its lists."""
    ecf = next((rules for _, rules in in_force if not rules.is_elo), ECF_2024)
    elo_sets = list({rules.name: rules for _, rules in in_force if rules.is_elo}.values()) or [FIDE_2017]
    fide_2024 = fide_2024_rules(in_force)
    return {
        "ecf": ecf,
        "elo": next((rules for rules in elo_sets if not rules.elo_unrated_below_floor), None),
        "elo_sets": elo_sets,
        "fide_2024": fide_2024,
        # fide-2025's exemption from the 400-point rule, and FIDE's table past 400 it reads.
        "uncapped": next((item["rules"] for item in fide_2024 if item["rules"].elo_uncapped_from), None),
        "pd_past_400": pd_past_400_rows(),
        "not_rated": not_rated_help(elo_sets),
        "standard_list": next((item for item, _ in in_force if item.code == STANDARD_LIST), None),
        "titles": sorted(ecf.title_dummies.items(), key=lambda item: -item[1]),
        "junior_example": (12, 12 * ecf.junior_dummy_per_year),
        "d_cap": D_OFFSET_CAP,
        "d_cap_offset": tenths_text(D_OFFSET_ROWS[-1][1]),
        "floored_lists": [(item, rules) for item, rules in in_force if rules.floors],
        "floors": next((rules for _, rules in in_force if rules.floors), RULE_SETS["ecf-2024+floors"]),
    }


def fide_2024_rules(in_force) -> list[dict]:
    """The rule sets of FIDE's rules from 2024 (docs/rules.md part 5) that rate a list this month,
    each with the lists it rates, in the site's order."""
    by_name: dict[str, dict] = {}
    for rating_list, rules in in_force:
        if rules.elo_unrated_below_floor:
            by_name.setdefault(rules.name, {"rules": rules, "lists": []})["lists"].append(rating_list)
    return list(by_name.values())


def pd_past_400_rows() -> list[dict]:
    """FIDE's table 8.1.2 past 400 (section 17.2), a row per band of |diff| after the one the
    400-point rule ends in: its lowest, its highest (None: no limit), and PD to two decimals."""
    rows = []
    for (low, tenths), following in zip(PD_PAST_400_ROWS[1:], [*PD_PAST_400_ROWS[2:], None]):
        pd = 100 + tenths  # PD in 200ths: 0.50 + tenths / 200
        rows.append({"low": low, "high": following[0] - 1 if following else None, "pd": f"{pd / 200:.2f}"})
    return rows


def d_offset_rows() -> list[dict]:
    """The D offset table, a row per band of |D|: its lowest, its highest (None: no limit), its
    offset, and its anchor (what a K rating's game links to, grading.selectors.explanations.game_rows)."""
    rows = []
    for (low, tenths), following in zip(D_OFFSET_ROWS, [*D_OFFSET_ROWS[1:], None]):
        high = following[0] - 1 if following else None
        rows.append({"low": low, "high": high, "offset": tenths_text(tenths), "anchor": f"d-{low}"})
    return rows


def performance_rows() -> list[dict]:
    """The table of dp by percentage, from 1.00 down."""
    return [{"p": f"{percent / 100:.2f}", "dp": DP_BY_PERCENT[percent]} for percent in range(100, -1, -1)]
