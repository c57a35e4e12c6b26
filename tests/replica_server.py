"""A streaming replica of the tests' PostgreSQL, for the replica tests (tests/test_replica.py): a
second cluster made with ``pg_basebackup -R`` from the primary of DATABASE_URL, once the test
database is made and migrated, started on a free port of 5433-5439 from a temporary folder that
its end removes. PostgreSQL refuses to run as root: where the tests do, the cluster runs as the
``postgres`` user (runuser), its folder owned by it.

The primary must take replication connections from this machine (a ``host replication`` line in
pg_hba.conf: .ci/run adds it) and keep WAL for a standby (wal_level replica, max_wal_senders):
where it cannot, or DATABASE_URL is not a PostgreSQL of this machine, the tests are skipped with
the reason (on CI they fail).
"""

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
import pytest

from tests.ports import port_open

PORTS = range(5433, 5440)
LOCAL_HOSTS = {"", "localhost", "127.0.0.1"}
# A standby must allow at least what its primary does of these, or it refuses to start.
AT_LEAST_THE_PRIMARYS = (
    "max_connections",
    "max_worker_processes",
    "max_wal_senders",
    "max_prepared_transactions",
    "max_locks_per_transaction",
)


def refuse(message):
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def has_user(name):
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


class StreamingReplica:
    """The replica of the database ``primary`` (Django's settings of it, NAME the test database)."""

    def __init__(self, primary: dict):
        self.primary = primary
        self.name = primary["NAME"]
        self.folder = self.data = self.port = None

    # The primary.

    def primary_connection(self):
        return psycopg.connect(**self.conninfo(self.primary["HOST"] or "127.0.0.1", self.primary["PORT"] or 5432))

    def conninfo(self, host, port):
        settings = self.primary
        return {
            "dbname": self.name,
            "user": settings["USER"] or None,
            "password": settings["PASSWORD"] or None,
            "host": host,
            "port": port,
            "autocommit": True,
        }

    def check_primary(self) -> dict:
        """The primary's settings a standby must match; refuses where it keeps no WAL for one."""
        with self.primary_connection() as conn:
            values = dict(
                conn.execute(
                    "SELECT name, setting FROM pg_settings WHERE name = ANY(%s)",
                    [["wal_level", "server_version_num", *AT_LEAST_THE_PRIMARYS]],
                ).fetchall()
            )
            senders = conn.execute("SELECT count(*) FROM pg_stat_replication").fetchone()[0]
        if values["wal_level"] == "minimal" or int(values["max_wal_senders"]) - senders < 2:
            refuse(
                f"the primary keeps no WAL for a standby (wal_level {values['wal_level']}, max_wal_senders "
                f"{values['max_wal_senders']} with {senders} in use): changing that needs its restart"
            )
        return values

    # The replica's cluster.

    def as_owner(self, *command):
        """A command run as the cluster's owner: ``postgres`` when the tests run as root."""
        return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else list(command)

    def own(self, path):
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(path, owner.pw_uid, owner.pw_gid)

    def start(self):
        if self.primary["HOST"] not in LOCAL_HOSTS:
            refuse(f"needs DATABASE_URL on this machine's PostgreSQL, not {self.primary['HOST']}")
        if os.geteuid() == 0 and not (shutil.which("runuser") and has_user("postgres")):
            refuse("runs as root: needs the postgres user and runuser to run the replica as (PostgreSQL refuses root)")
        values = self.check_primary()
        binaries = Path(f"/usr/lib/postgresql/{int(values['server_version_num']) // 10000}/bin")
        if not (binaries / "pg_basebackup").exists():
            found = shutil.which("pg_basebackup")
            if not found:
                refuse("needs PostgreSQL's pg_basebackup (Debian: postgresql)")
            binaries = Path(found).parent
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="replica-"))
        self.own(self.folder)
        self.data = self.folder / "data"
        self.base_backup()
        self.configure(values)
        self.start_on_a_free_port()
        self.wait_until_streaming()

    def base_backup(self):
        primary = self.primary
        backup = subprocess.run(
            self.as_owner(
                str(self.binaries / "pg_basebackup"),
                *("-h", primary["HOST"] or "127.0.0.1", "-p", str(primary["PORT"] or 5432)),
                *("-U", primary["USER"] or "postgres", "-D", str(self.data)),
                *("-R", "-X", "stream", "-c", "fast", "-w"),
            ),
            env={**os.environ, **({"PGPASSWORD": primary["PASSWORD"]} if primary["PASSWORD"] else {})},
            capture_output=True,
            text=True,
        )
        if backup.returncode != 0:
            self.remove()
            if "pg_hba.conf" in backup.stderr:
                refuse(
                    "the primary refuses replication connections: add 'host replication all 127.0.0.1/32 trust' "
                    f"to its pg_hba.conf and reload it (.ci/run does): {backup.stderr.strip()}"
                )
            pytest.fail(f"pg_basebackup failed: {backup.stderr.strip()}")

    def configure(self, values):
        """Debian keeps a cluster's configuration outside its data folder: the copy has none, so it
        is given its own, for a standby of this machine only."""
        limits = "\n".join(f"{name} = {values[name]}" for name in AT_LEAST_THE_PRIMARYS)
        files = {
            "postgresql.conf": (
                f"listen_addresses = '127.0.0.1'\nunix_socket_directories = '{self.folder}'\n"
                f"hot_standby = on\nshared_buffers = 32MB\nfsync = off\n{limits}\n"
            ),
            "pg_hba.conf": "local all all trust\nhost all all 127.0.0.1/32 trust\n",
            "pg_ident.conf": "",
        }
        for name, text in files.items():
            (self.data / name).write_text(text)
            self.own(self.data / name)

    def start_on_a_free_port(self):
        for port in PORTS:
            if port_open(port):
                continue
            started = subprocess.run(
                self.as_owner(
                    str(self.binaries / "pg_ctl"),
                    *("-D", str(self.data), "-l", str(self.folder / "log"), "-o", f"-p {port}", "-w", "-t", "60"),
                    "start",
                ),
                capture_output=True,
                text=True,
            )
            if started.returncode == 0:
                self.port = port
                return
        log = (self.folder / "log").read_text(errors="replace")[-2000:] if (self.folder / "log").exists() else ""
        self.remove()
        pytest.fail(f"the replica did not start on any of ports {PORTS.start}-{PORTS.stop - 1}: {log}")

    def connection(self):
        return psycopg.connect(**self.conninfo("127.0.0.1", self.port))

    def wait_until_streaming(self, seconds=60):
        deadline = time.monotonic() + seconds
        while True:
            with contextlib.suppress(psycopg.OperationalError), self.connection() as conn:
                recovering, streaming = conn.execute(
                    "SELECT pg_is_in_recovery(), EXISTS (SELECT FROM pg_stat_wal_receiver WHERE status = 'streaming')"
                ).fetchone()
                if recovering and streaming:
                    return
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"the replica on port {self.port} did not stream from the primary within {seconds} s")
            time.sleep(0.1)

    def stop(self):
        if self.port is not None:
            subprocess.run(
                self.as_owner(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"),
                capture_output=True,
            )
            self.port = None
        self.remove()

    def remove(self):
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    # Its replay.

    def pause(self):
        """Stop replaying the primary's WAL (it is still received): the replica shows the database
        as it was, whatever the primary writes next."""
        with self.connection() as conn:
            conn.execute("SELECT pg_wal_replay_pause()")
            while conn.execute("SELECT pg_get_wal_replay_pause_state()").fetchone()[0] != "paused":
                time.sleep(0.01)

    def resume(self):
        with self.connection() as conn:
            conn.execute("SELECT pg_wal_replay_resume()")

    def django_settings(self) -> dict:
        """The alias ``replica`` as config/settings.py makes it from DATABASE_REPLICA_URL."""
        return {
            **self.primary,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "TEST": {**self.primary.get("TEST", {}), "MIRROR": "default"},
        }


@contextlib.contextmanager
def streaming_replica():
    """The running replica of the test database, and the alias ``replica`` of Django's connections
    reading it, for the session; both gone at its end."""
    from django.db import connections

    primary = connections["default"].settings_dict
    if primary["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("needs DATABASE_URL on PostgreSQL: a streaming replica is PostgreSQL's")
    replica = StreamingReplica(dict(primary))
    replica.start()
    connections.settings["replica"] = replica.django_settings()
    try:
        yield replica
    finally:
        connections["replica"].close()
        with contextlib.suppress(AttributeError):  # never opened in this thread
            del connections["replica"]
        del connections.settings["replica"]
        replica.stop()
