"""File 000's two lookup tables and part 5's expected scores past 400 points, copied by hand from the
spec (a second reading for tests only; the engine keeps its own copy)."""

from fractions import Fraction

# File 000's Elo Rating Difference Table: the largest |D| of each row; row i has the D offset 0.2 x i,
# and every |D| past the last row (392 and more) has 8.4.
D_OFFSET_ROW_ENDS = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153,
    162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 289, 302, 315, 328, 344, 357, 374, 391,
]  # fmt: skip

# Part 5, section 16.2: PD of the higher-rated side past 400 points (the rows start at 392, where
# file 000's table already gives 0.92): (largest |diff| of the row, PD in hundredths).
PD_PAST_400 = [(411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98), (735, 99)]

# File 000's Elo Performance Table, p from 0.50 to 1.00 in hundredths; dp(1 - p) = -dp(p).
DP_FROM_HALF = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
]  # fmt: skip


def d_offset(distance: int) -> Fraction:
    """File 000: |D| 0..3 -> 0.0, 4..10 -> 0.2, ..., 392 and more -> 8.4."""
    for row, end in enumerate(D_OFFSET_ROW_ENDS):
        if distance <= end:
            return Fraction(2 * row, 10)
    return Fraction(84, 10)


def higher_side_pd(distance: int) -> Fraction:
    """FIDE's table 8.1.2 for the higher-rated side: 0.5 + D offset / 20 up to 400, part 5's rows past it."""
    if distance <= 400:
        return Fraction(1, 2) + d_offset(distance) / 20
    for end, hundredths in PD_PAST_400:
        if distance <= end:
            return Fraction(hundredths, 100)
    return Fraction(1)


def dp(hundredths: int) -> int:
    """dp for a score fraction p = hundredths / 100 (0..100)."""
    if hundredths >= 50:
        return DP_FROM_HALF[hundredths - 50]
    return -DP_FROM_HALF[50 - hundredths]


assert len(D_OFFSET_ROW_ENDS) == 42 and len(DP_FROM_HALF) == 51
