"""What grading does when the apps below it announce a change (connected in apps.py)."""

from django.db import transaction
from django.dispatch import receiver

from chess.months import Month
from events.models import Event
from events.signals import rated_games_changed, results_stored
from grading.integrity.scanning import request_scan
from grading.live.requests import request_live
from grading.models import RatingPeriod
from grading.run.runs import revise_after_change


@receiver(rated_games_changed, dispatch_uid="grading.revise_months_of_changed_games")
def revise_months_of_changed_games(sender, event, user, **kwargs):
    if event.status == Event.Status.RATED:
        # Still rated, its games changed under it (players registered since): its months do
        # not look changed to the next run, so they are marked.
        months = {str(Month.of(day)) for day in event.games.rated().dates("date", "month")}
        RatingPeriod.objects.published().filter(rating_list=event.rating_list, month__in=months).update(
            revision_due=True
        )
    transaction.on_commit(lambda: revise_after_change(event, user))
    request_live(event.rating_list)


@receiver(results_stored, dispatch_uid="grading.scan_stored_results")
def scan_stored_results(sender, event, user, **kwargs):
    request_scan(event)
