from django.core.management.base import BaseCommand, CommandError

from chess.months import Month
from grading.models import RatingList, RatingRun
from grading.run.broker import Unreachable
from grading.run.runs import RunRefused, do_start_rating, in_process, refuse_unfinished
from grading.run.workers import NoWorker, wait_for, worker_status


class Command(BaseCommand):
    help = (
        "Rate a month on every list (or one): through the Celery worker when REDIS_URL is set, "
        "in process otherwise. Earlier months whose results have changed are revised first."
    )

    def add_arguments(self, parser):
        parser.add_argument("month", help="the month to rate, YYYY-MM")
        parser.add_argument("--list", dest="list_code", help="only this list")

    def handle(self, *args, month, list_code, **options):
        try:
            month = Month.parse(month)
            refuse_unfinished(month)
        except (ValueError, RunRefused) as error:
            raise CommandError(str(error), returncode=2) from None
        lists = RatingList.objects.all()
        if list_code:
            lists = lists.filter(code=list_code)
            if not lists:
                codes = ", ".join(RatingList.objects.values_list("code", flat=True))
                raise CommandError(f"--list: no rating list {list_code!r} (lists: {codes})", returncode=2)
        if not in_process():
            try:
                worker_status()
            except Unreachable as error:
                raise CommandError(
                    f"{error}; nothing was queued: run this again once it is back", returncode=1
                ) from None
            except NoWorker as reason:
                raise CommandError(
                    f"no rating worker answered ({reason}), so nothing was queued: start one with "
                    "'celery -A config worker' and run this again",
                    returncode=1,
                ) from None
        failed = False
        for rating_list in lists:
            try:
                run = do_start_rating(rating_list, month, trigger="command")
            except RunRefused as refused:
                self.stderr.write(f"{rating_list.code}: {refused}")
                failed = True
                continue
            try:
                run = wait_for(run, None if in_process() else lambda stage: self.stdout.write(f"  {stage}"))
            except NoWorker as reason:
                self.stderr.write(f"{rating_list.code}: {reason} The run stays queued: a worker that starts takes it.")
                failed = True
                continue
            self.stdout.write(f"{rating_list.code}: {run.get_outcome_display()}. {run.message}")
            failed |= run.outcome in (RatingRun.Outcome.FAILED, RatingRun.Outcome.REFUSED)
        if failed:
            raise CommandError("not every list was rated", returncode=1)
