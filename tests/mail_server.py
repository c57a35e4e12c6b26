"""A real SMTP server for the tests, which a test starts and stops (tests/conftest.py: smtp_server)."""

import email
import email.policy
import mailbox
import os
import re
import subprocess
import sys
import time

from tests.ports import free_port, port_open

# aiosmtpd imports a module named "public" (the atpublic package), which our app of that name
# hides in this process: the server runs in a process of its own, from a folder outside the
# project, and keeps what it receives in a Maildir that the tests read.


def arrival(key: str) -> tuple[int, ...]:
    """When a Maildir message arrived, from its name (Python's mailbox writes SECONDS.MmicrosPpidQn.host)."""
    return tuple(int(number) for number in re.match(r"(\d+)\.M(\d+)P\d+Q(\d+)", key).groups())


class Inbox:
    """What the SMTP server received, oldest first: each message parsed, its envelope's
    recipients in X-RcptTo (as aiosmtpd's Mailbox writes them)."""

    def __init__(self, folder):
        self.folder = folder
        self.maildir = mailbox.Maildir(folder, factory=None, create=True)

    @property
    def messages(self):
        keys = sorted(self.maildir.keys(), key=arrival)
        return [email.message_from_bytes(self.maildir.get_bytes(key), policy=email.policy.default) for key in keys]

    def to(self, address):
        return [message for message in self.messages if address in message["X-RcptTo"]]

    def clear(self):
        self.maildir.clear()


# aiosmtpd's Mailbox, refusing for good (550) any recipient whose address begins "refused": a
# mail server that does not know an address. Written beside the Maildir, for the server's process.
REFUSING_HANDLER = """
from aiosmtpd.handlers import Mailbox


class Refusing(Mailbox):
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("refused"):
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"
"""


class SMTPServer:
    """A real SMTP server (aiosmtpd) on a port of its own, which a test starts and stops; it keeps
    what it receives in its inbox, or with ``keep=False`` (the bench) drops it."""

    def __init__(self, folder, keep=True):
        self.inbox = Inbox(folder / "Maildir") if keep else None
        self.port, self.process, self.folder = free_port(), None, folder

    def start(self):
        command = [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{self.port}"]
        environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        if self.inbox:
            (self.folder / "refusing_handler.py").write_text(REFUSING_HANDLER)
            command += ["-c", "refusing_handler.Refusing", str(self.inbox.folder)]
            environment["PYTHONPATH"] = str(self.folder)
        else:
            command += ["-c", "aiosmtpd.handlers.Sink"]
        self.process = subprocess.Popen(command, cwd=self.folder, env=environment, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while not port_open(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the SMTP server did not start: {self.process.stderr.read().decode()[-500:]}")
            time.sleep(0.05)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
