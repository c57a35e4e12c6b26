"""The two lookup tables of the ECF method (file 000), as exact integers.

D offsets are kept in tenths (8.4 -> 84) so that every sum over them stays an integer.
"""

from __future__ import annotations

import numpy as np

# (lowest |D|, offset in tenths): the offset applies from that |D| up to the next row's.
D_OFFSET_ROWS: tuple[tuple[int, int], ...] = (
    (0, 0),
    (4, 2),
    (11, 4),
    (18, 6),
    (26, 8),
    (33, 10),
    (40, 12),
    (47, 14),
    (54, 16),
    (62, 18),
    (69, 20),
    (77, 22),
    (84, 24),
    (92, 26),
    (99, 28),
    (107, 30),
    (114, 32),
    (122, 34),
    (130, 36),
    (138, 38),
    (146, 40),
    (154, 42),
    (163, 44),
    (171, 46),
    (180, 48),
    (189, 50),
    (198, 52),
    (207, 54),
    (216, 56),
    (226, 58),
    (236, 60),
    (246, 62),
    (257, 64),
    (268, 66),
    (279, 68),
    (290, 70),
    (303, 72),
    (316, 74),
    (329, 76),
    (345, 78),
    (358, 80),
    (375, 82),
    (392, 84),
)
D_OFFSET_CAP = D_OFFSET_ROWS[-1][0]  # every |D| from 392 up has the last offset

# Elo performance table: p in hundredths (0..100) -> dp.
_DP_FROM_HALF: tuple[int, ...] = (
    # p = 0.50, 0.51, ..., 1.00; the lower half mirrors it with the sign reversed.
    0,
    7,
    14,
    21,
    29,
    36,
    43,
    50,
    57,
    65,
    72,
    80,
    87,
    95,
    102,
    110,
    117,
    125,
    133,
    141,
    149,
    158,
    166,
    175,
    184,
    193,
    202,
    211,
    220,
    230,
    240,
    251,
    262,
    273,
    284,
    296,
    309,
    322,
    336,
    351,
    366,
    383,
    401,
    422,
    444,
    470,
    501,
    538,
    589,
    677,
    800,
)
DP_BY_PERCENT: tuple[int, ...] = tuple(-dp for dp in reversed(_DP_FROM_HALF[1:])) + _DP_FROM_HALF


def _d_offset_array() -> np.ndarray:
    table = np.empty(D_OFFSET_CAP + 1, dtype=np.int64)
    bounds = [low for low, _ in D_OFFSET_ROWS[1:]] + [D_OFFSET_CAP + 1]
    for (low, tenths), high in zip(D_OFFSET_ROWS, bounds):
        table[low:high] = tenths
    return table


D_OFFSET_TENTHS_BY_ABS_D = _d_offset_array()
D_OFFSET_TENTHS_BY_ABS_D.flags.writeable = False
# The same with the sign restored, indexed by D + D_OFFSET_CAP for D in -cap..cap.
_D_OFFSET_TENTHS_SIGNED = np.concatenate((-D_OFFSET_TENTHS_BY_ABS_D[:0:-1], D_OFFSET_TENTHS_BY_ABS_D))
DP_ARRAY = np.array(DP_BY_PERCENT, dtype=np.int64)
DP_ARRAY.flags.writeable = False


def d_offset_tenths(d: int) -> int:
    """sign(D) * table(|D|), in tenths."""
    tenths = int(D_OFFSET_TENTHS_BY_ABS_D[min(abs(d), D_OFFSET_CAP)])
    return tenths if d >= 0 else -tenths


def d_offset_tenths_array(d: np.ndarray) -> np.ndarray:
    return _D_OFFSET_TENTHS_SIGNED[np.clip(d, -D_OFFSET_CAP, D_OFFSET_CAP) + D_OFFSET_CAP]


def d_offset_row(d: int) -> int:
    """The row of the D offset table that ``d`` falls in, by its lowest |D|."""
    return max(low for low, _ in D_OFFSET_ROWS if low <= abs(d))
