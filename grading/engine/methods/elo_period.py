"""One period of one list by the Elo method (docs/rules.md sections 9 to 12), vectorised.

Every per-player sum is an exact int64 sum over the two sides of the games (sides.Sides).
"""

from __future__ import annotations

import numpy as np

from grading.engine.codes import (
    FULL,
    METHOD_ELO,
    METHOD_FIRST,
    NO_METHOD,
    NOT_RATED,
    PENDING,
    RATED,
    UNRATED,
    UNRATED_USED,
    USED_AT_START,
)
from grading.engine.inputs.forms import ColumnarInputs, PendingColumns, StateColumns
from grading.engine.method_change import ratings_used
from grading.engine.results.elo import EloGameColumns, EloPeriodResult, EloPlayerColumns
from grading.engine.rules.categories import ages, is_junior
from grading.engine.rules.elo import (
    changed_rating,
    enough_for_first,
    expected_units,
    first_rating,
    junior_by_year,
    k_factor,
    rounded_change,
    score_units,
)
from grading.engine.rules.floors import floors, lifetime_after, peak_read
from grading.engine.sides import Sides, per_player_sum

_LATEST = np.iinfo(np.int64).max


def rate_elo_period(inputs: ColumnarInputs) -> EloPeriodResult:
    rules, period = inputs.rules, inputs.period
    sides = Sides(inputs)
    own = inputs.states_on(inputs.list_code)
    rated_before = own.type == FULL
    prior_rating = np.where(rated_before, own.rating, 0)
    peak = peak_read(rules, own.peak, own.rating, rated_before)
    age = ages(inputs.birth_date, period)
    if rules.elo_junior_through_age is None:
        junior = is_junior(age, rules)
    else:  # section 17.4: until the end of the year they turn 18
        junior = junior_by_year(inputs.birth_date, period.year, rules)

    # Section 10: the opponent's rating at the start of the event, counted only if there is one.
    opponent_used = _opponent_ratings_used(inputs, sides, ratings_used(own))
    counted = opponent_used != UNRATED_USED
    halves = sides.halves

    # The sides that count: a rated player's games against an opponent with a rating used
    # (section 11); an unrated player's too, less the events the first-event rule disregards
    # (section 12, step 1), unless a pending month is still inside the window.
    rated_side = rated_before[sides.player] & counted
    unrated_before = ~rated_before
    live_rows = own.pending.month >= rules.oldest_pending(period).index
    live = own.pending.select(live_rows)

    def live_sum(column: np.ndarray) -> np.ndarray:
        return per_player_sum(live.player, column, inputs.player_count)

    live_games = live_sum(live.games)
    candidate = unrated_before[sides.player] & counted
    kept = candidate & ~_disregarded(inputs, sides, candidate & (live_games[sides.player] == 0))
    # One sum per column serves both: a player's sides are all rated or all unrated.
    taken = rated_side | kept
    taken_count = sides.total(taken.astype(np.int64))
    taken_total = sides.total(np.where(taken, opponent_used, 0))
    taken_halves = sides.total(np.where(taken, halves, 0))
    n, counted_total, counted_halves = (np.where(rated_before, x, 0) for x in (taken_count, taken_total, taken_halves))
    kept_count, kept_total, kept_halves = (
        np.where(rated_before, 0, x) for x in (taken_count, taken_total, taken_halves)
    )

    # Section 11: rated players.
    difference = np.where(rated_side, prior_rating[sides.player] - opponent_used, 0)
    expected = np.where(rated_side, expected_units(difference, rules, prior_rating[sides.player]), 0)
    surplus = np.where(rated_side, score_units(halves) - expected, 0)  # W - PD, in 200ths
    k = k_factor(own.games, junior, prior_rating, peak, n, rules)
    k_used = np.where(rated_before & (n > 0), k.k, 0)
    change_units = k_used * sides.total(surplus)
    rated_rating = changed_rating(prior_rating, rounded_change(change_units, rules), rules)

    # Section 12, steps 2 to 4: unrated players.
    grows = unrated_before & (kept_count > 0)
    first_games = np.where(grows, live_games + kept_count, 0)
    first_total = np.where(grows, live_sum(live.opponents_total) + kept_total, 0)
    first_halves = np.where(grows, live_sum(live.points_halves) + kept_halves, 0)
    enough = grows & enough_for_first(first_games, first_halves, rules)
    first = first_rating(first_games, first_total, first_halves, rules)
    gets_rating = enough & (first.rating >= rules.rating_floor)
    stays_pending = grows & ~gets_rating

    # The new states; a player whose state does not change keeps it as it was.
    rated_changes = rated_before & (n > 0)
    changed = rated_changes | grows
    unfloored = np.select([rated_changes, rated_before, gets_rating], [rated_rating, prior_rating, first.rating], 0)
    # The counters count the games that counted: a rated player's, and the games kept towards
    # a first rating.
    lifetime = lifetime_after(inputs, sides, own, counted=taken)
    floor = floors(rules, rated_changes, lifetime, peak)
    rating = np.maximum(unfloored, floor)
    # Section 17.1: a rated player whose new rating (after part 3's floor) is under the floor
    # becomes unrated, with nothing of their record but the peak and the lifetime counters.
    dropped = rated_changes & (rating < rules.rating_floor)
    played = sides.rated
    players = EloPlayerColumns(
        rated=played,
        category=np.where(played, np.where(rated_before, RATED, UNRATED), NOT_RATED).astype(np.int8),
        method=np.where(played, np.where(rated_before, METHOD_ELO, METHOD_FIRST), NO_METHOD).astype(np.int8),
        age=age,
        junior=junior & played,
        prior_rating=prior_rating,
        prior_type=own.type.astype(np.int8),
        prior_peak=np.where(rated_before, peak, own.peak),
        game_count=sides.count,
        counted=np.where(rated_before, n, kept_count),
        k=k_used,
        k_uncapped=np.where(k_used > 0, k.uncapped, 0),
        k_rule=np.where(rated_changes, k.rule, 0).astype(np.int8),
        change_units=change_units,
        first_games=first_games,
        first_total=first_total,
        first_halves=first_halves,
        first_branch=np.where(enough, first.branch, 0).astype(np.int8),
        first_percent=np.where(enough, first.percent, 0),
        first_bonus=np.where(enough, first.bonus, 0),
        first_rating=np.where(enough, first.rating, 0),
        rating=np.where(dropped, 0, rating),
        below_floor=np.where(dropped, rating, 0),
        type=np.select([dropped, rated_before | gets_rating, stays_pending], [PENDING, FULL, PENDING], own.type).astype(
            np.int8
        ),
        changed=changed,
        state_games=np.select(
            [dropped, rated_changes, gets_rating, stays_pending], [0, own.games + n, first_games, 0], own.games
        ),
        state_opponents_total=np.select(
            [dropped, rated_changes, gets_rating, stays_pending],
            [0, own.opponents_total + counted_total, first_total, 0],
            own.opponents_total,
        ),
        state_points_halves=np.select(
            [dropped, rated_changes, gets_rating, stays_pending],
            [0, own.points_halves + counted_halves, first_halves, 0],
            own.points_halves,
        ),
        # A pending state keeps the peak of a rating lost under the floor (section 17.1); a first
        # rating's peak is the higher of that and the rating.
        state_peak=np.select(
            [dropped, rated_before, gets_rating],
            [peak, np.maximum(peak, rating), np.maximum(own.peak, rating)],
            own.peak,
        ),
        state_last_played=np.where(changed, period.index, own.last_played),
        floor=floor,
        unfloored=unfloored,
        **lifetime.columns(np.ones(inputs.player_count, dtype=bool)),
    )

    def by_game(side_values: np.ndarray) -> np.ndarray:
        return side_values.reshape(2, -1).T

    increment_units = k_used[sides.player] * surplus
    games = EloGameColumns(
        player=by_game(sides.player),
        opponent=by_game(sides.opponent),
        halves=by_game(halves),
        opponent_rating=by_game(opponent_used),
        counted=by_game(np.where(rated_before[sides.player], rated_side, kept)),
        disregarded=by_game(candidate & ~kept),
        difference=by_game(difference),
        expected_units=by_game(expected),
        has_increment=by_game(rated_side),
        increment_units=by_game(increment_units),
    )
    return EloPeriodResult(
        rules=rules,
        list_code=inputs.list_code,
        period=period,
        player_ids=inputs.player_ids,
        players=players,
        games=games,
        prior_states=own,
        pending=_new_pending(own, live_rows, grows, stays_pending, kept_count, kept_total, kept_halves, period),
    )


def _opponent_ratings_used(inputs: ColumnarInputs, sides: Sides, at_start: np.ndarray) -> np.ndarray:
    """Per side: the rating the opponent is counted at, UNRATED_USED where they had none."""
    given = [inputs.black_rating_used, inputs.white_rating_used]  # white's opponent is black
    if given[0] is None and given[1] is None:
        return at_start[sides.opponent]
    m = inputs.game_count
    given = [np.full(m, USED_AT_START, dtype=np.int64) if g is None else np.asarray(g, dtype=np.int64) for g in given]
    by_side = np.concatenate(given)
    return np.where(by_side == USED_AT_START, at_start[sides.opponent], by_side)


def _disregarded(inputs: ColumnarInputs, sides: Sides, newcomer: np.ndarray) -> np.ndarray:
    """Section 12, step 1: the sides of a newcomer's events before the first in which they
    scored. Events are ordered by the date of the player's last counted game in each, then by
    event (no event first); ``newcomer`` marks the counted sides of players with nothing pending."""
    out = np.zeros(len(newcomer), dtype=bool)
    where = np.flatnonzero(newcomer)
    if not where.size:
        return out
    m = inputs.game_count
    events = np.full(m, -1, dtype=np.int64) if inputs.event is None else np.asarray(inputs.event, dtype=np.int64)
    event_span = int(events.max(initial=-1)) + 2  # ranks -1.. become 0..span-1
    days = inputs.game_date.astype("datetime64[D]").astype(np.int64)
    days = days - days.min()
    side_event = np.concatenate((events, events))[where] + 1
    side_day = np.concatenate((days, days))[where]
    group, inverse = np.unique(sides.player[where] * event_span + side_event, return_inverse=True)
    last_day = np.zeros(len(group), dtype=np.int64)
    np.maximum.at(last_day, inverse, side_day)
    scored = np.zeros(len(group), dtype=np.int64)
    np.add.at(scored, inverse, sides.halves[where])
    order = last_day * event_span + group % event_span
    first_scoring = np.full(inputs.player_count, _LATEST, dtype=np.int64)
    np.minimum.at(first_scoring, (group // event_span)[scored > 0], order[scored > 0])
    out[where] = order[inverse] < first_scoring[sides.player[where]]
    return out


def _new_pending(own: StateColumns, live_rows, grows, stays_pending, count, total, halves, period) -> PendingColumns:
    """The pending months after the period: a player whose state changed keeps the live months
    and adds this one while still unrated; everyone else keeps theirs as they were."""
    prior = own.pending
    keep = np.where(grows[prior.player], live_rows & stays_pending[prior.player], True)
    kept = prior.select(keep)
    new = np.flatnonzero(stays_pending)
    rows = PendingColumns(
        *(
            np.concatenate((old, fresh))
            for old, fresh in zip(
                (kept.player, kept.month, kept.games, kept.opponents_total, kept.points_halves),
                (new, np.full(len(new), period.index), count[new], total[new], halves[new]),
            )
        )
    )
    return rows.select(np.lexsort((rows.month, rows.player)))
