"""The rating calculator page: a player, their opponents and results in; the rating the engine
gives, explained as the calculation page explains a published one (grading.calculator.trial,
grading.selectors.explanations)."""

from django.shortcuts import render
from django.utils import timezone

from grading.calculator.questions import trial_of
from grading.selectors.explanations import explained_trial

MORE_ROWS = 4  # added by "More opponents"


def calculator(request):
    data = request.GET.copy() if "list" in request.GET else None
    more = data is not None and "more" in data
    if data is not None:
        rows_given(data)
        if more:  # without JavaScript: the same form, with more rows, not yet worked out
            total = data["o-TOTAL_FORMS"]
            data["o-TOTAL_FORMS"] = str(int(total) + MORE_ROWS) if total.isdigit() else total
    trial, form, opponents = trial_of(data, timezone.localdate())
    context = {"form": form, "opponents": opponents}
    if trial is not None and not more:
        context.update(explained_trial(trial))
    return render(request, "public/calculator.html", context)


def rows_given(data):
    """An address written by hand may leave out the formset's counts: they are the rows it has."""
    if "o-TOTAL_FORMS" not in data:
        rows = [key.split("-")[1] for key in data if key.startswith("o-") and key.count("-") == 2]
        data["o-TOTAL_FORMS"] = str(max((int(row) + 1 for row in rows if row.isdigit()), default=0))
        data.setdefault("o-INITIAL_FORMS", "0")
