"""The Celery tasks of the laboratory, for Celery's autodiscovery."""

from celery import shared_task

from laboratory.rerating import run_simulation


@shared_task(name="laboratory.tasks.simulate", ignore_result=True)
def simulate(simulation_pk: int):
    """Rate a queued simulation. Not acknowledged late: a worker killed part way leaves the
    simulation failed or running, to be deleted and made again, never rated twice into it."""
    run_simulation(simulation_pk)
