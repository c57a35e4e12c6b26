"""The detectors' findings as records to store as flags (grading.integrity.evidence.Record): for
each, the sentence, the figures the detector computed and the games it read. A finding is kept when
it touches the events in scope (a month's, or one event's): what a scan was asked about.
"""

import hashlib

import numpy as np

from chess.months import Month
from grading.engine.arrays import is_in
from grading.integrity.detectors.model import GENEROUS
from grading.integrity.detectors.watch import Findings
from grading.integrity.evidence import GameIndex, Record, chance, score
from grading.integrity.loading import Window


def records(window: Window, found: Findings, scope: np.ndarray, index: GameIndex) -> list[Record]:
    """The findings that touch the events of ``scope`` (sorted ids), as records; the arbiters'
    are ``arbiters``'s."""
    return [
        *improbable(window, found, scope),
        *pairings(window, found, scope, index),
        *sandbagging(window, found, scope),
        *pools(window, found, scope),
        *newcomers(window, found, scope),
        *events(window, found, scope, index),
    ]


def in_scope(scope: np.ndarray, events) -> np.ndarray:
    return is_in(np.asarray(events, dtype=np.int64), scope)


def month_of(window: Window, games: np.ndarray) -> str:
    return str(Month.from_index(int(window.game_month[games].max()))) if len(games) else str(window.month)


def white_expected(window: Window, games: np.ndarray, player: int, expected: np.ndarray) -> np.ndarray:
    """White's expected score in each game from ``player``'s ``expected`` in it."""
    return np.where(window.games.white[games] == player, expected, 1 - expected)


def reading(scores, row: int) -> tuple[int, int]:
    """A row's reading (rating used and form) and its most generous one (GENEROUS spreads above)."""
    read = int(scores.rating[row]) + int(scores.form[row])
    return read, read + round(GENEROUS * float(scores.spread[row]))


def improbable(window, found, scope):
    scores = found.scores
    for row in np.flatnonzero(scores.flagged(found.threshold) & in_scope(scope, scores.event)).tolist():
        event, player = int(scores.event[row]), int(scores.player[row])
        games, expected = scores.games_of(row)
        opponents = np.where(window.games.white[games] == player, window.games.black[games], window.games.white[games])
        read, generous = reading(scores, row)
        yield Record(
            kind="improbable",
            key=f"improbable:event {event}:player {player}",
            month=month_of(window, games),
            describe=(
                f"{{p0}} scored {score(scores.halves[row])} of {int(scores.games[row])} in {{e0}}, expected "
                f"{float(scores.expected_halves[row]) / 2:.2f} at {read}; even read at {generous}, a chance of "
                f"{chance(float(scores.upper[row]))}"
            ),
            figures=[
                ("Games", int(scores.games[row])),
                ("Rating used", int(scores.rating[row])),
                ("Form in other events", f"{int(scores.form[row]):+d}"),
                ("Read at (rating used and form)", read),
                ("Uncertainty of their strength", f"±{float(scores.spread[row]):.0f}"),
                ("Opponents' average rating used", round(float(scores.opponents[row]))),
                ("Expected score at their reading", round(float(scores.expected_halves[row]) / 2, 2)),
                ("Score", score(scores.halves[row])),
                (f"Chance of at least that score, read at {generous}", chance(float(scores.upper[row]))),
            ],
            events=[event],
            players=[player, *dict.fromkeys(opponents.tolist())],
            games=games,
            white_expected=white_expected(window, games, player, expected),
        )


def pairings(window, found, scope, index):
    pairs = found.pairings
    for row in np.flatnonzero(pairs.flagged()).tolist():
        first, second = int(pairs.first[row]), int(pairs.second[row])
        games = index.between(first, second)
        met_in = sorted(set(window.games.event[games].tolist()))
        if not in_scope(scope, met_in).any():
            continue
        months = len(set(window.game_month[games].tolist()))
        yield Record(
            kind="pairing",
            key=f"pairing:player {min(first, second)}:player {max(first, second)}",
            month=month_of(window, games),
            describe=(
                f"{{p0}} and {{p1}} met {int(pairs.meetings[row])} times in {len(met_in)} events over {months} "
                f"months (about {float(pairs.expected_meetings[row]):.1f} likely); {{p0}} scored "
                f"{score(pairs.halves[row])} of {int(pairs.meetings[row])}: even read generously, a chance of "
                f"{chance(float(pairs.upper[row]))}"
            ),
            figures=[
                ("Meetings", int(pairs.meetings[row])),
                ("Meetings their events make likely", round(float(pairs.expected_meetings[row]), 2)),
                ("Events", len(met_in)),
                ("Months", months),
                ("Score of the player who scored more", f"{score(pairs.halves[row])} of {int(pairs.meetings[row])}"),
                ("Chance of at least that score, read generously", chance(float(pairs.upper[row]))),
            ],
            events=met_in,
            players=[first, second],
            games=games,
        )


def scored(scores, row: int) -> str:
    """ "4 of 6, expected 1.25": a row's score and its expectation."""
    expected = float(scores.expected_halves[row]) / 2
    return f"{score(scores.halves[row])} of {int(scores.games[row])}, expected {expected:.2f}"


def plain_row(found, event: int, player: int) -> int:
    plain = found.plain
    return int(np.flatnonzero((plain.event == event) & (plain.player == player))[0])


def sandbagging(window, found, scope):
    sandbags, plain = found.sandbagging, found.plain
    touched = in_scope(scope, sandbags.drop_event) | in_scope(scope, sandbags.rebound_event)
    for row in np.flatnonzero(touched).tolist():
        player, drop, rebound = (
            int(sandbags.player[row]),
            int(sandbags.drop_event[row]),
            int(sandbags.rebound_event[row]),
        )
        dropped, rose = plain_row(found, drop, player), plain_row(found, rebound, player)
        (drop_games, drop_expected), (rebound_games, rebound_expected) = plain.games_of(dropped), plain.games_of(rose)
        games = np.concatenate([drop_games, rebound_games])
        fell = int(sandbags.drop_rating[row] - sandbags.rebound_rating[row])
        yield Record(
            kind="sandbagging",
            key=f"sandbagging:player {player}:event {drop}:event {rebound}",
            month=month_of(window, games),
            describe=(
                f"{{p0}} lost to much weaker players in {{e0}} at {int(sandbags.drop_rating[row])} (a chance of "
                f"{chance(float(plain.lower[dropped]))}), then, {fell} points lower, scored far above their rating "
                f"in {{e1}} (a chance of {chance(float(plain.upper[rose]))})"
            ),
            figures=[
                ("Rating used in the drop", int(sandbags.drop_rating[row])),
                ("Opponents' average in the drop", round(float(plain.opponents[dropped]))),
                ("Score in the drop", scored(plain, dropped)),
                ("Chance of at most that score, read as weak as is plausible", chance(float(plain.lower[dropped]))),
                ("Rating used in the rebound", int(sandbags.rebound_rating[row])),
                ("Points the rating fell", fell),
                ("Score in the rebound", scored(plain, rose)),
                ("Chance of at least that score, read as strong as is plausible", chance(float(plain.upper[rose]))),
                ("Months between", int(sandbags.rebound_month[row] - sandbags.drop_month[row])),
            ],
            events=[drop, rebound],
            players=[player],
            games=games,
            white_expected=white_expected(window, games, player, np.concatenate([drop_expected, rebound_expected])),
        )


def members_of(found_pools, row: int) -> np.ndarray:
    ends = np.append(found_pools.start[1:], len(found_pools.members))
    return found_pools.members[found_pools.start[row] : ends[row]]


def pools(window, found, scope):
    found_pools = found.pools
    games = window.games
    for row in np.flatnonzero(found_pools.flagged()).tolist():
        members = members_of(found_pools, row)
        within = np.flatnonzero(is_in(games.white, members) & is_in(games.black, members))
        events_within = sorted(set(games.event[within].tolist()))
        if not in_scope(scope, events_within).any():
            continue
        winner = int(found_pools.winner[row])
        players = [winner, *(int(member) for member in members if member != winner)]
        digest = hashlib.sha256(",".join(map(str, members.tolist())).encode()).hexdigest()[:20]
        won = (
            f"; {{p0}} scored {score(found_pools.winner_halves[row])} of {int(found_pools.winner_games[row])} among "
            f"them (a chance of {chance(float(found_pools.winner_upper[row]))}) and moved "
            f"{int(found_pools.winner_rise[row]):+d}"
        )
        yield Record(
            kind="pool",
            key=f"pool:{digest}",
            month=month_of(window, within),
            describe=(
                f"{len(members)} players ({', '.join(f'{{p{i}}}' for i in range(min(4, len(members))))}"
                f"{', ...' if len(members) > 4 else ''}) played {float(found_pools.share[row]):.0%} of their games "
                f"among themselves in the months they met and moved {float(found_pools.rise[row]):+.0f} on average"
                + won
            ),
            figures=[
                ("Players", int(found_pools.size[row])),
                (
                    "Share of their games among themselves, in the months they met",
                    f"{float(found_pools.share[row]):.0%}",
                ),
                ("Average rise of their ratings used", round(float(found_pools.rise[row]))),
                ("Share of them who rose", f"{float(found_pools.rose[row]):.0%}"),
                (
                    "Their winner's score among them",
                    f"{score(found_pools.winner_halves[row])} of "
                    f"{int(found_pools.winner_games[row])}, expected {float(found_pools.winner_expected[row]) / 2:.1f}",
                ),
                ("Chance of at least that score, read generously", chance(float(found_pools.winner_upper[row]))),
                ("Their winner's rise", int(found_pools.winner_rise[row])),
                ("Events with games among them", len(events_within)),
            ],
            events=events_within,
            players=players,
            games=within,
        )


def newcomers(window, found, scope):
    groups, games = found.newcomers, window.games
    for row in np.flatnonzero(groups.flagged()).tolist():
        at = groups.games_of(row, games)
        events_of = sorted(set(games.event[at].tolist()))
        if not in_scope(scope, events_of).any():
            continue
        members = groups.members[groups.start[row] : groups.start[row] + int(groups.size[row])]
        host = int(groups.host[row])
        hosted = (
            f"; {{p0}} scored {score(groups.top_host_halves[row])} of {int(groups.top_host_games[row])} against them"
            if host
            else ""
        )
        rated = (
            f"; {int(groups.rated_after[row])} came out with first ratings made among them"
            if groups.rated_after[row]
            else ""
        )
        digest = hashlib.sha256(",".join(map(str, members.tolist())).encode()).hexdigest()[:20]
        yield Record(
            kind="newcomers",
            key=f"newcomers:{digest}",
            month=month_of(window, at),
            describe=(
                f"{len(members)} newcomers played {float(groups.share[row]):.0%} of their games among themselves"
                f"{' and against ' + str(int(groups.hosts[row])) + ' rated player(s)' if groups.hosts[row] else ''}"
                + hosted
                + rated
            ),
            figures=[
                ("Newcomers", int(groups.size[row])),
                ("Games among them", int(groups.within[row])),
                ("Games against rated players (their hosts)", int(groups.host_games[row])),
                ("Rated players they met", int(groups.hosts[row])),
                ("Share of their games among them or against their hosts", f"{float(groups.share[row]):.0%}"),
                (
                    "The host's score against them",
                    f"{score(groups.top_host_halves[row])} of {int(groups.top_host_games[row])}" if host else "no host",
                ),
                ("Newcomers who went on to play rated", int(groups.rated_after[row])),
            ],
            events=events_of,
            players=[host, *members.tolist()] if host else members.tolist(),
            games=at,
        )


def events(window, found, scope, index):
    by_event = found.events
    for row in np.flatnonzero(by_event.flagged() & in_scope(scope, by_event.event)).tolist():
        event = int(by_event.event[row])
        games = index.of_event(event)
        players = list(dict.fromkeys(np.concatenate([window.games.white[games], window.games.black[games]]).tolist()))
        met = pairs_met_in(window, found, index, event)
        if met:
            players = [*met[0][:2], *(player for player in players if player not in met[0][:2])]
        yield Record(
            kind="event",
            key=f"event:event {event}",
            month=month_of(window, games),
            describe=(
                "{e0}: every player is of one flagged closed pool"
                if by_event.isolated[row]
                else f"{{e0}}: {int(by_event.flagged_players[row])} of {int(by_event.players[row])} players flagged "
                "by a detector"
            )
            + (met[1] if met else ""),
            figures=[
                ("Players", int(by_event.players[row])),
                ("Players flagged by a detector", int(by_event.flagged_players[row])),
                ("Every player of one flagged closed pool", "yes" if by_event.isolated[row] else "no"),
                *([("A flagged pair's meetings", met[2])] if met else []),
            ],
            events=[event],
            players=players,
            games=games,
        )


def arbiters(window, found) -> list[Record]:
    """The arbiters whose share of flagged events in the window stands out."""
    shares = found.arbiters
    flagged_events = found.events.event[found.events.flagged()]
    arbiter_of = window.events.arbiter[window.events.at(flagged_events)]
    records_ = []
    for row in np.flatnonzero(shares.flagged() & (shares.arbiter > 0)).tolist():
        arbiter = int(shares.arbiter[row])
        records_.append(
            Record(
                kind="arbiter",
                key=f"arbiter:user {arbiter}:{window.month}",
                month=str(window.month),
                describe=(
                    f"{{a0}}: {int(shares.flagged_events[row])} of {int(shares.events[row])} events flagged in the "
                    f"year, against {shares.federation_share:.0%} of the federation's"
                ),
                arbiter=arbiter,
                figures=[
                    ("Their events in the year", int(shares.events[row])),
                    ("Flagged", int(shares.flagged_events[row])),
                    ("The federation's share flagged", f"{shares.federation_share:.1%}"),
                ],
                events=flagged_events[arbiter_of == arbiter].tolist(),
                players=[],
                games=np.zeros(0, dtype=np.int64),
            )
        )
    return records_


def pairs_met_in(window, found, index, event: int):
    """The first flagged pair that met in ``event``: its players, a clause for the event's
    sentence and its figure ("9 in 2 events over 2 months, 9 of 9"), or None."""
    pairs = found.pairings
    for row in np.flatnonzero(pairs.flagged()).tolist():
        first, second = int(pairs.first[row]), int(pairs.second[row])
        games = index.between(first, second)
        if event in window.games.event[games]:
            months = len(set(window.game_month[games].tolist()))
            events_met = len(set(window.games.event[games].tolist()))
            met = f"{int(pairs.meetings[row])} times in {events_met} events over {months} months"
            scored_ = f"{score(pairs.halves[row])} of {int(pairs.meetings[row])}"
            return (
                [first, second],
                f"; {{p0}} and {{p1}} met {met}, {{p0}} scoring {scored_}",
                f"{met}, {scored_}",
            )
    return None
