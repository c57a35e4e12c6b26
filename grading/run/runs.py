"""Rating runs: what views, admin actions, commands and tasks (grading/tasks.py) all call.

A run rates one list from a month on. It holds a row lock on the list for its whole
transaction: a second run of the same list is refused while it lasts, and a worker killed part
way releases the lock as its connection dies, its transaction rolled back whole. Every period
from the earliest one that has changed (late results, a withdrawn event) up to the month asked
for is rated again in that one transaction, so the chain of states stays consistent.
"""

import logging

from celery import current_app
from django.db import transaction
from django.utils import timezone

from chess.months import Month
from grading.engine.rule_sets import lists_read_by
from grading.live.requests import request_live_of_readers
from grading.models import RatingList, RatingPeriod, RatingRun
from grading.run.broker import Unreachable, send
from grading.run.periods import changed_months, latest_published, latest_take_on, periods_to_rate, stale_months
from grading.run.publishing import RunRefused, lock_list
from grading.run.rating import rate_one_period
from grading.signals import run_published

logger = logging.getLogger(__name__)


def in_process() -> bool:
    """Whether tasks run in this process (no broker configured) rather than on a worker."""
    return bool(current_app.conf.task_always_eager)


def refuse_unfinished(month: Month, today=None):
    if month >= Month.of(today or timezone.localdate()):
        raise RunRefused(f"{month} has not ended yet: a month is rated once it is over")


def do_start_rating(rating_list, month: Month, trigger: str, *, acting_user=None, today=None) -> RatingRun:
    """Queue a run rating ``rating_list`` up to ``month`` (through a worker, or in process), started
    by ``acting_user`` (None: by the schedule, a command, or a revision the system starts)."""
    refuse_unfinished(month, today)
    with transaction.atomic():
        lock_list(rating_list)
        waiting = list(RatingRun.objects.filter(period__rating_list=rating_list, outcome=RatingRun.Outcome.QUEUED))
        if not waiting:
            return queue_run(rating_list, month, trigger, acting_user)
    # Its message may be lost (Redis restarted empty): sent again, a run is carried out once.
    for queued in waiting:
        enqueue(queued)
    raise RunRefused(
        f"a rating run of {rating_list.code} is already queued (sent to the workers again, in case its "
        "message was lost)"
    )


def queue_run(rating_list, month: Month, trigger: str, user) -> RatingRun:
    # Holding the lock proves no run is working: a "running" one was cut off (a killed worker).
    RatingRun.objects.filter(period__rating_list=rating_list, outcome=RatingRun.Outcome.RUNNING).update(
        outcome=RatingRun.Outcome.FAILED,
        finished_at=timezone.now(),
        message="interrupted: the worker stopped before the run finished; nothing of it was kept",
    )
    taken_on = latest_take_on(rating_list)
    if taken_on and str(month) <= taken_on:
        raise RunRefused(
            f"{rating_list.code} was taken on from the previous system for {taken_on}: "
            f"months up to then keep the ratings taken on; rate the months after it"
        )
    period, _ = RatingPeriod.objects.get_or_create(rating_list=rating_list, month=str(month))
    run = RatingRun.objects.create(
        period=period,
        started_by=user,
        trigger=trigger_text(trigger),
        started_at=timezone.now(),
        outcome=RatingRun.Outcome.QUEUED,
        progress="queued",
    )
    transaction.on_commit(lambda: enqueue(run))
    return run


def trigger_text(text: str) -> str:
    """A run's trigger as its field holds it: names of events and lists are the users' own, and
    a long one must not stop the run it starts."""
    most = RatingRun._meta.get_field("trigger").max_length
    return text if len(text) <= most else text[: most - 3] + "..."


UNSENT = "queued; the broker could not be reached: it is sent again when it can be"


def enqueue(run):
    try:
        result = send("grading.tasks.rate_list", (run.pk,))
    except Unreachable as error:
        # The run stays queued: a worker that starts, the periodic recovery and the next start of
        # a run of its list send it again.
        logger.warning("rating run %s: %s; it stays queued", run.pk, error)
        RatingRun.objects.filter(pk=run.pk).update(progress=UNSENT)
        return
    except Exception:
        if not in_process():
            raise
        # In process the run has already recorded its failure and why; whoever started it reads
        # that from the run, as from a worker's.
        logger.exception("rating run %s failed", run.pk)
        return
    RatingRun.objects.filter(pk=run.pk, task_id="").update(task_id=result.id or "")
    RatingRun.objects.filter(pk=run.pk, progress=UNSENT).update(progress="queued")  # sent now


def run_rating(run_pk: int, progress=None) -> RatingRun:
    """Carry out a queued run: rate every period that needs it, up to the run's month."""
    run = RatingRun.objects.select_related("period__rating_list").get(pk=run_pk)
    # One delivery alone claims a queued run, and only it works on the run and writes its record.
    # Another (the run sent twice) leaves it be: if the one at work on it dies, the recovery of
    # interrupted runs (a worker that starts, and beat's) queues it again.
    claimed = RatingRun.objects.filter(pk=run.pk, outcome=RatingRun.Outcome.QUEUED).update(
        outcome=RatingRun.Outcome.RUNNING, progress="started"
    )
    run.refresh_from_db()
    if run.outcome != RatingRun.Outcome.RUNNING:
        # A duplicate delivery of a run already finished, or the delivery again of one whose
        # worker was killed after its commit: the follow-ups it owes are done once.
        return carry_out_follow_ups(run)
    if not claimed:
        return run
    rating_list, month = run.period.rating_list, Month.parse(run.period.month)

    # Progress goes to the caller (the task reports it to the result backend): anything written
    # to the database inside the run's transaction would only be seen once it is over. It is
    # news, not the run: a report that cannot be sent (Redis down) is logged and the run goes on.
    def report(stage):
        logger.info("rating run %s (%s): %s", run.pk, rating_list.code, stage)
        if progress:
            try:
                progress(stage)
            except Exception:
                logger.warning("rating run %s: progress %r not reported", run.pk, stage, exc_info=True)

    try:
        with transaction.atomic():
            lock_list(rating_list)
            outcomes = []
            for period in periods_to_rate(rating_list, month):
                period_run = (
                    run
                    if period.pk == run.period_id
                    else RatingRun.objects.create(
                        period=period,
                        started_by=run.started_by,
                        trigger=REVISED_BY.format(run.pk),
                        started_at=timezone.now(),
                        outcome=RatingRun.Outcome.SUCCEEDED,
                    )
                )
                outcome = rate_one_period(period, period_run, report)
                outcomes.append(outcome)
                if period_run is not run:
                    if outcome.revision is None:
                        period_run.delete()  # nothing published: the run's own message says so
                    else:
                        finish(period_run, outcome)
            own = next(outcome for outcome in outcomes if outcome.period.pk == run.period_id)
            # In the transaction: the outcome recorded is what was committed, whatever happens after.
            run = finish(run, own, revisions=[o for o in outcomes if o.period.pk != run.period_id])
            RatingRun.objects.filter(pk=run.pk).update(follow_ups_done=False)
    except RunRefused as refused:  # another run of the list is at work
        return close(run, RatingRun.Outcome.REFUSED, str(refused))
    except Exception as error:
        run.refresh_from_db()
        if run.outcome in (RatingRun.Outcome.QUEUED, RatingRun.Outcome.RUNNING):
            close(run, RatingRun.Outcome.FAILED, f"{type(error).__name__}: {error}")
            raise
        # Failed after the commit (a callback of it): the publication stands, and so does its record.
        logger.exception("rating run %s: after its commit", run.pk)
    report("committed")
    return carry_out_follow_ups(run)


def carry_out_follow_ups(run):
    """What a finished run starts after its commit: the next run if results changed while it
    worked, and the revisions of the lists that read what it republished. Marked done once
    started, so that a run delivered again after a kill does them, and only once."""
    run.refresh_from_db()
    if run.follow_ups_done:
        return run
    rating_list = run.period.rating_list
    follow_up(rating_list, run)
    months = republished_months(run)
    revise_readers(rating_list, months, run)
    if months:
        run_published.send(sender=RatingRun, run=run, months=months)
    # What is live starts from the latest published list: this one's, and those that read it.
    request_live_of_readers(rating_list)
    RatingRun.objects.filter(pk=run.pk).update(follow_ups_done=True)
    run.follow_ups_done = True
    return run


REVISED_BY = "revision from run {}"  # the trigger of a month a run revised on its way


def revision_runs(run):
    """The records of the months ``run`` revised on its way (each its own RatingRun)."""
    return RatingRun.objects.filter(trigger=REVISED_BY.format(run.pk))


def republished_months(run) -> list[str]:
    """The months a run published: its own (if it published) and those it revised on the way."""
    revised = revision_runs(run).filter(revision__isnull=False)
    months = list(revised.values_list("period__month", flat=True))
    return months + [run.period.month] if run.revision is not None else months


def finish(run, outcome, revisions=()):
    message = describe(outcome)
    for revised in revisions:
        message += f"; {describe(revised)}"
    run.games, run.players_rated = outcome.games, outcome.players
    run.save(update_fields=["games", "players_rated"])
    unchanged = outcome.revision is None and all(revised.revision is None for revised in revisions)
    return close(run, RatingRun.Outcome.UNCHANGED if unchanged else RatingRun.Outcome.SUCCEEDED, message)


def rate_through_latest(rating_list, trigger: str, user=None) -> RatingRun | None:
    """Start a run up to the list's latest published month, which revises whatever it finds
    changed before. None where nothing is published, or where a run of the list is queued or at
    work: that one finds the changes itself when it starts or ends."""
    latest = latest_published(rating_list)
    if latest is None:
        return None
    try:
        # A published month is over: its end is "today" enough.
        return do_start_rating(rating_list, latest, trigger, acting_user=user, today=(latest + 1).first_day())
    except RunRefused as refused:
        logger.info("%s: no run for %r: %s", rating_list.code, trigger, refused)
        return None


def follow_up(rating_list, run):
    """Start the next run at once if results changed while this one worked (an event approved
    for a month already published, or sent back): nothing waits for next month's run."""
    latest = latest_published(rating_list)
    if latest and changed_months(rating_list, latest + 1):
        rate_through_latest(rating_list, f"results changed during run {run.pk}", run.started_by)


def revise_readers(rating_list, published_months, run):
    """The lists that read this one's states, rated again where their months read what this run
    has just republished (a month rated by the Elo method reads no other list); they publish a
    revision only where their own results change."""
    if not published_months:
        return
    for reader in RatingList.objects.exclude(pk=rating_list.pk):
        if rating_list.code in lists_read_by(reader.code) and stale_months(reader):
            rate_through_latest(reader, f"{rating_list.code} republished (run {run.pk})", run.started_by)


def recover_interrupted_runs(started_before=None):
    """When a worker starts: every run left queued (its message may be lost with a broker that
    restarted) or running with no one at work on it (its worker was killed) is queued again.

    A run is only at work while it holds its list's lock, so a running run whose lock is free
    was cut off; its transaction was rolled back whole. A run queued twice is carried out once:
    the second delivery finds it finished. A run that finished but whose worker died before its
    follow-ups has them done now. Periodically (beat), only runs started before
    ``started_before`` are taken up, so that runs waiting their turn in the queue are left be."""
    requeued = []
    for run in (
        RatingRun.objects.exclude(outcome__in=[RatingRun.Outcome.QUEUED, RatingRun.Outcome.RUNNING])
        .filter(follow_ups_done=False)
        .select_related("period__rating_list")
    ):
        carry_out_follow_ups(run)  # its worker was killed between the commit and the follow-ups
    unfinished = RatingRun.objects.filter(outcome__in=[RatingRun.Outcome.QUEUED, RatingRun.Outcome.RUNNING])
    if started_before:
        unfinished = unfinished.filter(started_at__lt=started_before)
    for run in unfinished.select_related("period__rating_list").order_by("pk"):
        with transaction.atomic():
            try:
                lock_list(run.period.rating_list)
            except RunRefused:
                continue  # a run of this list is at work now
            RatingRun.objects.filter(pk=run.pk).update(
                outcome=RatingRun.Outcome.QUEUED, progress="queued again when a worker started"
            )
            transaction.on_commit(lambda run=run: enqueue(run))
        requeued.append(run.pk)
    return requeued


def describe(outcome):
    notes = "".join(f" ({note})" for note in outcome.notes)
    if outcome.revision is None:
        return f"{outcome.period}: unchanged, nothing published{notes}"
    kind = "original list" if outcome.revision == 0 else f"revision {outcome.revision}"
    return f"{outcome.period}: {outcome.players} players rated on {outcome.games} games, {kind} published{notes}"


def close(run, outcome, message):
    RatingRun.objects.filter(pk=run.pk).update(
        outcome=outcome, message=message, finished_at=timezone.now(), progress=outcome
    )
    run.refresh_from_db()
    return run


def revise_after_change(event, user=None):
    """After an event's games were approved for, or withdrawn from, months already rated:
    queue the run that revises them (up to the latest month published). If a run of the list is
    under way, the next one revises them (it looks for changed months itself)."""
    latest = latest_published(event.rating_list)
    if latest is None or Month.of(event.start_date) > latest:
        return None
    return rate_through_latest(event.rating_list, f"late change to {event.code}", user)
