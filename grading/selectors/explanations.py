"""The explanation of a rating as a person checks it, the calculation page's and the
calculator's: the engine's exact fractions (grading.selectors.calculations) written as decimals,
and the words for why K, the dummy and a pending player's progress are what they are. Nothing
here computes a rating; the pages only render what it returns.
"""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from chess.months import Month
from chess.numbers import signed
from common.lookups import rows_with
from grading.engine.results.ecf_arithmetic import GameArithmetic, PassArithmetic
from grading.engine.results.elo_arithmetic import EloArithmetic, FirstRatingProgress
from grading.engine.rule_sets import RuleSet
from grading.engine.rules.categories import explain_dummy
from grading.engine.rules.tables import d_offset_row
from grading.models import PlayerRating
from grading.run.breakdown import rated_games
from grading.selectors.calculations import Calculation, calculation_of, prior_peak
from grading.selectors.conditions import conditions_text
from grading.selectors.event_ratings import rating_games_not_rated
from grading.selectors.history import state_before
from grading.selectors.rule_sets import rules_named
from players.ages import age_shown
from players.privacy import privacy_setting


def decimal(value: Fraction, places: int) -> Decimal:
    """An exact fraction written to ``places`` decimals, rounded half up."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def plain(value: Decimal) -> str:
    """A decimal without trailing zeros: 12.800000 is 12.8, 100.000000 is 100."""
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def signed_term(value) -> str:
    """A number as the second term of a sum: ``+ 43`` or ``− 43``."""
    return f"+ {value}" if value >= 0 else f"− {-value}"


@dataclass(frozen=True)
class PassShown:
    label: str
    step: PassArithmetic
    published: int | None

    @property
    def differs(self) -> bool:
        return self.published is not None and self.published != self.step.rating

    @property
    def shown(self) -> dict:
        step = self.step
        return {
            "prior_points": decimal(step.prior_points, 1),
            "scored": decimal(step.scored, 1),
            "points": decimal(step.points, 1),
            "p": decimal(step.p, 4),
            "p_rounded": decimal(Fraction(step.percent, 100), 2),
            "dp": signed(step.dp),
            "average": decimal(step.average, 2),
            "dp_term": signed_term(step.dp),
            "exact": decimal(step.exact, 2),
        }


def passes_shown(calculation: Calculation, rating) -> list[PassShown]:
    labels = ("Pass 1 (rating A)", "Pass 2 (rating B, the result)")
    published = (rating.pass1, rating.pass2)
    return [PassShown(*shown) for shown in zip(labels, calculation.passes, published)]


def k_shown(calculation: Calculation) -> dict | None:
    k = calculation.k
    if k is None:
        return None
    change = decimal(k.change, 2)
    return {
        "k": plain(decimal(k.k, 6)),
        "change": signed(change),
        "change_term": signed_term(change),
        "adjustment": decimal(k.adjustment, 2),
        "adjustment_term": signed_term(decimal(k.adjustment, 2)),
        "exact": decimal(k.exact, 2),
    }


def k_reason(elo: EloArithmetic, rules: RuleSet) -> str:
    """Why the player's K is what it is (docs/rules.md section 11), in the rule set's numbers."""
    why = {
        "new-player": f"fewer than {rules.elo_new_player_games} games rated before this month",
        "junior": f"a junior ({junior_text(rules)}) rated under {rules.elo_junior_below_rating}",
        "top": f"rated {rules.elo_top_peak} or more at some time",
        "base": "the K of every player no other rule applies to",
        "flat": f"the K of every player under {rules.name}",
    }[elo.k_rule]
    if not elo.capped:
        return f"K is {elo.k}: {why}."
    return (
        f"K would be {elo.k_uncapped} ({why}), but {elo.k_uncapped} × {elo.counted} games = "
        f"{elo.k_uncapped * elo.counted} is more than {rules.k_cap}: K is {rules.k_cap} / {elo.counted}, "
        f"rounded down, {elo.k}."
    )


def junior_text(rules: RuleSet) -> str:
    """Who is a junior for the Elo K: under FIDE's 2024 rules by birth year, before by age."""
    if rules.elo_junior_through_age:
        return f"until the end of the year they turn {rules.elo_junior_through_age}"
    return f"under {rules.junior_below_age}"


def elo_shown(elo: EloArithmetic | None, rules: RuleSet, rating) -> dict | None:
    if elo is None:
        return None
    return {
        "expected": decimal(elo.expected, 2),
        "score": decimal(elo.score, 1),
        "surplus": signed(decimal(elo.score - elo.expected, 2)),
        "change": signed(decimal(elo.change, 2)),
        "rounded_term": signed_term(elo.rounded),
        "rounded": signed(elo.rounded),
        "rounding": "rounded half away from zero" if elo.half_away else "rounded half up",
        "rounding_note": (
            f"halves away from zero under FIDE's 2024 rules: half up would give {signed(elo.half_up)}"
            if elo.halves_differ
            else ""
        ),
        "difference": difference_text(elo, rules),
        "unrated": unrated_text(elo, rules, rating) if elo.unrated else "",
    }


def difference_text(elo: EloArithmetic, rules: RuleSet) -> str:
    """How the 400-point rule held for the player's games where FIDE's 2024 rules lift it for
    some players (section 17.2): not at all for a player rated 2650 or more, whole for the rest."""
    exempt_from, largest = rules.elo_uncapped_from, rules.elo_largest_difference
    if exempt_from is None:
        return ""
    games = [game for game in elo.games if game is not None]
    if elo.exempt:
        past = sorted({(abs(game.difference), game.expected) for game in games if game.past_largest})
        text = (
            f"Under {rules.name} the 400-point rule does not hold for this player, rated {elo.prior}, "
            f"{exempt_from} or more: each game's difference counts whole"
        )
        if not past:
            return f"{text}; none of this month's was over {largest}."
        read = "; ".join(f"a difference of {d}: PD {decimal(pd, 2)}" for d, pd in past)
        return f"{text}, and past {largest} PD is read from FIDE's table ({read})."
    limited = sum(1 for game in games if game.limited)
    if not limited:
        return ""
    return (
        f"{limited} game{'s' if limited != 1 else ''} counted at {largest} (the 400-point rule): under {rules.name} "
        f"only a player rated {exempt_from} or more counts a larger difference whole, and this player's "
        f"{elo.prior} is under {exempt_from}. An opponent rated {exempt_from} or more counts the same game whole, "
        f"so the two sides' PD may add up to more than 1."
    )


def unrated_text(elo: EloArithmetic, rules: RuleSet, rating) -> str:
    """Section 17.1: a new rating under the lowest one unrates the player, the peak kept."""
    peak = f"their highest rating, {rating.peak}, is kept" if rating.peak else "nothing of their record is kept"
    return (
        f"under {rules.rating_floor}, the lowest rating under {rules.name}: the player is unrated from "
        f"{rating.month}; {peak}, and they start again as any unrated player, towards a first rating from "
        f"{rules.first_rating_games} games against rated opponents"
    )


def first_shown(calculation: Calculation) -> dict | None:
    first = calculation.first
    if first is None:
        return None
    shown = {
        "points": decimal(first.points, 1),
        "average": decimal(first.average, 2),
        "this_month": first.games - calculation.earlier_games,
    }
    if first.branch is not None:
        shown["p"] = decimal(first.p, 4)
        shown["p_rounded"] = decimal(Fraction(first.percent, 100), 2)
        shown["bonus_term"] = signed_term(first.bonus)
        shown["exact"] = decimal(first.exact, 2)
    return shown


@dataclass(frozen=True)
class GameRow:
    game: object  # grading.run.breakdown.RatedGame
    terms: object  # K and Elo ratings' counted games: GameArithmetic or EloGameArithmetic
    increment: str
    d_row: int | None = None  # a K rating's game: the D offset table's row its D falls in (its anchor)
    d_offset: Decimal | None = None  # a K rating's game: its D offset, to 1 decimal
    expected: Decimal | None = None  # an Elo rating's counted game: PD, to 2 decimals


def game_rows(calculation: Calculation) -> list[GameRow]:
    return [game_row(step.game, step.arithmetic) for step in calculation.games]


def game_row(game, terms) -> GameRow:
    if terms is None:
        return GameRow(game, None, "")
    increment = plain(decimal(terms.increment, 6))
    if isinstance(terms, GameArithmetic):
        return GameRow(game, terms, increment, d_row=d_offset_row(int(terms.d)), d_offset=decimal(terms.d_offset, 1))
    return GameRow(game, terms, increment, expected=decimal(terms.expected, 2))


def progress_text(progress: FirstRatingProgress, rules: RuleSet) -> str:
    """Where a pending player stands: "4 of 5 games against rated opponents, 1.5 points; the
    games of 2026-09 count until 2028-10"."""
    if not progress.months:
        return "no games that still count towards a first rating"
    points = plain(decimal(progress.points, 1)) + (" point" if progress.points == 1 else " points")
    first = progress.first
    if first.rating is not None:
        stands = f"{progress.games} games, {points}: a first rating of {first.rating}, under {rules.rating_floor}"
    elif progress.games < progress.games_needed:
        stands = f"{progress.games} of {progress.games_needed} games against rated opponents, {points}"
    else:
        stands = f"{progress.games} games against rated opponents, no half point yet"
    return f"{stands}; the games of {progress.months[0].month} count until {progress.counts_until}"


def dummy_hidden(rating, title, list_code: str, rules: RuleSet, age_public=False) -> bool:
    """Whether the dummy of a P rating is left out of what the public sees: a junior's untitled
    dummy is so much a year of their age (100 × 12 for a 12-year-old), and a junior's exact age
    is never public (docs/privacy.md); unless the age was typed into the calculator
    (``age_public``). The sums that hold it are left out with it."""
    if rating.dummy_rating is None or age_public:
        return False
    how = explain_dummy(rating.dummy_rating, rating.age, title, list_code, rules)
    return how.junior and not how.title and not how.raised


def dummy_text(rating, title, list_code: str, rules: RuleSet, age_public=False) -> str:
    """How the dummy of a P rating follows from the age, the title and the list (the engine's
    explain_dummy says which steps gave it); of a junior's age, only that it does, unless the
    age was typed into the calculator (``age_public``)."""
    if rating.dummy_rating is None:
        return ""
    how = explain_dummy(rating.dummy_rating, rating.age, title, list_code, rules)
    if how.junior and not how.title and not age_public:
        if how.raised:
            return (
                "the player's own higher rating (a lapsed Full rating on this list, or for a newcomer to OTB "
                "standard an active Full rapid rating), above a junior's dummy"
            )
        return "a junior's, from their age, which is not published"
    if how.title:
        text = f"{how.title}'s {rules.title_dummies[how.title]}, a titled player without a Full OTB standard rating"
    elif how.junior:
        text = f"{rules.junior_dummy_per_year} × {rating.age} years, a junior's"
    else:
        text = f"{rules.adult_dummy}, an adult's"
    if how.offset:
        text += f", {signed_term(how.offset)} on a list other than OTB standard = {how.default}"
    if how.raised:
        text += (
            f"; raised to {how.dummy}, the player's own higher rating (a lapsed Full rating on this list, or for a"
            " newcomer to OTB standard an active Full rapid rating)"
        )
    return text


def explanation(calculation, rating, rules: RuleSet, title, list_code: str, age_public=False) -> dict:
    """Everything the explanation of a rating (templates/public/includes/rating_explained.html)
    reads beside the rating itself: a published, a live or a calculator's one. ``age_public``:
    the age was typed into the calculator, and may be written out."""
    return {
        "rules": rules,
        "calculation": calculation,
        "rows": game_rows(calculation),
        "passes": passes_shown(calculation, rating),
        "k": k_shown(calculation),
        "elo": elo_shown(calculation.elo, rules, rating),
        "k_reason": k_reason(calculation.elo, rules) if calculation.elo else "",
        "first": first_shown(calculation),
        "dummy_text": dummy_text(rating, title, list_code, rules, age_public),
        "dummy_hidden": dummy_hidden(rating, title, list_code, rules, age_public),
        # The method's own rating: what the arithmetic ends with, under the floor if one held it up.
        "own_rating": rating.method_rating,
    }


def explained_rating(player, list_code: str, month: str) -> dict | None:
    """What the calculation page of a published rating shows: the rating, the state before it,
    its explanation, and on an Elo list its games that FIDE's conditions left out; None if
    ``player`` has no current rating on that list for ``month``."""
    # A plain query, the rating's list and period read with it (common.lookups.rows_with): every
    # calculation page asks, and the ORM's building of it cost more than the query.
    where = "t.player_id = %s AND r0.code = %s AND t.month = %s AND t.superseded_at IS NULL"
    found = rows_with(PlayerRating, ["rating_list", "period"], where, [player.pk, list_code, month])
    if not found:  # a rating is current once for its period (one_current_rating_per_period)
        return None
    rating = found[0]
    rules = rules_named(rating.period.rule_set)
    shown = rating_explained(player, rating, state_before(rating), rules)
    if not rules.is_elo:
        return {**shown, "not_rated": []}
    return {**shown, "not_rated": rating_games_not_rated(rating), "conditions": conditions_text(rules.name)}


def rating_explained(player, rating, prior, rules: RuleSet) -> dict:
    """A stored rating (published or live) with the state before it and its explanation: the
    calculation of what it keeps, written for the page."""
    calculation = calculation_of(rating, rated_games([rating])[rating.pk], prior_peak(rules, prior))
    day = Month.parse(rating.month).first_day()
    return {
        "rating": rating,
        "prior": prior,
        "age_shown": age_shown(player, day, privacy_setting()),
        "age_day": day,
        **explanation(calculation, rating, rules, player.fide_title, rating.rating_list.code),
    }


def explained_trial(trial) -> dict:
    """What the calculator's explanation reads, for a trial (grading.calculator.trial.Trial)."""
    calculation, rating = trial.calculation, trial.rating
    shown = {"trial": trial, "rules": trial.rules, "rating": rating, "prior": trial.prior, "calculation": calculation}
    typed = trial.player is None  # the age, if any, typed into the calculator: the visitor's own
    day = trial.month.first_day()
    if typed:
        shown["age_given"] = rating.age if rating is not None else None
    else:
        shown.update(age_shown=age_shown(trial.player, day, privacy_setting()), age_day=day)
    if calculation is None:
        return shown
    return {
        **shown,
        **explanation(calculation, rating, trial.rules, trial.title, trial.rating_list.code, age_public=typed),
    }
