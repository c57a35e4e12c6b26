"""Sending to the workers through Redis, and the one judgement of when Redis could not be reached:
for the runs' messages, the live ratings' requests and the worker check alike."""

import contextlib

from celery import current_app
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeout


class Unreachable(Exception):
    """Redis, the broker or the result store, could not be reached: nothing was sent."""


def unreachable(error: BaseException | None) -> bool:
    """Whether ``error`` says Redis could not be reached. kombu says so of the broker with its
    OperationalError; Celery's result store, which a task whose result is kept subscribes to
    before its message is sent, gives up with a bare RuntimeError caused by redis's own error."""
    if isinstance(error, BrokerError | RedisConnectionError | RedisTimeout | ConnectionError):
        return True
    return isinstance(error, RuntimeError) and unreachable(error.__cause__)


@contextlib.contextmanager
def reaching_redis():
    """Turns any failure to reach Redis inside the block into Unreachable, saying so plainly."""
    try:
        yield
    except Exception as error:
        if not unreachable(error):
            raise
        # Celery's RuntimeError says only that it gave up: what failed is its cause.
        root = error.__cause__ if isinstance(error, RuntimeError) else error
        cause = " ".join(str(root).split()) or type(root).__name__
        raise Unreachable(f"the broker (Redis) cannot be reached: {cause}") from error


def send(task_name: str, args=(), **options):
    """Send the message of the task named ``task_name`` to the workers: its AsyncResult, or
    Unreachable. In process (no broker) nothing is sent: the task runs here, and what fails in it
    is its own failure. By name, so that a service never imports the tasks that call it."""
    task = current_app.tasks[task_name]
    if task.app.conf.task_always_eager:
        return task.apply_async(args, **options)
    with reaching_redis():
        return task.apply_async(args, **options)
