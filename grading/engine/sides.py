"""The two sides of every game, and exact per-player sums over them."""

from __future__ import annotations

import numpy as np

from grading.engine.inputs.forms import ColumnarInputs


def per_player_sum(player: np.ndarray, values: np.ndarray, player_count: int) -> np.ndarray:
    """Per player position 0..player_count-1: the exact int64 sum of the values at their rows."""
    totals = np.zeros(player_count, dtype=np.int64)
    np.add.at(totals, player, values)
    return totals


class Sides:
    """The two sides of every game: white's at position g, black's at g + m."""

    def __init__(self, inputs: ColumnarInputs):
        white = np.asarray(inputs.white, dtype=np.int64)
        black = np.asarray(inputs.black, dtype=np.int64)
        white_halves = np.asarray(inputs.white_halves, dtype=np.int64)
        self.player_count = inputs.player_count
        self.player = np.concatenate((white, black))
        self.opponent = np.concatenate((black, white))
        self.halves = np.concatenate((white_halves, 2 - white_halves))
        self.count = np.bincount(self.player, minlength=self.player_count)
        self.rated = self.count > 0
        self.rated_positions = np.flatnonzero(self.rated)

    def total(self, side_values: np.ndarray) -> np.ndarray:
        """Per player position: the exact sum of the values of their sides."""
        return per_player_sum(self.player, side_values, self.player_count)

    def opponent_total(self, rating_by_player: np.ndarray) -> np.ndarray:
        """Per player position: the sum of their opponents' ratings from a per-player table."""
        return self.total(rating_by_player[self.opponent])
