"""The integrity bench's ordinary year (bench/ordinary_play.py) is what its docstring says: juniors
rise, a Swiss pairs the top half against the bottom half and nobody twice, club mates meet again
and again, and planted cases go through the monthly rating update like everyone's games."""

import pathlib
import sys

import numpy as np
import pytest

BENCH = pathlib.Path(__file__).resolve().parents[3] / "bench"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCH))
    try:
        import ordinary_play
        import planted_cases

        yield ordinary_play, planted_cases
    finally:
        sys.path.remove(str(BENCH))


def test_juniors_rise_and_ratings_follow_them(bench):
    ordinary_play, _ = bench
    fed = ordinary_play.Federation(np.random.default_rng(1), 3000)
    start_strength, start_rating = fed.strength.copy(), fed.published.copy()
    for month in range(12):
        ordinary_play.ordinary_month(fed, month)
        fed.publish(month)
    juniors = fed.junior & (start_rating > 0)

    assert np.mean(fed.strength[juniors] - start_strength[juniors]) > 150
    assert np.mean(fed.published[juniors] - start_rating[juniors]) > 50
    assert abs(np.mean(fed.strength[~fed.junior] - start_strength[~fed.junior])) < 20


def test_a_swiss_pairs_the_top_half_against_the_bottom_half_and_nobody_twice(bench):
    ordinary_play, _ = bench
    fed = ordinary_play.Federation(np.random.default_rng(2), 200)
    field = np.flatnonzero(fed.published > 0)[:40]
    event = ordinary_play.swiss(fed, 0, field, 7)
    event_, white, black = (np.concatenate(column) for column in fed.columns[:3])
    mine = event_ == event
    pairs = {frozenset(pair) for pair in zip(white[mine].tolist(), black[mine].tolist())}

    # Nobody twice; late in the event two who have met everyone left may sit out a round.
    assert len(pairs) == mine.sum() >= 7 * 20 - 4
    seeded = field[np.argsort(-fed.published[field], kind="stable")]
    first_round = set(zip(white[mine][:20].tolist(), black[mine][:20].tolist()))
    assert first_round == set(zip(seeded[:20].tolist(), seeded[20:].tolist()))


def test_club_mates_meet_again_and_again(bench):
    ordinary_play, _ = bench
    fed = ordinary_play.Federation(np.random.default_rng(3), 2000)
    for month in range(6):
        ordinary_play.club_nights(fed, month)
    white, black = (np.concatenate(column) for column in fed.columns[1:3])
    _, meetings = np.unique(np.minimum(white, black) * 10**7 + np.maximum(white, black), return_counts=True)

    assert meetings.max() >= 6


def test_a_thrown_event_lowers_the_throwers_published_rating(bench):
    ordinary_play, planted_cases = bench
    rng = np.random.default_rng(4)
    fed = ordinary_play.Federation(rng, 2000)
    plan = planted_cases.Plan()
    planted_cases.sandbagging(plan, rng, "blatant")
    month = min(plan.by_month)
    plan.run(fed, month)
    fed.publish(month)
    kind, strength, rows, _ = plan.cases[0]
    event, player = rows[0]
    events, white, white_rating = (np.concatenate(fed.columns[i]) for i in (0, 1, 3))
    used = white_rating[(events == event) & (white == player)]

    # Seven losses to players 250 to 400 below, K 20: about 20 x 7 x 0.85 = 120 points lost.
    assert (kind, strength, len(used)) == ("sandbagging", "blatant", 7)
    assert 80 < used[0] - fed.published[player] < 140


def test_clubs_have_10_to_25_members_and_a_league_meets_the_same_club_at_most_twice(bench):
    ordinary_play, _ = bench
    fed = ordinary_play.Federation(np.random.default_rng(5), 3000)
    sizes = np.bincount(fed.club[fed.club >= 0])
    for month in range(12):
        ordinary_play.league(fed, month)
    event, white, black = (np.concatenate(column) for column in fed.columns[:3])
    first = np.unique(event, return_index=True)[1]  # a match's first board: the two clubs
    home, away = fed.club[white[first]], fed.club[black[first]]
    _, matches = np.unique(np.minimum(home, away) * 10**6 + np.maximum(home, away), return_counts=True)

    assert sizes[:-1].min() >= 10 and sizes.max() <= 25  # the last club takes who is left
    assert len(first) > 12 * len(fed.divisions) and matches.max() <= 2


def test_draws_between_equals_follow_the_published_rates_not_the_watchs(bench):
    ordinary_play, _ = bench
    fed = ordinary_play.Federation(np.random.default_rng(6), 10)
    shares = []
    for level in (1400, 2200, 2600):
        fed.strength = np.full(2, float(level))
        halves = fed.play(np.zeros(100_000, np.int64), np.ones(100_000, np.int64))
        shares.append(np.mean(halves == 1))

    assert np.allclose(shares, (0.15, 0.35, 0.52), atol=0.01)


def test_newcomers_rated_inside_a_closed_event_come_out_with_its_first_ratings(bench):
    ordinary_play, planted_cases = bench
    rng = np.random.default_rng(8)
    fed = ordinary_play.Federation(rng, 2000)
    plan = planted_cases.Plan()
    while not plan.cases or not plan.cases[-1][0].endswith("rated inside"):
        plan = planted_cases.Plan()
        planted_cases.newcomers(plan, rng, "blatant")
    month = min(plan.by_month)
    for at in (month, month + 1):
        ordinary_play.ordinary_month(fed, at)
        plan.run(fed, at)
        fed.publish(at)
    _, _, rows, (closed, again) = plan.cases[0]
    event, white, white_rating, black_rating = (np.concatenate(fed.columns[i]) for i in (0, 1, 3, 4))
    newcomers = [player for _, player in rows][:8]

    # Eight newcomers of about 1200 beat five accomplices of about 1600 (five games each, the
    # least a first rating needs): a performance of 1600 + 400 x log10(0.95 / 0.05), about 2110.
    assert (white_rating[(event == closed) & np.isin(white, newcomers)] == 0).all()
    assert ((white_rating[event == again] > 1900) & (black_rating[event == again] > 1900)).all()
