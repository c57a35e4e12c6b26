"""What a flag shows a rating officer: a sentence, the figures the signal computed, the games it
read and a chart of the ratings involved, from the signals' findings over a window of games.
Nothing is computed again here: the figures are the signals', the games the window's.

A finding is kept when it touches the events in scope (a month's, or one event's): what a scan
was asked about.
"""

import hashlib
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from django.contrib.auth import get_user_model

from chess.months import Month
from chess.names import full_name
from events.models import Event
from events.standings import RESULT_LABELS
from grading.engine.arrays import is_in
from grading.engine.codes import RESULT_WHITE_HALVES
from grading.integrity.loading import WINDOW_MONTHS, Window
from grading.integrity.signals.improbable import expected_score
from grading.integrity.signals.pairings import pair_key
from grading.integrity.signals.watch import Findings
from players.models import Player

CHART_PLAYERS = 8  # the ratings of at most this many players are drawn
SHOWN_GAMES = 60  # the games listed in one flag's evidence, at most
RESULTS = {halves: RESULT_LABELS[result] for result, halves in RESULT_WHITE_HALVES.items()}  # 2: "1-0"


@dataclass
class Record:
    """One finding as it is stored (grading.models.Flag)."""

    kind: str
    key: str
    month: str
    # The sentence that sums it up, its names as fields: {p0}, {p1}... its players', {e0}, {e1}
    # its events', {a0} its arbiter's (``summary``).
    describe: str
    figures: list
    events: list
    players: list
    games: np.ndarray = field(repr=False)  # positions in the window
    arbiter: int = 0

    def summary(self, names: "Names") -> str:
        fields = {f"p{i}": names.player(pk) for i, pk in enumerate(self.players[:4])}
        fields |= {f"e{i}": names.event(pk) for i, pk in enumerate(self.events[:2])}
        fields |= {"a0": names.arbiters.get(self.arbiter, f"arbiter {self.arbiter}")}
        return self.describe.format(**fields)

    @property
    def charted(self) -> list:
        """The players whose ratings its chart draws."""
        return self.players[:CHART_PLAYERS]

    def evidence(self, names: "Names", window: Window, charts: "Charts") -> dict:
        return {
            "figures": self.figures,
            "games": game_rows(window, self.games, names),
            "chart": rating_chart(window, charts, self.charted, names),
        }


def chance(probability: float) -> str:
    """A probability as a person reads it: "1 in 65,536"."""
    if probability <= 0:
        return "less than 1 in a trillion"
    odds = 1 / probability
    return "less than 1 in a trillion" if odds >= 1e12 else f"1 in {round(odds):,}"


def score(halves) -> str:
    return f"{int(halves) // 2}{'½' if int(halves) % 2 else ''}".replace("0½", "½")


class Names:
    """The names of the players, events and arbiters of a scan's findings, read at once."""

    def __init__(self, players, events, arbiters=()):
        found = Player.objects.filter(pk__in=list(players)).values_list("pk", "surname", "forenames")
        self.players = {pk: full_name(surname, forenames) for pk, surname, forenames in found}
        self.events = {
            pk: (code, name)
            for pk, code, name in Event.objects.filter(pk__in=list(events)).values_list("pk", "code", "name")
        }
        users = get_user_model().objects.filter(pk__in=list(arbiters))
        self.arbiters = {user.pk: user.get_full_name() or user.get_username() for user in users}

    def player(self, pk) -> str:
        return self.players.get(pk, f"player {pk}")

    def event(self, pk) -> str:
        return self.events.get(pk, (f"event {pk}", ""))[0]


class Lookup:
    """Where each value of an array stands, the array sorted once."""

    def __init__(self, values: np.ndarray):
        self.order = np.argsort(values, kind="stable")
        self.sorted = values[self.order]

    def __call__(self, value) -> np.ndarray:
        return self.order[np.searchsorted(self.sorted, value) : np.searchsorted(self.sorted, value, "right")]


class GameIndex:
    """The window's games found by event and by pair of players, each sorted once, when first
    asked for: a scan that finds nothing sorts nothing."""

    def __init__(self, window: Window):
        self.games = window.games

    @cached_property
    def by_event(self) -> Lookup:
        return Lookup(self.games.event)

    @cached_property
    def by_pair(self) -> Lookup:
        return Lookup(pair_key(self.games.white, self.games.black))

    def of_event(self, event: int) -> np.ndarray:
        return self.by_event(event)

    def between(self, a: int, b: int) -> np.ndarray:
        return self.by_pair(pair_key(np.array([a]), np.array([b]))[0])


class Charts:
    """Where the players that flags chart played, among both sides of the window's games (white's,
    then black's): those few, not every player of the window, sorted."""

    def __init__(self, window: Window, players):
        games = window.games
        sides = np.concatenate([games.white, games.black])
        self.sides = np.flatnonzero(is_in(sides, np.fromiter(players, dtype=np.int64)))
        self.by_player = Lookup(sides[self.sides])

    def sides_of(self, player: int) -> np.ndarray:
        return self.sides[self.by_player(player)]


def records(window: Window, found: Findings, scope: np.ndarray, index: GameIndex) -> list[Record]:
    """The findings that touch the events of ``scope`` (sorted ids), as records; the arbiters'
    are ``arbiters``'s."""
    return [
        *improbable(window, found, scope, index),
        *pairings(window, found, scope, index),
        *sandbagging(window, found, scope, index),
        *pools(window, found, scope),
        *events(window, found, scope, index),
    ]


def in_scope(scope: np.ndarray, events) -> np.ndarray:
    return is_in(np.asarray(events, dtype=np.int64), scope)


def month_of(window: Window, games: np.ndarray) -> str:
    return str(Month.from_index(int(window.game_month[games].max()))) if len(games) else str(window.month)


def improbable(window, found, scope, index):
    scores = found.scores
    for row in np.flatnonzero(scores.flagged(found.threshold) & in_scope(scope, scores.event)).tolist():
        event, player = int(scores.event[row]), int(scores.player[row])
        games = index.of_event(event)
        games = games[(window.games.white[games] == player) | (window.games.black[games] == player)]
        opponents = np.concatenate(
            [
                window.games.black[games][window.games.white[games] == player],
                window.games.white[games][window.games.black[games] == player],
            ]
        )
        yield Record(
            kind="improbable",
            key=f"improbable:event {event}:player {player}",
            month=month_of(window, games),
            describe=(
                f"{{p0}} scored {score(scores.halves[row])} of {int(scores.games[row])} in {{e0}}, expected "
                f"{float(scores.expected_halves[row]) / 2:.1f}: a chance of {chance(float(scores.upper[row]))}"
            ),
            figures=[
                ("Games", int(scores.games[row])),
                ("Rating used", int(scores.rating[row])),
                ("Form in other events", f"{int(scores.form[row]):+d}"),
                ("Opponents' average", round(float(scores.opponents[row]))),
                ("Expected score", round(float(scores.expected_halves[row]) / 2, 2)),
                ("Score", score(scores.halves[row])),
                ("Chance of at least that score", chance(float(scores.upper[row]))),
            ],
            events=[event],
            players=[player, *dict.fromkeys(opponents.tolist())],
            games=games,
        )


def pairings(window, found, scope, index):
    pairs = found.pairings
    for row in np.flatnonzero(pairs.flagged()).tolist():
        first, second = int(pairs.first[row]), int(pairs.second[row])
        games = index.between(first, second)
        met_in = sorted(set(window.games.event[games].tolist()))
        if not in_scope(scope, met_in).any():
            continue
        yield Record(
            kind="pairing",
            key=f"pairing:player {min(first, second)}:player {max(first, second)}",
            month=month_of(window, games),
            describe=(
                f"{{p0}} and {{p1}} met {int(pairs.meetings[row])} times in {len(met_in)} events (about "
                f"{float(pairs.expected_meetings[row]):.1f} likely); {{p0}} scored {score(pairs.halves[row])}: a "
                f"chance of {chance(float(pairs.upper[row]))}"
            ),
            figures=[
                ("Meetings", int(pairs.meetings[row])),
                ("Meetings their events make likely", round(float(pairs.expected_meetings[row]), 2)),
                ("Events", len(met_in)),
                ("Score of the player who scored more", f"{score(pairs.halves[row])} of {int(pairs.meetings[row])}"),
                ("Chance of at least that score", chance(float(pairs.upper[row]))),
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


def sandbagging(window, found, scope, index):
    sandbags = found.sandbagging
    touched = in_scope(scope, sandbags.drop_event) | in_scope(scope, sandbags.rebound_event)
    for row in np.flatnonzero(touched).tolist():
        player, drop, rebound = (
            int(sandbags.player[row]),
            int(sandbags.drop_event[row]),
            int(sandbags.rebound_event[row]),
        )
        dropped, rose = plain_row(found, drop, player), plain_row(found, rebound, player)
        games = np.concatenate([index.of_event(drop), index.of_event(rebound)])
        games = games[(window.games.white[games] == player) | (window.games.black[games] == player)]
        plain = found.plain
        yield Record(
            kind="sandbagging",
            key=f"sandbagging:player {player}:event {drop}:event {rebound}",
            month=month_of(window, games),
            describe=(
                f"{{p0}} lost to much weaker players in {{e0}} at {int(sandbags.drop_rating[row])}, then scored "
                f"far above their rating in {{e1}} at {int(sandbags.rebound_rating[row])}"
            ),
            figures=[
                ("Rating used in the drop", int(sandbags.drop_rating[row])),
                ("Opponents' average in the drop", round(float(plain.opponents[dropped]))),
                ("Score in the drop", scored(plain, dropped)),
                ("Chance of at most that score", chance(float(plain.lower[dropped]))),
                ("Rating used in the rebound", int(sandbags.rebound_rating[row])),
                ("Score in the rebound", scored(plain, rose)),
                ("Chance of at least that score", chance(float(plain.upper[rose]))),
                ("Months between", int(sandbags.rebound_month[row] - sandbags.drop_month[row])),
            ],
            events=[drop, rebound],
            players=[player],
            games=games,
        )


def pools(window, found, scope):
    found_pools = found.pools
    flagged = found_pools.flagged()
    ends = np.append(found_pools.start[1:], len(found_pools.members))
    games = window.games
    for row in np.flatnonzero(flagged).tolist():
        members = found_pools.members[found_pools.start[row] : ends[row]]
        within = np.flatnonzero(np.isin(games.white, members) & np.isin(games.black, members))
        events_within = sorted(set(games.event[within].tolist()))
        if not in_scope(scope, events_within).any():
            continue
        digest = hashlib.sha256(",".join(map(str, members.tolist())).encode()).hexdigest()[:20]
        yield Record(
            kind="pool",
            key=f"pool:{digest}",
            month=month_of(window, within),
            describe=(
                f"{len(members)} players ({', '.join(f'{{p{i}}}' for i in range(min(4, len(members))))}"
                f"{', ...' if len(members) > 4 else ''}) played {float(found_pools.share[row]):.0%} of their games "
                f"among themselves and rose {float(found_pools.rise[row]):.0f} on average"
            ),
            figures=[
                ("Players", int(found_pools.size[row])),
                ("Share of their games among themselves", f"{float(found_pools.share[row]):.0%}"),
                ("Average rise of their ratings used", round(float(found_pools.rise[row]))),
                ("Share of them who rose", f"{float(found_pools.rose[row]):.0%}"),
                ("Events with games among them", len(events_within)),
            ],
            events=events_within,
            players=members.tolist(),
            games=within,
        )


def events(window, found, scope, index):
    by_event = found.events
    for row in np.flatnonzero(by_event.flagged() & in_scope(scope, by_event.event)).tolist():
        event = int(by_event.event[row])
        games = index.of_event(event)
        players = list(dict.fromkeys(np.concatenate([window.games.white[games], window.games.black[games]]).tolist()))
        yield Record(
            kind="event",
            key=f"event:event {event}",
            month=month_of(window, games),
            describe=(
                "{e0}: every player is of one closed pool"
                if by_event.isolated[row]
                else f"{{e0}}: {int(by_event.flagged_players[row])} of {int(by_event.players[row])} players flagged "
                "by a signal"
            ),
            figures=[
                ("Players", int(by_event.players[row])),
                ("Players flagged by a signal", int(by_event.flagged_players[row])),
                ("Every player of one closed pool", "yes" if by_event.isolated[row] else "no"),
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


def game_rows(window: Window, games: np.ndarray, names: Names) -> list[dict]:
    shown = window.games
    rows = []
    for game in games[:SHOWN_GAMES].tolist():
        white, black = int(shown.white[game]), int(shown.black[game])
        white_rating, black_rating = int(shown.white_rating[game]), int(shown.black_rating[game])
        rated = white_rating and black_rating
        rows.append(
            {
                "event": names.event(int(shown.event[game])),
                "month": str(Month.from_index(int(window.game_month[game]))),
                "white": names.player(white),
                "white_rating": white_rating or None,
                "black": names.player(black),
                "black_rating": black_rating or None,
                "result": RESULTS[int(shown.white_halves[game])],
                # White's expected score at the ratings used alone (the signals' own function).
                "white_expected": round(float(expected_score(np.array([white_rating]), np.array([black_rating]))[0]), 2)
                if rated
                else None,
            }
        )
    return rows


def rating_chart(window: Window, charts: Charts, players: list, names: Names) -> dict:
    """Each player's rating used in their first game of each month of the window (None where
    they played no game that month, or played unrated), month by month."""
    games, count = window.games, len(window.games.event)
    months = [window.month - back for back in range(WINDOW_MONTHS - 1, -1, -1)]
    first = months[0].index
    ratings_used = np.concatenate([games.white_rating, games.black_rating])
    series = []
    for player in players:
        ratings = [None] * WINDOW_MONTHS
        sides = charts.sides_of(player)
        sides = sides[np.argsort(sides % count, kind="stable")]  # in the order played
        game = sides % count
        # From the last game to the first, so that each month keeps its first.
        for month, value in zip(window.game_month[game][::-1].tolist(), ratings_used[sides][::-1].tolist()):
            if 0 <= month - first < WINDOW_MONTHS and value:
                ratings[month - first] = int(value)
        series.append({"name": names.player(player), "ratings": ratings})
    return {"months": [str(month) for month in months], "series": series}
