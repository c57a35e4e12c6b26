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


# FIDE's table 8.1.2 past 400 (docs/rules.md section 17.2), in the same tenths: PD = 0.50 +
# tenths / 200, so .92 -> 84, .93 -> 86, ... 1.00 -> 100. Up to 391 it is the D offset table.
PD_PAST_400_ROWS: tuple[tuple[int, int], ...] = (
    (392, 84),
    (412, 86),
    (433, 88),
    (457, 90),
    (485, 92),
    (518, 94),
    (560, 96),
    (620, 98),
    (736, 100),
)
PD_TABLE_END = PD_PAST_400_ROWS[-1][0]  # every |diff| from 736 up has PD 1.00


def _fide_tenths_array() -> np.ndarray:
    table = np.empty(PD_TABLE_END + 1, dtype=np.int64)
    table[:D_OFFSET_CAP] = D_OFFSET_TENTHS_BY_ABS_D[:D_OFFSET_CAP]
    bounds = [low for low, _ in PD_PAST_400_ROWS[1:]] + [PD_TABLE_END + 1]
    for (low, tenths), high in zip(PD_PAST_400_ROWS, bounds):
        table[low:high] = tenths
    return table


_FIDE_TENTHS = _fide_tenths_array()
_FIDE_TENTHS_SIGNED = np.concatenate((-_FIDE_TENTHS[:0:-1], _FIDE_TENTHS))
_FIDE_TENTHS_SIGNED.flags.writeable = False


def fide_tenths_array(d: np.ndarray) -> np.ndarray:
    """sign(d) x FIDE's table 8.1.2 (PD - 0.5) x 200 for any difference, past 400 too."""
    return _FIDE_TENTHS_SIGNED[np.clip(d, -PD_TABLE_END, PD_TABLE_END) + PD_TABLE_END]


# For a rule set that lifts the 400-point rule from a rating on (section 17.2), both tables over
# -736..736 in one array: row 0 the D offsets (which end at 392: the 400-point rule's PD .92),
# row 1 FIDE's table 8.1.2; a side's flat index picks its row without a second lookup.
_BOTH_SIGNED = np.concatenate(
    (
        _D_OFFSET_TENTHS_SIGNED[
            np.clip(np.arange(-PD_TABLE_END, PD_TABLE_END + 1), -D_OFFSET_CAP, D_OFFSET_CAP) + D_OFFSET_CAP
        ],
        _FIDE_TENTHS_SIGNED,
    )
)
_BOTH_SIGNED.flags.writeable = False
_ROW = 2 * PD_TABLE_END + 1


def capped_or_not_tenths_array(d: np.ndarray, uncapped: np.ndarray) -> np.ndarray:
    """sign(d) x (PD - 0.5) x 200: FIDE's table 8.1.2 where ``uncapped``, else the table under
    the 400-point rule (whose PD stops at .92 from 392 on, so a difference past 400 needs no cap)."""
    return _BOTH_SIGNED[np.clip(d, -PD_TABLE_END, PD_TABLE_END) + (PD_TABLE_END + _ROW * uncapped)]
