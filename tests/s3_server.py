"""An S3-compatible server of the tests' own, on a free port: moto's server as a process apart,
spoken to over HTTP by boto3 as a real store is (never an in-process mock). Each test that stores
files gets a bucket of its own in it (conftest.py's ``object_store``)."""

import contextlib
import subprocess
import sys
import time
import uuid

import boto3
import pytest

from tests.ports import free_port, port_open

REGION = "eu-west-2"
ACCESS_KEY, SECRET_KEY = "tests-access-key", "tests-secret-key"


@contextlib.contextmanager
def s3_server():
    """Yields a Server: ``endpoint`` (its address), ``bucket()`` (a new, empty bucket)."""
    server = Server(free_port())
    try:
        yield server
    finally:
        server.stop()


class Server:
    def __init__(self, port):
        self.port = port
        self.endpoint = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while not (port_open(port) and self.answers()):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"moto's S3 server did not start on port {port}")
            time.sleep(0.1)

    def client(self, **credentials):
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id=credentials.get("access_key", ACCESS_KEY),
            aws_secret_access_key=credentials.get("secret_key", SECRET_KEY),
        )

    def answers(self):
        try:
            self.client().list_buckets()
        except Exception:  # not listening yet, or not yet answering S3
            return False
        return True

    def bucket(self) -> "Bucket":
        name = f"ratings-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name, CreateBucketConfiguration={"LocationConstraint": REGION})
        return Bucket(self, name)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class Bucket:
    """One bucket, read with boto3 directly: what is in the store, whatever the site says."""

    def __init__(self, server, name):
        self.server, self.name = server, name

    def keys(self) -> list[str]:
        listing = self.server.client().list_objects_v2(Bucket=self.name)
        return sorted(item["Key"] for item in listing.get("Contents", []))

    def read(self, key) -> bytes:
        return self.server.client().get_object(Bucket=self.name, Key=key)["Body"].read()

    def put(self, key, data: bytes):
        self.server.client().put_object(Bucket=self.name, Key=key, Body=data)

    def settings(self) -> dict:
        """The environment that points a site's process at this bucket (config/settings.py)."""
        return {
            "STORAGE_S3_BUCKET": self.name,
            "STORAGE_S3_ENDPOINT_URL": self.server.endpoint,
            "STORAGE_S3_REGION": REGION,
            "STORAGE_S3_ACCESS_KEY_ID": ACCESS_KEY,
            "STORAGE_S3_SECRET_ACCESS_KEY": SECRET_KEY,
        }

    def options(self) -> dict:
        """The same, as the options of the site's storage (config/settings.py's OBJECT_STORE)."""
        return {
            "bucket_name": self.name,
            "endpoint_url": self.server.endpoint,
            "region_name": REGION,
            "access_key": ACCESS_KEY,
            "secret_key": SECRET_KEY,
            "addressing_style": "path",
        }


def site_stores_in(settings, bucket):
    """Point the site's storage at ``bucket`` (through pytest-django's ``settings``), with the
    options config/settings.py gives a store and this bucket's address and keys."""
    store = settings.OBJECT_STORE
    settings.STORAGES = {**settings.STORAGES, "default": {**store, "OPTIONS": {**store["OPTIONS"], **bucket.options()}}}
