import socket

from celery import shared_task
from django.db import connection
from django.utils import timezone

from players.models import Player


@shared_task
def worker_status():
    """What a worker sees: proves it is alive, has the code, and reaches the same database."""
    return {
        "hostname": socket.gethostname(),
        "database": connection.vendor,
        "players": Player.objects.count(),
        "time": timezone.now().isoformat(),
    }
