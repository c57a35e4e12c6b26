"""What a flag shows a rating officer: a sentence, the figures the detector computed, the games it
read (each with white's expected score as the detector read it) and a chart of the ratings
involved. Nothing is computed again here: the figures are the detectors', the games the window's;
grading.integrity.records turns each detector's findings into records.
"""

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
from grading.integrity.detectors.improbable import expected_score
from grading.integrity.detectors.pairings import pair_key
from grading.integrity.loading import WINDOW_MONTHS, Window
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
    # White's expected score in each of ``games`` as the detector read it (its players' form and
    # all); None: at the ratings used alone.
    white_expected: np.ndarray | None = field(default=None, repr=False)

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
            "games": game_rows(window, self.games, names, self.white_expected),
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


def game_rows(window: Window, games: np.ndarray, names: Names, white_expected=None) -> list[dict]:
    shown = window.games
    rows = []
    if white_expected is None:  # the game model at the ratings used alone, where both had one
        white_expected = expected_score(shown.white_rating[games], shown.black_rating[games])
    for game, expected in zip(games[:SHOWN_GAMES].tolist(), white_expected[:SHOWN_GAMES].tolist()):
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
                "white_expected": round(float(expected), 2) if rated else None,
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
