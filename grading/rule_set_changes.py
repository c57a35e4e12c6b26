"""Which rules rate a list's month: the list's own rule set, changed from a given month on.

A change can start from any month after the list's latest publication, never earlier: a
published month keeps the rules it was rated by, its revisions included. The open periods of
the list (made by an approval or a run, not yet published) follow every change at once, and
its live ratings are computed again by the rules now in force (those of the lists that read it
follow when its ratings change).
"""

from django.db import transaction
from django.utils import timezone

from chess.months import Month
from grading.engine import RULE_SETS
from grading.engine.rules.adjustment import REASON, adjustment_offer
from grading.live.requests import request_live
from grading.models import RatingList, RatingPeriod, RuleSetChange
from grading.run.periods import latest_published
from grading.run.publishing import lock_list


class ChangeRefused(Exception):
    """A change of rule set that cannot be made; the message says why."""


def do_change_rule_set(
    rating_list: RatingList, month: Month, rule_set: str, *, acting_user, fide_adjustment: bool | None = None
) -> RuleSetChange:
    """Rate ``rating_list`` by ``rule_set`` from ``month`` on (until a later change), with FIDE's
    adjustment of March 2024 at its start if ``fide_adjustment`` (None: as offered, see
    adjustment_default)."""
    with transaction.atomic():
        lock_list(rating_list)
        if fide_adjustment is None:
            fide_adjustment = adjustment_default(rating_list, month, rule_set)
        check_change(rating_list, month, rule_set, fide_adjustment)
        change, _ = RuleSetChange.objects.update_or_create(
            rating_list=rating_list,
            month=str(month),
            defaults={
                "rule_set": rule_set,
                "fide_adjustment": fide_adjustment,
                "made_by": acting_user,
                "made_at": timezone.now(),
            },
        )
        follow_changes(rating_list)
    return change


def do_cancel_rule_set_change(change: RuleSetChange, *, acting_user) -> None:
    """Undo a change not yet in force for a published month: its months go back to the rule set
    before it. The change's row, which named who made it, goes: nothing keeps ``acting_user``
    here (in the admin, its log does)."""
    with transaction.atomic():
        lock_list(change.rating_list)
        refuse_published(change.rating_list, Month.parse(change.month))
        change.delete()
        follow_changes(change.rating_list)


def check_change(rating_list: RatingList, month: Month, rule_set: str, fide_adjustment: bool = False) -> None:
    """Refuse a change that cannot be made, saying why (the admin's form asks this first)."""
    if rule_set not in RULE_SETS:
        raise ChangeRefused(f"no rule set is called {rule_set!r}: choose one of {', '.join(RULE_SETS)}")
    refuse_published(rating_list, month)
    if rating_list.rule_set_for(str(month)) == rule_set and not changes_adjustment(rating_list, month, fide_adjustment):
        raise ChangeRefused(f"{rating_list.code} is rated by {rule_set} in {month} already")
    before = rule_set_before(rating_list, month)
    if fide_adjustment and adjustment_offer(before, rule_set) is None:
        raise ChangeRefused(
            f"{REASON} comes only with a change from FIDE's 2017 rules (or the ECF method) to its 2024 ones: "
            f"{rating_list.code} is rated by {before} before {month}"
        )
    # A later change that carries the adjustment must still come from rules that allow it.
    following = rating_list.rule_set_changes.filter(month__gt=str(month)).order_by("month").first()
    if following and following.fide_adjustment and adjustment_offer(rule_set, following.rule_set) is None:
        raise ChangeRefused(
            f"the change to {following.rule_set} from {following.month} carries {REASON}, which comes only "
            f"from FIDE's 2017 rules or the ECF method, not {rule_set}"
        )


def changes_adjustment(rating_list: RatingList, month: Month, fide_adjustment: bool) -> bool:
    """Whether the list's change at ``month`` (if any) is made again to carry FIDE's adjustment
    or not to: the same rule set, the other choice."""
    change = rating_list.rule_set_changes.filter(month=str(month)).first()
    return change is not None and change.fide_adjustment != fide_adjustment


def rule_set_before(rating_list: RatingList, month: Month) -> str:
    """The rule set of the month before ``month``: what a change at ``month`` changes from."""
    return rating_list.rule_set_for(str(month - 1))


def adjustment_default(rating_list: RatingList, month: Month, rule_set: str) -> bool:
    """Whether a change to ``rule_set`` at ``month`` carries FIDE's adjustment unless the officer
    says otherwise: yes for FIDE's own change from its 2017 rules to its 2024 ones, no otherwise
    (from the ECF method it is made only if asked)."""
    return rule_set in RULE_SETS and adjustment_offer(rule_set_before(rating_list, month), rule_set) == "offered"


def in_force_when_published(change: RuleSetChange) -> bool:
    latest = latest_published(change.rating_list)
    return bool(latest) and Month.parse(change.month) <= latest


def refuse_published(rating_list: RatingList, month: Month) -> None:
    latest = latest_published(rating_list)
    if latest and month <= latest:
        raise ChangeRefused(
            f"{rating_list.code} is published up to {latest}, and a published month keeps the rules it "
            f"was rated by: a change can start from {latest + 1} at the earliest"
        )


def follow_changes(rating_list: RatingList) -> None:
    """Give each open period of the list the rule set now in force for its month, and ask for its
    live ratings (every month a change reaches is unpublished, so may be live)."""
    request_live(rating_list)
    for period in RatingPeriod.objects.filter(rating_list=rating_list, revision__isnull=True):
        rule_set = rating_list.rule_set_for(period.month)
        if period.rule_set != rule_set:
            period.rule_set = rule_set
            period.save(update_fields=["rule_set"])
