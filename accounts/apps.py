from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        # tasks: a web process without a broker runs them; checks: check --deploy's.
        from accounts import checks, personal_data, tasks  # noqa: F401
        from accounts.roles import ensure_roles  # the auth models are not loaded before ready()
        from common import replica  # noqa: F401 (its deploy check, beside System status's view of the replica)

        # After every app has migrated, so that all the permissions exist.
        post_migrate.connect(ensure_roles, dispatch_uid="accounts.ensure_roles")
