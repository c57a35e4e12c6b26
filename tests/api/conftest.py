import datetime

import pytest

from grading.live.computing import compute_live
from grading.models import RatingList
from tests.builders import approved_event


@pytest.fixture
def api(client, federation):
    """The small federation (tests.builders.build_federation), and a November game approved after
    its 2026-10 list: the live list has lines."""
    approved_event("NOV", "otb-standard", datetime.date(2026, 11, 7), [("200002B", "200003C", "1-0")])
    compute_live(RatingList.objects.get(code="otb-standard"))
    return client
