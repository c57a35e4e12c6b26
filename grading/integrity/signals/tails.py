"""How likely a score is, given the expected score of each game (docs/integrity.md).

A game's score is counted in half points, H in {0, 1, 2}: two half points, each won with the
game's expected score p, so P(win) = p², P(draw) = 2p(1 - p), P(loss) = (1 - p)² and the mean is
2p, the expected score the ratings give. A player's half points over n games are the sum of the
games' (a Poisson binomial over 2n trials), whose distribution is built one trial at a time for
every group of games at once.
"""

import numpy as np

from grading.engine.arrays import runs


def score_tails(group: np.ndarray, expected: np.ndarray, halves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each group of games (``group``: 0 to m - 1, every number used), the probability of
    scoring at least its half points (upper tail) and at most them (lower tail), given each
    game's expected score. Returns (upper, lower), arrays of m."""
    order = np.argsort(group, kind="stable")
    group, expected, halves = group[order], expected[order], halves[order]
    ids, counts = runs(group)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    observed = np.add.reduceat(halves.astype(np.int64), starts) if len(group) else np.zeros(0, dtype=np.int64)
    upper = np.ones(len(ids))
    lower = np.ones(len(ids))
    for n in np.unique(counts):
        chosen = np.flatnonzero(counts == n)
        games = expected[starts[chosen, None] + np.arange(n)]
        dist = half_point_distribution(games)
        at = observed[chosen]
        rows = np.arange(len(chosen))
        upper[chosen] = np.cumsum(dist[:, ::-1], axis=1)[:, ::-1][rows, at]
        lower[chosen] = np.cumsum(dist, axis=1)[rows, at]
    return np.minimum(upper, 1.0), np.minimum(lower, 1.0)


def half_point_distribution(expected: np.ndarray) -> np.ndarray:
    """P(H = h) for h = 0 to 2n, for each row of ``expected`` (rows of n games' expected scores)."""
    rows, n = expected.shape
    dist = np.zeros((rows, 2 * n + 1))
    dist[:, 0] = 1.0
    for game in range(n):
        won = expected[:, game, None]
        for _ in range(2):  # the game's two half points
            dist[:, 1:] = dist[:, 1:] * (1 - won) + dist[:, :-1] * won
            dist[:, 0] *= 1 - won[:, 0]
    return dist
