import email
import email.policy
import mailbox
import os
import socket
import subprocess
import sys
import time

import pytest

# aiosmtpd imports a module named "public" (the atpublic package), which our app of that name
# hides in this process: the server runs in a process of its own, from a folder outside the
# project, and keeps what it receives in a Maildir that the tests read.


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


class Inbox:
    """What the SMTP server received, oldest first: each message parsed, its envelope's
    recipients in X-RcptTo (as aiosmtpd's Mailbox writes them)."""

    def __init__(self, folder):
        self.folder = folder
        self.maildir = mailbox.Maildir(folder, factory=None, create=True)

    @property
    def messages(self):
        keys = sorted(self.maildir.keys(), key=lambda key: (float(key.split(".")[0]), key))
        return [email.message_from_bytes(self.maildir.get_bytes(key), policy=email.policy.default) for key in keys]

    def to(self, address):
        return [message for message in self.messages if address in message["X-RcptTo"]]

    def clear(self):
        self.maildir.clear()


class SMTPServer:
    """A real SMTP server (aiosmtpd) on a port of its own, which a test starts and stops."""

    def __init__(self, folder):
        self.inbox, self.port, self.process, self.folder = Inbox(folder / "Maildir"), free_port(), None, folder

    def start(self):
        command = [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{self.port}"]
        command += ["-c", "aiosmtpd.handlers.Mailbox", str(self.inbox.folder)]
        environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        self.process = subprocess.Popen(command, cwd=self.folder, env=environment, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while not listening(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the SMTP server did not start: {self.process.stderr.read().decode()[-500:]}")
            time.sleep(0.05)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def smtp_server(settings, tmp_path):
    """The site's mail goes through a real SMTP server the test starts; its inbox reads what arrived."""
    server = SMTPServer(tmp_path)
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", server.port, 5
    settings.SITE_URL = "https://ratings.example.org"
    yield server
    server.stop()


@pytest.fixture
def inbox(smtp_server):
    return smtp_server.inbox
