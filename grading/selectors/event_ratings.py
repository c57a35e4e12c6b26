"""What an event did to each player's rating, from the ratings that rated its games.

Nothing is computed again: a rating keeps every game as rated (its breakdown, grading.run.breakdown),
so an event's part of it is the lines of the event's games. From them: the rating each player
counted for, the score and performance of their rated games (docs/rules.md section 13, by the
engine's functions), and the change: for a K rating or an Elo rating change the sum of the
event's increments; for a P rating or a first rating, which rate the month as a whole, the
month's change, marked so. A rated event reads the published ratings; an approved one not yet
rated, the live ones (provisional).
"""

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from chess.months import Month
from grading.engine.rules.elo import fide_performance, performance_of_400
from grading.models import LiveRating, PlayerRating
from grading.run.breakdown import games_shown, lines

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
    rows = PlayerRating.objects.filter(superseded_at=None)
    provisional = event.status != event.Status.RATED
    if provisional:
        rows = LiveRating.objects.all()
    rows = rows.filter(rating_list_id=event.rating_list_id, player_id__in=players - {None}, month__in=months).order_by(
        "month"
    )
    parts = defaultdict(lambda: EventPart(provisional=provisional))
    # Plain rows, not model instances: an event page reads one for each of its players.
    fields = ("pk", "player_id", "month", "method", "rating", "prior_rating", "type", "breakdown", "rating_list_id")
    for rating in rows.values_list(*fields, named=True):
        mine = [line for line in lines(rating) if line[0] in game_ids]
        if mine:
            part = parts[rating.player_id]
            part.lines += mine
            part.ratings.append(rating)
    return dict(parts)


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
