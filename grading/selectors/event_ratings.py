"""What an event did to each player's rating, from the ratings that rated its games.

Nothing is computed again: a rating keeps every game as rated (its breakdown, grading.run.breakdown),
so an event's part of it is the lines of the event's games. From them: the rating each player
counted for, the score and performance of their rated games (docs/rules.md section 13, by the
engine's functions), and the change: for a K rating or an Elo rating change the sum of the
event's increments; for a P rating or a first rating, which rate the month as a whole, the
month's change, marked so. A rated event reads the published ratings; an approved one not yet
rated, the live ones (provisional).

On a list rated by the Elo method, the games FIDE's conditions left out: the reasons the run that
published a period kept (GameNotRated, by game of an event and by player of a rating), and the
preview of an event before it is rated, the engine's answer with today's ratings.
"""

import datetime
from collections import Counter, defaultdict, namedtuple
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
from django.db.models import F, Q

from chess import results
from chess.months import Month
from common.bulk import table, where_in
from common.lookups import prepared_cursor
from events.models import Event, Game
from events.standings import RESULT_LABELS, score_symbol
from grading.engine import RULE_SETS
from grading.engine.codes import RESULT_WHITE_HALVES
from grading.engine.event_conditions import NO_ROUND
from grading.engine.rules.elo import fide_performance, performance_of_400
from grading.models import GameNotRated, LiveRating, PlayerRating
from grading.run.breakdown import games_shown, lines
from grading.run.event_facts import decide, events_facts, is_blitz, ratings_at_start, sides_used
from grading.run.periods import latest_published
from grading.run.publishing import latest_states
from players.models import shown_name

INCREMENT_METHODS = (PlayerRating.Method.K, PlayerRating.Method.ELO)


class Performances:
    """The performances of a set of games (docs/rules.md section 13, by the engine's functions)
    from ``used()``: the ratings used of the opponents that had one, and the player's half points
    against them."""

    def used(self) -> tuple[list, list]:
        raise NotImplementedError

    @property
    def performance(self) -> int | None:
        return fide_performance(*self.used())

    @property
    def performance_400(self) -> int | None:
        return performance_of_400(*self.used())


@dataclass
class EventPart(Performances):
    """One player's rated games of one event: their lines, and the ratings they are in."""

    lines: list = field(default_factory=list)
    ratings: list = field(default_factory=list)
    provisional: bool = False

    @property
    def games(self) -> int:
        return len(self.lines)

    @property
    def score(self) -> Decimal:
        return Decimal(sum(line[2] for line in self.lines)) / 2

    def used(self):
        counted = [line for line in self.lines if line[3] is not None]
        return [line[3] for line in counted], [line[2] for line in counted]

    @property
    def by_increments(self) -> bool:
        """Whether the change is the event's own (K and Elo increments), not its month's."""
        return all(rating.method in INCREMENT_METHODS for rating in self.ratings)

    @property
    def change(self) -> Decimal | None:
        """The sum of the event's increments (K, Elo), to one decimal; else the change of the
        months it was rated in (None for a first rating or a player still without one)."""
        if self.by_increments:
            total = sum(Decimal(line[6]) for line in self.lines if line[6] is not None)
            return (total.scaleb(-6)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        first, last = self.ratings[0], self.ratings[-1]
        if first.prior_rating is None or last.rating is None:
            return None
        return Decimal(last.rating - first.prior_rating)

    @property
    def rating_before(self) -> int | None:
        """The rating the player went into the event with: theirs before its first month (None
        for a player without one)."""
        return self.ratings[0].prior_rating if self.ratings else None

    @property
    def rating_after(self) -> int | None:
        return self.ratings[-1].rating if self.ratings else None


def event_parts(event, games) -> dict:
    """{player id: EventPart} of ``event``'s rated players, from its ``games`` (Game rows, or
    plain rows with their fields); each part's ``ratings`` are plain rows of the ratings'
    fields."""
    game_ids = {game.pk for game in games if game.rated and game.white_id and game.black_id}
    if not game_ids:
        return {}
    players = {game.white_id for game in games} | {game.black_id for game in games}
    months = sorted({str(Month.of(game.date)) for game in games if game.pk in game_ids})
    provisional = event.status != event.Status.RATED
    parts = defaultdict(lambda: EventPart(provisional=provisional))
    for rating in ratings_of_event(event.rating_list_id, players - {None}, months, live=provisional):
        mine = [line for line in lines(rating) if line[0] in game_ids]
        if mine:
            part = parts[rating.player_id]
            part.lines += mine
            part.ratings.append(rating)
    return dict(parts)


RATING_FIELDS = ("pk", "player_id", "month", "method", "rating", "prior_rating", "type", "breakdown", "rating_list_id")
RatingRow = namedtuple("RatingRow", RATING_FIELDS)


def ratings_of_event(list_id, player_ids, months, live: bool) -> list[RatingRow]:
    """The current ratings (the live ones if ``live``) of ``player_ids`` on the list for
    ``months``, by month, as plain rows (their breakdowns as the JSON text kept, read by
    grading.run.breakdown.lines): one plain query, as an event page reads one for each of its
    players, and the ORM's building and reading of it cost twice the query."""
    players, player_params = where_in("player_id", sorted(player_ids))
    in_months, month_params = where_in("month", months)
    current = "" if live else " AND superseded_at IS NULL"
    with prepared_cursor(PlayerRating) as cursor:
        cursor.execute(
            "SELECT id, player_id, month, method, rating, prior_rating, type, breakdown, rating_list_id "
            f"FROM {table(LiveRating if live else PlayerRating)} WHERE rating_list_id = %s AND {players} "
            f"AND {in_months}{current} ORDER BY month",
            [list_id, *player_params, *month_params],
        )
        return [RatingRow(*row) for row in cursor.fetchall()]


def ratings_used(parts: dict, games) -> dict:
    """{player id: the rating their opponents counted them at} (the most frequent, where a
    P-rated player counted at pass 1 for some opponents and pass 2 for others)."""
    sides = {game.pk: (game.white_id, game.black_id) for game in games}
    seen = defaultdict(Counter)
    for part in parts.values():
        for line in part.lines:
            white, black = sides.get(line[0], (None, None))
            opponent = black if line[1] == "w" else white
            if opponent is not None and line[3] is not None:
                seen[opponent][line[3]] += 1
    return {player: counts.most_common(1)[0][0] for player, counts in seen.items()}


@dataclass
class PlayedEvent:
    """An event in a player's ratings, with their part of it and the first and last day they
    played in it."""

    code: str
    name: str
    start_date: object
    end_date: object
    rating_list_id: int
    part: EventPart
    list_name: str = ""  # the player page's: the name of the list it was rated on


def events_played(ratings, shown: dict | None = None) -> list[PlayedEvent]:
    """Every event whose games are in ``ratings`` (a player's rating rows, published and live),
    the latest first, with the dates the player played in it. ``shown`` ({game id: GameShown})
    holds the games already read (the player page's recent ones); the others are read in one
    query."""
    by_game = defaultdict(list)
    for rating in ratings:
        for line in lines(rating):
            by_game[line[0]].append((rating, line))
    shown = dict(shown or {})
    missing = [pk for pk in by_game if pk not in shown]
    if missing:
        shown.update(games_shown(missing))
    played = {}
    for pk, pairs in by_game.items():
        game = shown.get(pk)
        if game is None:  # withdrawn since it was rated: in no event any more
            continue
        for rating, line in pairs:
            key = (rating.rating_list_id, game.event.code)
            if key not in played:
                part = EventPart(provisional=isinstance(rating, LiveRating))
                played[key] = PlayedEvent(
                    game.event.code, game.event.name, game.date, game.date, rating.rating_list_id, part
                )
            event = played[key]
            event.start_date, event.end_date = min(event.start_date, game.date), max(event.end_date, game.date)
            event.part.lines.append(line)
            if rating not in event.part.ratings:
                event.part.ratings.append(rating)
    for event in played.values():
        event.part.ratings.sort(key=lambda rating: rating.month)
    return sorted(played.values(), key=lambda event: (event.end_date, event.start_date, event.code), reverse=True)


# What the pages show (selectors): the reasons a publication kept, and the preview of an event.

# The reasons kept by the run that published its period's current revision (the list as it
# stands): a revision's run writes them all again, an earlier run's are history.
PUBLISHED = Q(run__revision=F("run__period__revision"))


@dataclass(frozen=True)
class GameNotRatedShown:
    """A player's game a publication did not rate, from their side, with why."""

    date: datetime.date
    event_code: str
    event_name: str
    round: int | None
    colour: str  # "w" or "b"
    opponent_code: str
    opponent_name: str
    score: str  # "1", "½", "0"
    reason: str


def rating_games_not_rated(rating) -> list[GameNotRatedShown]:
    """The games of ``rating``'s player (a PlayerRating) that the run publishing it left out
    (FIDE's conditions on their events), in the order they were played."""
    player = rating.player_id
    rows = (
        GameNotRated.objects.filter(Q(game__white_id=player) | Q(game__black_id=player), run_id=rating.run_id)
        .order_by("game__date", "game__round", "game_id")
        .values_list(
            "game__date", "game__event__code", "game__event__name", "game__round", "game__result",
            "game__white_id", "game__white__code", "game__white__surname", "game__white__forenames",
            "game__white__name_restricted", "game__black__code", "game__black__surname", "game__black__forenames",
            "game__black__name_restricted", "reason",
        )
    )  # fmt: skip
    shown = []
    for date, code, name, number, result, white, *sides, reason in rows:
        mine = white == player
        opponent = sides[4:8] if mine else sides[0:4]
        score = score_symbol(result, results.scores(result)[0 if mine else 1])
        colour = "w" if mine else "b"
        shown.append(
            GameNotRatedShown(date, code, name, number, colour, opponent[0], shown_name(*opponent[1:]), score, reason)
        )
    return shown


@dataclass(frozen=True)
class GameLeftOut:
    """A game as the pages list those left out: its players' names as the file gives them."""

    pk: int
    round: int | None
    date: datetime.date
    white: str  # the names as the file gives them
    black: str
    result: str  # as the pages write it: "1-0", "½-½"


def by_reason(left_out) -> list[tuple[str, list[GameLeftOut]]]:
    """(reason, GameLeftOut) pairs grouped by reason, in the order the reasons first come."""
    groups: dict[str, list[GameLeftOut]] = {}
    for reason, game in left_out:
        groups.setdefault(reason, []).append(game)
    return list(groups.items())


@dataclass(frozen=True)
class Preview:
    """What FIDE's conditions would do to an event's rated games with today's ratings: the Elo
    rule set read, the latest month of the list published (whose ratings are used; None: none
    yet), how many games were read, and the games left out, by reason in the engine's words."""

    rule_set: str
    ratings_of: Month | None
    games: int
    reasons: list[tuple[str, list[GameLeftOut]]]

    @property
    def not_rated(self) -> int:
        return sum(len(games) for _, games in self.reasons)


def preview(event) -> Preview | None:
    """Which of ``event``'s rated games (section 2) FIDE's conditions would leave out, and why,
    if it went on its list now, on every player's latest published state there as the rating
    used: the engine's ``events_not_rated`` on the event alone, each month's games by the rule
    set in force for their month, as a run decides them (the whole event read for each). None
    where no month of its games is rated by the Elo method (no such conditions), and for an
    event rated already (its public page says which games its runs left out).

    Before approval a player on no federation record yet is a new player, unrated (approval
    registers them); once the event is in rating, a game without both records is not rated
    (section 2) and is not read."""
    if event.status == Event.Status.RATED:
        return None
    games = []
    fields = (
        "pk", "white_id", "black_id", "white_entry_id", "black_entry_id", "result", "round", "date",
        "white_entry__surname", "white_entry__forenames", "black_entry__surname", "black_entry__forenames",
        "white_entry__player__name_restricted", "black_entry__player__name_restricted",
    )  # fmt: skip
    # In the order a run reads them (date, then id): the engine breaks ties of round and date by it.
    rated = Game.objects.rated().filter(event=event).order_by("date", "pk").values_list(*fields)
    for pk, white, black, white_entry, black_entry, result, number, date, *names in rated:
        if event.in_rating and (white is None or black is None):
            continue
        white, black = white or -white_entry, black or -black_entry  # a new player: their entry
        if white != black:
            restricted = names[4:]  # a player's name restricted to initials is so in every file
            shown = shown_name(*names[:2], restricted[0]), shown_name(*names[2:4], restricted[1]), RESULT_LABELS[result]
            game = GameLeftOut(pk, number, date, *shown)
            games.append((white, black, RESULT_WHITE_HALVES[result], game))
    start = Month.of(event.start_date)
    months = {Month.of(game[3].date) for game in games} or {start}
    by_month = {month: event.rating_list.rule_set_for(str(month)) for month in sorted(months)}
    elo = {month: rule_set for month, rule_set in by_month.items() if RULE_SETS[rule_set].is_elo}
    if not elo:
        return None
    rule_set = ", ".join(dict.fromkeys(elo.values()))
    ratings_of = latest_published(event.rating_list)
    if not games:
        return Preview(rule_set, ratings_of, 0, [])
    white, black = (np.array([game[side] for game in games], dtype=np.int64) for side in (0, 1))
    records = np.unique(np.concatenate([white, black]))
    today = latest_states(event.rating_list, Month(9999, 12), among=records[records > 0])
    facts = events_facts([event.pk])
    columns = {
        "event": np.zeros(len(games), dtype=np.int64),
        "white": white,
        "black": black,
        "white_halves": np.array([game[2] for game in games], dtype=np.int64),
        "round": np.array([game[3].round or NO_ROUND for game in games], dtype=np.int64),
        "day": np.array([game[3].date for game in games], dtype="datetime64[D]"),
    }
    read = [game for game in games if Month.of(game[3].date) in elo]
    decided = {}
    for named in set(elo.values()):
        rules = RULE_SETS[named]
        starts = np.full(len(games), start.index)
        used = sides_used(ratings_at_start(event.rating_list, rules, start, today), starts, white, black)
        decided[named] = decide(columns, used, facts, rules, is_blitz(event.rating_list))
    left_out = [
        (text, game)
        for at, (*_, game) in enumerate(games)
        if (named := elo.get(Month.of(game.date))) and (text := decided[named].text(at)) is not None
    ]
    return Preview(rule_set, ratings_of, len(read), by_reason(left_out))
