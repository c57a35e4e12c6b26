import pytest


@pytest.fixture
def mailed(django_capture_on_commit_callbacks):
    """A step with its commit's callbacks run: the role mails' tasks, in process."""
    return lambda: django_capture_on_commit_callbacks(execute=True)
