from django.apps import AppConfig
from django.db.backends.signals import connection_created


def register_fold(sender, connection, **kwargs):
    """SQLite has no unaccent: the search's fed_fold is players.names.fold itself."""
    if connection.vendor == "sqlite":
        from .names import fold

        connection.connection.create_function("fed_fold", 1, fold, deterministic=True)


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players and clubs"

    def ready(self):
        connection_created.connect(register_fold, dispatch_uid="players.register_fold")
