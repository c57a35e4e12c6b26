"""A one-club list page's lines (grading.selectors.history.club_lines): the club's lines read from
their index, only the page's ratings joined to the players; the same lines as the ORM's query of
the filtered list (public.lists.tables.page_rows), ties across a page's edges included."""

import pytest

from grading.selectors.history import PublishedList, club_lines
from public.lists.tables import page_rows
from tests.builders import ClubFactory, PlayerFactory, publish_month

pytestmark = pytest.mark.django_db


def ratings_with_ties(count):
    """Ratings in runs of five equal ones (1800, 1800, ..., 1795, ...): every page of seven starts
    and ends inside a run."""
    return [1800 - 5 * (i // 5) for i in range(count)]


def test_a_clubs_pages_hold_the_lines_the_filtered_list_holds_in_the_same_order_ties_included():
    club, other = ClubFactory(code="TIE"), ClubFactory(code="OTH")
    players = [PlayerFactory(club=club, surname=f"Surname{(i * 7) % 23:02d}", forenames=f"F{i % 3}") for i in range(23)]
    strangers = [PlayerFactory(club=other) for _ in range(5)]
    before, _ = publish_month(
        "otb-standard", "2026-09", [{"player": p, "rating": 1500 + i} for i, p in enumerate(players[:20])]
    )
    rows = [{"player": p, "rating": r} for p, r in zip(players, ratings_with_ties(23), strict=True)] + [
        {"player": p, "rating": 1800} for p in strangers
    ]
    period, _ = publish_month("otb-standard", "2026-10", rows)
    published, previous = PublishedList(period, 0), PublishedList(before, 0)
    expected = list(page_rows(published.entries().filter(club__code="TIE"), counted=True, previous=previous))

    pages = [club_lines(published, previous, "TIE", offset, 7) for offset in (0, 7, 14, 21, 28)]

    assert [tuple(line) for page in pages for line in page] == [tuple(row) for row in expected]
    assert [len(page) for page in pages] == [7, 7, 7, 2, 0]
    assert {line.total for page in pages for line in page} == {23}
    assert [line.previous for line in pages[3]] == [None, None] or any(line.previous for line in pages[0])


def test_a_clubs_first_page_on_a_list_with_none_before_has_no_previous_ratings():
    club = ClubFactory(code="ONE")
    players = [PlayerFactory(club=club) for _ in range(3)]
    period, _ = publish_month("otb-standard", "2026-10", [{"player": p, "rating": 1700} for p in players])

    lines = club_lines(PublishedList(period, 0), None, "ONE", 0, 50)

    assert [line.player__code for line in lines] == sorted(p.code for p in players)  # equal ratings: by name
    assert {(line.total, line.previous) for line in lines} == {(3, None)}
