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
from grading.live.requests import request_live
from grading.models import RatingList, RatingPeriod, RuleSetChange
from grading.run.periods import latest_published
from grading.run.publishing import lock_list


class ChangeRefused(Exception):
    """A change of rule set that cannot be made; the message says why."""


def do_change_rule_set(rating_list: RatingList, month: Month, rule_set: str, *, acting_user) -> RuleSetChange:
    """Rate ``rating_list`` by ``rule_set`` from ``month`` on (until a later change)."""
    with transaction.atomic():
        lock_list(rating_list)
        check_change(rating_list, month, rule_set)
        change, _ = RuleSetChange.objects.update_or_create(
            rating_list=rating_list,
            month=str(month),
            defaults={"rule_set": rule_set, "made_by": acting_user, "made_at": timezone.now()},
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


def check_change(rating_list: RatingList, month: Month, rule_set: str) -> None:
    """Refuse a change that cannot be made, saying why (the admin's form asks this first)."""
    if rule_set not in RULE_SETS:
        raise ChangeRefused(f"no rule set is called {rule_set!r}: choose one of {', '.join(RULE_SETS)}")
    refuse_published(rating_list, month)
    if rating_list.rule_set_for(str(month)) == rule_set:
        raise ChangeRefused(f"{rating_list.code} is rated by {rule_set} in {month} already")


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
