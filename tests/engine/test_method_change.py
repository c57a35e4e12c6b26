import numpy as np

from chess.months import Month
from grading.engine import RULE_SETS
from grading.engine.codes import FULL, NO_STATE, PARTIAL, PENDING, UNRATED_USED
from grading.engine.inputs.forms import StateColumns
from grading.engine.method_change import ratings_used, states_for_method

OCTOBER = Month.parse("2026-10")
SEPTEMBER, JUNE = (OCTOBER - 1).index, (OCTOBER - 4).index

# Four ECF states read in October: a Full 1850; a Partial 1432 from 4 games (5,600 of
# opponents, 2.5 points) in June; a Full 940 below fide-2017's floor of 1000 from 30 games in
# September; a Partial with no games played.
ECF_STATES = StateColumns(
    type=np.array([FULL, PARTIAL, FULL, PARTIAL], dtype=np.int8),
    rating=np.array([1850, 1432, 940, 1200]),
    games=np.array([60, 4, 30, 0]),
    opponents_total=np.array([110_000, 5_600, 27_000, 0]),
    points_halves=np.array([70, 5, 22, 0]),
    last_played=np.array([SEPTEMBER, JUNE, SEPTEMBER, -1]),
    peak=np.zeros(4, dtype=np.int64),
)


def test_under_elo_only_a_full_rating_at_the_floor_stays_a_rating_and_the_rest_become_pending_months():
    read = states_for_method(ECF_STATES, RULE_SETS["fide-2017"], OCTOBER)

    assert read.type.tolist() == [FULL, PENDING, PENDING, NO_STATE]
    assert read.rating.tolist() == [1850, 0, 0, 0]
    assert read.games.tolist() == [60, 0, 0, 0]
    assert read.last_played.tolist() == [SEPTEMBER, JUNE, SEPTEMBER, -1]
    # Each pending player's one month: its games, opponents' total and points as the ECF kept them.
    months = read.pending
    assert list(zip(months.player, months.month, months.games, months.opponents_total, months.points_halves)) == [
        (1, JUNE, 4, 5_600, 5),
        (2, SEPTEMBER, 30, 27_000, 22),
    ]
    # Only the 1850 is a rating an opponent is counted at.
    assert ratings_used(read).tolist() == [1850, UNRATED_USED, UNRATED_USED, UNRATED_USED]


def test_under_the_ecf_method_a_pending_state_is_no_state_and_the_rest_are_read_as_they_are():
    elo_states = StateColumns(
        type=np.array([FULL, PENDING], dtype=np.int8),
        rating=np.array([1850, 0]),
        games=np.array([60, 0]),
        opponents_total=np.array([110_000, 0]),
        points_halves=np.array([70, 0]),
        last_played=np.array([SEPTEMBER, JUNE]),
        peak=np.array([1900, 0]),
    )

    read = states_for_method(elo_states, RULE_SETS["ecf-2024"], OCTOBER)

    assert read.type.tolist() == [FULL, NO_STATE]
    assert read.rating.tolist() == [1850, 0]
