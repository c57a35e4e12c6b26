"""How likely a score is, given each game's chances of a win and a draw (docs/integrity.md).

A game's score is counted in half points, H in {0, 1, 2}: 2 with the game's chance of a win, 1
with its chance of a draw, 0 otherwise (grading.integrity.detectors.model gives the chances). A
player's half points over n games are the sum of the games', whose distribution is built one
game at a time for every group of games at once.
"""

import numpy as np

from grading.engine.arrays import runs


def score_tails(
    group: np.ndarray, win: np.ndarray, draw: np.ndarray, halves: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each group of games (``group``: 0 to m - 1, every number used), the probability of
    scoring at least its half points (upper tail) and at most them (lower tail), given each
    game's chances of a win and a draw. Returns (upper, lower), arrays of m."""
    order = np.argsort(group, kind="stable")
    group, win, draw, halves = group[order], win[order], draw[order], halves[order]
    ids, counts = runs(group)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    observed = np.add.reduceat(halves.astype(np.int64), starts) if len(group) else np.zeros(0, dtype=np.int64)
    upper = np.ones(len(ids))
    lower = np.ones(len(ids))
    for n in np.unique(counts):
        chosen = np.flatnonzero(counts == n)
        at_games = starts[chosen, None] + np.arange(n)
        dist = half_point_distribution(win[at_games], draw[at_games])
        at = observed[chosen]
        rows = np.arange(len(chosen))
        upper[chosen] = np.cumsum(dist[:, ::-1], axis=1)[:, ::-1][rows, at]
        lower[chosen] = np.cumsum(dist, axis=1)[rows, at]
    return np.minimum(upper, 1.0), np.minimum(lower, 1.0)


def half_point_distribution(win: np.ndarray, draw: np.ndarray) -> np.ndarray:
    """P(H = h) for h = 0 to 2n, for each row of ``win`` and ``draw`` (rows of n games' chances)."""
    rows, n = win.shape
    dist = np.zeros((rows, 2 * n + 1))
    dist[:, 0] = 1.0
    for game in range(n):
        won, drawn = win[:, game, None], draw[:, game, None]
        lost = 1 - won - drawn
        top = 2 * game + 3  # the half points reachable after this game, and one more
        before = dist[:, : top - 2].copy()
        dist[:, :top] *= 0
        dist[:, : top - 2] += before * lost
        dist[:, 1 : top - 1] += before * drawn
        dist[:, 2:top] += before * won
    return dist
