"""The rating calculator: what a set of games would do to a rating, worked out by the engine.

A trial month of one list, the month after its latest published list: the player (by code,
from their latest published state; or a rating, type and age typed by hand) and their
opponents (by code, from their latest published states; or a rating, taken as a Full rating
in use), with the games given as the month's only games. The engine rates that month as a run
would, and the explanation is built from what it returned, by the code of the calculation page.
Nothing is stored.
"""

import datetime
import json
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from grading.engine import RULE_SETS, Month, RuleSet
from grading.engine.codes import FULL, NO_STATE, PARTIAL, USED_AT_START
from grading.engine.inputs.forms import ColumnarInputs
from grading.engine.method_change import states_for_method
from grading.engine.rule_sets import lists_read
from grading.engine.rules.floors import peak_read
from grading.models import LiveRating, PlayerRating, RatingList
from grading.run.breakdown import EventShown, GameShown, PlayerShown, RatedGame, resolve
from grading.run.loading import PeriodData, hold_out_impossible_birth_dates
from grading.run.publishing import states_at_start
from grading.run.rating import rate_loaded
from grading.selectors.calculations import Calculation, calculation_of
from grading.selectors.event_ratings import Performances
from grading.selectors.history import latest_publications, latest_state_before
from players.models import Player

MAX_OPPONENTS = 60  # a season of club matches; a month's real maximum is far below


@dataclass(frozen=True)
class ByHand:
    """A player typed in: a rating (None: none yet), its type, the games behind it, age, title."""

    rating: int | None = None
    type: str = "full"  # "full" or "partial"
    games: int | None = None  # None: enough for a settled rating (CONSIDERED_GAMES)
    age: int | None = None  # None: an adult of unknown age
    title: str = ""


@dataclass(frozen=True)
class Opponent:
    player: Player | None  # None: an opponent given by rating
    rating: int | None
    halves: int  # the player's score against them: 2 win, 1 draw, 0 loss

    @property
    def shown(self) -> PlayerShown:
        if self.player:
            return PlayerShown(self.player.code, self.player.name)
        return PlayerShown("", f"an opponent rated {self.rating}")


# Games behind a rating typed in without them: enough that no new-player rule applies.
CONSIDERED_GAMES = 30


@dataclass(frozen=True)
class PriorShown:
    """The state the trial starts from, as the calculation page shows a prior rating."""

    rating: int | None
    type: str
    month: str = ""
    last_played: str = ""


@dataclass
class Trial(Performances):
    rating_list: RatingList
    month: Month
    rules: RuleSet
    player: Player | None
    title: str | None  # the player's FIDE title, as the dummy rules read it
    opponents: list[Opponent]
    prior: PriorShown | PlayerRating | None
    rating: LiveRating | None  # the new state (never saved); None: the games give no state
    games: list[RatedGame]
    calculation: Calculation | None
    notes: list

    @property
    def score(self):
        return Decimal(sum(opponent.halves for opponent in self.opponents)) / 2

    @property
    def change(self) -> int | None:
        if self.rating is None or self.prior is None or self.prior.rating is None:
            return None
        if self.rating.rating is None:  # FIDE's 2024 rules: the month's change unrated the player
            elo = self.calculation.elo if self.calculation else None
            return elo.rounded if elo is not None and elo.unrated else None
        return self.rating.rating - self.prior.rating

    def used(self):
        counted = [game for game in self.games if game.opponent_rating is not None]
        return [game.opponent_rating for game in counted], [int(game.score * 2) for game in counted]


def trial_month(rating_list: RatingList, today: datetime.date) -> Month:
    """The month a trial rates: the one after the latest published list (this month if none), as
    every public page reads the latest publications (kept in the cache under their generation)."""
    latest = latest_publications().get(rating_list.pk)
    return Month.parse(latest.period.month) + 1 if latest else Month.of(today)


def rules_of(rating_list: RatingList, month: Month) -> RuleSet:
    return RULE_SETS[rating_list.rule_set_for(str(month))]


def calculate(
    rating_list: RatingList,
    month: Month,
    rules: RuleSet,
    player: Player | ByHand,
    opponents: list[Opponent],
    lists: dict[str, RatingList],
) -> Trial:
    """Rate ``player``'s games against ``opponents`` as ``rating_list``'s run of ``month`` would,
    under ``rules`` (rules_of the list and month), if they were the month's only games; ``lists``
    are the rating lists by code (the method reads the others' states). Raises EngineInputError
    for what the engine refuses."""
    typed = player if isinstance(player, ByHand) else None
    # Engine ids: records by primary key; the players typed in below zero (-1 the player).
    subject = -1 if typed else player.pk
    ids = [subject] + [o.player.pk if o.player else -2 - i for i, o in enumerate(opponents)]
    player_ids = np.unique(np.asarray(ids, dtype=np.int64))
    position = {pk: at for at, pk in enumerate(player_ids.tolist())}
    records = player_ids[player_ids > 0]

    states = {}
    for code in (rating_list.code, *lists_read(rating_list.code, rules)):
        other = lists.get(code)
        states[code] = states_at_start(other, month, among=records).columns_for(player_ids) if other else None
    columns = states[rating_list.code]
    typed_in = [(subject, typed)] if typed else []
    typed_in += [(-2 - i, ByHand(o.rating)) for i, o in enumerate(opponents) if not o.player]
    for pk, given in typed_in:
        set_state(columns, position[pk], given, month)
    states = {code: states_for_method(read, rules, month) for code, read in states.items() if read is not None}

    birth_date = np.full(len(player_ids), np.datetime64("NaT"), dtype="datetime64[D]")
    title = [None] * len(player_ids)
    for record in [*([] if typed else [player]), *(o.player for o in opponents if o.player)]:  # read already
        birth_date[position[record.pk]] = record.birth_date or np.datetime64("NaT")
        title[position[record.pk]] = record.fide_title or None
    if typed:
        birth_date[position[subject]] = born_at_age(typed.age, month)
        title[position[subject]] = typed.title or None
    birth_date, notes = hold_out_impossible_birth_dates(player_ids, birth_date, month)

    count = len(opponents)
    white_is_player = np.arange(count) % 2 == 0  # colours alternate: they change no rating
    me = np.full(count, position[subject])
    them = np.asarray([position[pk] for pk in ids[1:]], dtype=np.int64)
    halves = np.asarray([o.halves for o in opponents], dtype=np.int8)
    elo = {}
    if rules.is_elo:
        elo = {
            "game_date": np.full(count, np.datetime64(month.first_day(), "D")),
            "event": np.zeros(count, dtype=np.int64),  # one event: the games typed in
            "white_rating_used": np.full(count, USED_AT_START, dtype=np.int64),
            "black_rating_used": np.full(count, USED_AT_START, dtype=np.int64),
        }
    inputs = ColumnarInputs(
        rules=rules,
        list_code=rating_list.code,
        period=month,
        player_ids=player_ids,
        birth_date=birth_date,
        title=title,
        states=states,
        white=np.where(white_is_player, me, them),
        black=np.where(white_is_player, them, me),
        white_halves=np.where(white_is_player, halves, 2 - halves).astype(np.int8),
        **elo,
    )
    own, at = states[rating_list.code], position[subject]
    start_peak = int(peak_read(rules, own.peak[at], own.rating[at], own.type[at] == FULL)) or None  # as the run read it
    rows, _, _ = rate_loaded(PeriodData(inputs, np.arange(count, dtype=np.int64), [], None, notes))
    prior = prior_shown(typed, columns, position[subject]) if typed else prior_of(player, rating_list, month)
    rating = new_rating(rows, subject, rating_list, month, rules)
    games = []
    if rating is not None:
        shown = games_shown(month, player, opponents)
        games = resolve([(rating, line) for line in json.loads(rating.breakdown)], shown)
    return Trial(
        rating_list=rating_list,
        month=month,
        rules=rules,
        player=None if typed else player,
        title=(typed.title if typed else player.fide_title) or None,
        opponents=opponents,
        prior=prior,
        rating=rating,
        games=games,
        calculation=calculation_of(rating, games, start_peak) if rating else None,
        notes=notes,
    )


def set_state(columns, at: int, given: ByHand, month: Month):
    """A typed-in rating as a state in use: last played the month before, its games (a Full
    one's enough to be settled) scored at the rating itself."""
    if given.rating is None:
        columns.type[at] = NO_STATE
        return
    games = given.games if given.games is not None else CONSIDERED_GAMES
    columns.type[at] = PARTIAL if given.type == "partial" else FULL
    columns.rating[at] = given.rating
    columns.games[at] = games
    columns.opponents_total[at] = given.rating * games
    columns.points_halves[at] = games  # half the points: a performance at the rating
    columns.last_played[at] = (month - 1).index
    columns.peak[at] = given.rating


def born_at_age(age: int | None, month: Month):
    """A birth date giving ``age`` completed years on the month's first day (NaT: unknown)."""
    if age is None:
        return np.datetime64("NaT")
    first = month.first_day()
    return np.datetime64(first.replace(year=first.year - age) - datetime.timedelta(days=1), "D")


def new_rating(rows: dict, subject: int, rating_list, month: Month, rules: RuleSet) -> LiveRating | None:
    """The player's new state as an unsaved LiveRating (what the calculation page reads)."""
    if subject not in rows["player_id"]:
        return None
    at = rows["player_id"].index(subject)
    values = {name: column[at] for name, column in rows.items() if name != "player_id"}
    values["pending"] = json.loads(values.get("pending", "[]"))
    values["points"] = Decimal(values["points"])
    if values.get("k_factor") is not None:
        values["k_factor"] = Decimal(values["k_factor"])
    return LiveRating(
        rating_list=rating_list,
        month=str(month),
        rule_set=rules.name,
        **values,
    )


def games_shown(month: Month, player, opponents: list[Opponent]) -> dict:
    """{game position: GameShown} of the games typed in, as the games table shows them."""
    me = PlayerShown("", "you") if isinstance(player, ByHand) else PlayerShown(player.code, player.name)
    shown = {}
    for i, opponent in enumerate(opponents):
        white, black = (me, opponent.shown) if i % 2 == 0 else (opponent.shown, me)
        shown[i] = GameShown(i, month.first_day(), None, None, EventShown("", f"game {i + 1}"), white, black)
    return shown


def prior_shown(typed: ByHand, columns, at: int) -> PriorShown | None:
    if typed.rating is None:
        return None
    return PriorShown(typed.rating, "partial" if columns.type[at] == PARTIAL else "full")


def prior_of(player: Player, rating_list, month: Month) -> PlayerRating | None:
    """The player's published state the trial starts from."""
    return latest_state_before(player.pk, rating_list.pk, str(month))
