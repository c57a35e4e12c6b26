"""Ports on 127.0.0.1 for the servers the tests start of their own (SMTP, Redis, S3, PostgreSQL,
web): one free now, and whether something listens on one."""

import socket


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_open(port) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0
