"""Reading columns in bulk (common/bulk.py): on PostgreSQL packed by the server into one value,
elsewhere row by row; the same arrays either way."""

import datetime

import numpy as np
import pytest
from django.db import connection

from common.bulk import fetch_columns, row_digests
from tests.builders import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_players():
    born = [datetime.date(1990, 5, 12), datetime.date(1999, 12, 31), datetime.date(2000, 1, 1)]
    return [PlayerFactory(code=f"10000{i}A", birth_date=day) for i, day in enumerate(born)]


def test_columns_come_back_as_arrays_in_the_order_asked_for(three_players):
    ids, born = fetch_columns("SELECT id, birth_date FROM players_player", [], [np.int64, "datetime64[D]"], order=(1,))

    assert ids.tolist() == [player.pk for player in three_players]
    assert born.tolist() == [datetime.date(1990, 5, 12), datetime.date(1999, 12, 31), datetime.date(2000, 1, 1)]
    assert ids.dtype == np.int64 and born.dtype == np.dtype("datetime64[D]")


def test_no_rows_give_empty_arrays(db):
    (ids,) = fetch_columns("SELECT id FROM players_player", [], [np.int64])
    assert ids.dtype == np.int64 and len(ids) == 0


def test_an_empty_value_is_refused_rather_than_its_row_lost(three_players):
    three_players[1].birth_date = None
    three_players[1].save()
    if connection.vendor != "postgresql":
        pytest.skip("the packed read is PostgreSQL's")

    with pytest.raises(ValueError, match="1 of 3 rows had an empty value"):
        fetch_columns("SELECT id, birth_date FROM players_player", [], [np.int64, "datetime64[D]"])


def test_a_rows_digest_depends_on_its_values_not_on_its_neighbours():
    plain = row_digests({"rating": [1850, 1700], "type": ["full", "full"], "note": "x"}, 2)
    # 1700 beside an empty value (a column of objects) digests as it does among numbers.
    mixed_column = row_digests({"rating": [None, 1700], "type": ["full", "full"], "note": "x"}, 2)
    as_array = row_digests({"rating": np.array([1850, 1700]), "type": ["full", "full"], "note": "x"}, 2)
    assert plain[1] == mixed_column[1] and plain.tolist() == as_array.tolist()
    assert plain[0] != mixed_column[0]
    # Any value changed changes the digest; so does the order of the columns' values.
    assert row_digests({"rating": [1850, 1700], "type": ["full", "partial"], "note": "x"}, 2)[1] != plain[1]
    assert row_digests({"rating": [1850, 1700], "type": ["full", "full"], "note": "y"}, 2)[0] != plain[0]
    assert row_digests({"a": [1], "b": [2]}, 1)[0] != row_digests({"a": [2], "b": [1]}, 1)[0]
