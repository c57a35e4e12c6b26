"""How many of an event's games its list rates, and why not the others: the one count that the
event page, the arbiter's page and the API's upload answer, the officers' decision page and the
API's event show (docs/site.md, "One count").

A game between two entries (a bye is no game) is not rated when:

- the file says so: a default, or a game it marks unrated (``Game.rated``, with its reason);
- once the event is in rating, it is not between two federation records (docs/rules.md section 2);
- FIDE's conditions on its event leave it out (a list rated by the Elo method, part 4), as decided
  by the publication in force for a month published, by the live computation for a month not
  yet published (what its run will decide, as things stand), and for an event not yet approved
  by the engine with today's ratings (``event_ratings.preview``).

Every one of these is the decision of the code that makes it (the file's check, the run's query,
the engine's conditions): this module only reads them and counts.
"""

from dataclasses import dataclass, field
from functools import cached_property

from chess import results
from chess.months import Month
from events.models import Event
from events.standings import RESULT_LABELS
from grading.engine import RULE_SETS
from grading.selectors.conditions import conditions_text
from grading.selectors.crosstables import EventResults, event_results
from grading.selectors.event_ratings import GameLeftOut, by_reason, preview

PUBLISHED, LIVE, TODAY = "published", "live", "today"


@dataclass
class GameCounts:
    games: int  # between two entries, played or not (byes aside)
    byes: int
    not_rated_by_file: int  # defaults, and games the file marks unrated
    not_between_records: int  # in rating: a side with no federation record (section 2)
    left_out: list = field(default_factory=list)  # [(reason, [GameLeftOut])]: FIDE's conditions
    found_by: str = ""  # whose decision ``left_out`` is: PUBLISHED, LIVE, TODAY, or PUBLISHED and LIVE
    reasons: dict = field(default_factory=dict)  # {game id: why FIDE's conditions leave it out}
    ratings_of: Month | None = None  # decided TODAY: the latest month published, whose ratings are used
    event: object = None  # its rule set is read only where a page asks (``rule_set``)
    elo_rule_set: str | None = None  # known already (TODAY); else read from ``event``
    months: frozenset = frozenset()  # of its games: the rule sets in force for them

    @property
    def left_out_count(self) -> int:
        return sum(len(games) for _, games in self.left_out)

    @property
    def read(self) -> int:
        """The games FIDE's conditions read: rated by the file, between two records."""
        return self.games - self.not_rated_by_file - self.not_between_records

    @property
    def rated(self) -> int:
        return self.read - self.left_out_count

    @cached_property
    def rule_set(self) -> str:
        """The Elo rule sets of the months of the event's games ("fide-2017"); "" where none is
        (the ECF method: no conditions)."""
        if self.elo_rule_set is not None or self.event is None:
            return self.elo_rule_set or ""
        rating_list = self.event.rating_list
        named = (rating_list.rule_set_for(str(month)) for month in sorted(self.months))
        return ", ".join(dict.fromkeys(rule_set for rule_set in named if RULE_SETS[rule_set].is_elo))

    @property
    def conditions(self) -> str:
        """The conditions of its rule sets, named: "playing time, hours a day, ... (the federation's
        rules, part 4)"."""
        return conditions_text(self.rule_set)

    @property
    def decided(self) -> str:
        """Whose decision the games left out are ("": no conditions, a list rated by the ECF method)."""
        return self.found_by if self.rule_set else ""

    @property
    def provisional(self) -> bool:
        """Whether what is left out may still change: decided by the live ratings or today's."""
        return self.decided not in ("", PUBLISHED)


def game_counts(event, shown: EventResults | None = None) -> GameCounts:
    """``event``'s games counted (``shown``: its entries and games read already, the page's)."""
    shown = shown or event_results(event)
    played = [game for game in shown.games if game.black_entry_id]
    by_file = [game for game in played if not (game.rated and game.result in results.PLAYED)]
    read = [game for game in played if game.rated and game.result in results.PLAYED]
    unrecorded = []
    if event.in_rating:  # docs/rules.md section 2: a game between two records, not one record twice
        unrecorded = [game for game in read if not game.white_id or not game.black_id or game.white_id == game.black_id]
        read = [game for game in read if game.white_id and game.black_id and game.white_id != game.black_id]
    counts = {"games": len(played), "byes": len(shown.games) - len(played), "not_rated_by_file": len(by_file)}
    counts["not_between_records"] = len(unrecorded)
    if event.in_rating:  # reasons are kept only on lists rated by the Elo method
        months = frozenset(Month.of(game.date) for game in played) or frozenset({Month.of(event.start_date)})
        return GameCounts(**counts, **decided_in_rating(event, shown, read), event=event, months=months)
    found = preview(event)
    if found is None:
        return GameCounts(**counts, elo_rule_set="")
    reasons = {game.pk: reason for reason, games in found.reasons for game in games}
    return GameCounts(
        **counts,
        left_out=found.reasons,
        found_by=TODAY,
        reasons=reasons,
        ratings_of=found.ratings_of,
        elo_rule_set=found.rule_set,
    )


def decided_in_rating(event, shown: EventResults, read: list) -> dict:
    """What the publications in force left out of an event in rating, in the months published,
    and what the live ratings leave out in the others (a month's live reasons go with the live
    computation after its publication, which the run asks for)."""
    names = {entry.pk: entry.name for entry in shown.entries}
    reasons, left_out, sources = {}, [], set()
    for game in read:
        reason = game.why_not_rated or game.live_why_not_rated
        if reason:
            sources.add(PUBLISHED if game.why_not_rated else LIVE)
            reasons[game.pk] = reason
            white, black = names.get(game.white_entry_id, ""), names.get(game.black_entry_id, "")
            result = RESULT_LABELS.get(game.result, game.result)
            left_out.append((reason, GameLeftOut(game.pk, game.round, game.date, white, black, result)))
    if not sources:
        sources.add(PUBLISHED if event.status == Event.Status.RATED else LIVE)
    found_by = " and ".join(source for source in (PUBLISHED, LIVE) if source in sources)
    return {"left_out": by_reason(left_out), "found_by": found_by, "reasons": reasons}
