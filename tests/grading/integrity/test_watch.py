"""Every detector at once (watch): a month asked about, read against its year, finds exactly what
every detector over the whole year finds about that month, on a generated federation with cases
of each kind planted in it."""

import numpy as np
import pytest

from grading.integrity.detectors.improbable import RatedGames, row_keys
from grading.integrity.detectors.pairings import pair_key
from grading.integrity.detectors.watch import Events, watch

PLAYERS, MONTHS, SIZE, ROUNDS = 1_500, 12, 20, 5


def generated_year(seed=7):
    """Swisses of 20 and 5 rounds every month, results drawn at the ratings; planted: a pair who
    rated alike, meet in every month's first event (the first always winning), four players in round robins
    of their own rising 30 a month, and a player who loses to players 300 below in month 5 then
    wins against their old equals at 150 less in month 6."""
    rng = np.random.default_rng(seed)
    rating = np.clip(rng.normal(1800, 250, PLAYERS), 1000, 2700).astype(np.int64)
    rating[2] = rating[1]  # the planted pair, rated alike
    rows, event_month, event = [], [0], 0

    def add(event, white, black, white_rating, black_rating, halves, month):
        rows.append(
            np.broadcast_arrays(
                *(
                    np.atleast_1d(np.asarray(v, np.int64))
                    for v in (event, white, black, white_rating, black_rating, halves, month)
                )
            )
        )

    for month in range(MONTHS):
        for first in range(0, PLAYERS // 2, SIZE):
            event += 1
            event_month.append(month)
            field = rng.permutation(PLAYERS)[:SIZE]
            if first == 0:
                field = np.concatenate(([PLAYERS + 1], field[1:-1], [PLAYERS + 2]))  # the planted pair
            for round_ in range(ROUNDS):
                turned = np.concatenate((field[:1], np.roll(field[1:], round_)))
                white, black = turned[: SIZE // 2], turned[SIZE // 2 :][::-1]
                white_rating, black_rating = rating[white % PLAYERS], rating[black % PLAYERS]
                p = 1 / (1 + 10 ** ((black_rating - white_rating) / 400))
                halves = rng.binomial(2, p)
                halves = np.where((white == PLAYERS + 1) & (black == PLAYERS + 2), 2, halves)
                add(event, white, black, white_rating, black_rating, halves, month)
        event += 1
        event_month.append(month)
        pool = np.arange(PLAYERS + 10, PLAYERS + 14)
        for i in range(4):
            for j in range(i + 1, 4):
                add(event, pool[i], pool[j], 1500 + 30 * month, 1500 + 30 * month, rng.integers(0, 3), month)
        if month in (5, 6):
            event += 1
            event_month.append(month)
            opponents = np.arange(PLAYERS + 20, PLAYERS + 25) + 10 * month
            thrown = month == 5
            add(
                event,
                PLAYERS + 3,
                opponents,
                2000 if thrown else 1850,
                1700 if thrown else 2000,
                0 if thrown else 2,
                month,
            )
    columns = [np.concatenate(column) for column in zip(*rows)]
    games = RatedGames(*columns[:6])
    return games, columns[6], np.array(event_month)


@pytest.fixture(scope="module")
def year():
    games, month, event_month = generated_year()
    events = Events(np.arange(len(event_month)), event_month, np.zeros(len(event_month), np.int64))
    return games, month, events, watch(games, month, events)


def scores_of(scores, wanted):
    kept = np.isin(scores.event, wanted)
    keys = row_keys(scores.event[kept], scores.player[kept])
    order = np.argsort(keys)
    return {name: getattr(scores, name)[kept][order] for name in ("player", "upper", "lower", "form", "halves")}


@pytest.mark.parametrize("asked", [5, 6, 11])
def test_a_month_read_against_its_year_finds_what_the_whole_year_finds_of_it(year, asked):
    games, month, events, everything = year
    scope = np.flatnonzero(events.month == asked)
    found = watch(games, month, events, scope)

    whole, part = scores_of(everything.scores, scope), scores_of(found.scores, scope)
    assert all(np.allclose(whole[name], part[name]) for name in whole)
    met = set(pair_key(games.white, games.black)[np.isin(games.event, scope)].tolist())
    pairs = lambda p: {  # noqa: E731
        (k, m, round(float(u), 12)) for k, m, u in zip(pair_key(p.first, p.second).tolist(), p.meetings, p.upper)
    }
    assert {pair for pair in pairs(everything.pairings) if pair[0] in met} == pairs(found.pairings)
    touched = lambda s: {  # noqa: E731
        (p, d, r)
        for p, d, r in zip(s.player.tolist(), s.drop_event.tolist(), s.rebound_event.tolist())
        if d in scope or r in scope
    }
    assert touched(everything.sandbagging) == touched(found.sandbagging)
    flagged = lambda e: set(e.event[e.flagged() & np.isin(e.event, scope)].tolist())  # noqa: E731
    assert flagged(everything.events) == flagged(found.events)
    planted_pair = pair_key(np.array([PLAYERS + 1]), np.array([PLAYERS + 2]))[0]
    assert planted_pair in pair_key(found.pairings.first, found.pairings.second)[found.pairings.flagged()]
    assert set(
        found.pools.members[
            found.pools.flagged()[np.repeat(np.arange(len(found.pools.start)), found.pools.size)]
        ].tolist()
    ) == set(range(PLAYERS + 10, PLAYERS + 14))
    assert (asked in (5, 6)) == (PLAYERS + 3 in found.sandbagging.player)
