import pytest

from tests.builders import build_federation


@pytest.fixture
def federation(db):
    """The small federation of tests.builders.build_federation: known numbers, published."""
    return build_federation()
