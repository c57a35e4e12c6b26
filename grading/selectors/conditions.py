"""FIDE's conditions on which games a list rated by the Elo method rates (docs/rules.md part 4, and
section 17.5 and 17.6 of part 5), as the pages name and explain them: the help page's section on
games not rated, and the sentence the event pages and the calculation page say them in. Every
number is the engine's (grading.engine.rate_of_play, grading.engine.event_conditions) or the
fast classic approval's (events.fast_classic), never written twice.
"""

from chess.dates import LONGEST_DAYS
from events.fast_classic import FAST_CLASSIC_INCREMENT, FAST_CLASSIC_MINUTES
from grading.engine import RULE_SETS, RuleSet
from grading.engine.event_conditions import DOUBLE_ROUND_ROBIN_PLAYERS, ROUND_ROBIN_PLAYERS, ROUND_ROBIN_ROUNDS
from grading.engine.rate_of_play import (
    ABOVE,
    APART,
    BLITZ_MINUTES,
    FIRST_CONTROL_MINUTES,
    FIRST_CONTROL_MOVES,
    GAME_PLAYING_TIME,
    MOST_MINUTES_A_DAY,
    PLAYING_TIME,
    RAPID_MINUTES,
)

# What every Elo rule set holds (sections 16.3 to 16.5), after what some of them add.
ALWAYS = ("length", "round robins", "matches")


def conditions_of(rules: RuleSet) -> list[str]:
    """The conditions ``rules`` puts on an event's games, as the pages name them."""
    if not rules.is_elo:
        return []
    named = []
    if rules.playing_time_conditions:
        named.append("playing time")
    if rules.game_rate_of_play:
        named.append("the time limit game by game, by the two players' ratings")
    if rules.rapid_and_blitz:
        named += ["the list's rapid or blitz band", f"{APART} points apart above {ABOVE}"]
    elif not rules.playing_time_conditions and not rules.game_rate_of_play:
        named.append("the list's time-control band")
    if rules.playing_time_conditions or rules.game_rate_of_play:
        named.append("hours a day")
    return [*named, *ALWAYS]


def conditions_text(rule_sets: str) -> str:
    """The conditions of the rule sets named (``"fide-2017, fide-2025"``, as an event's games
    have them), one list: "playing time, hours a day, length, round robins and matches (the
    federation's rules, part 4)"."""
    sets = [RULE_SETS[name.strip()] for name in rule_sets.split(",") if name.strip()]
    named = list(dict.fromkeys(condition for rules in sets for condition in conditions_of(rules)))
    if not named:
        return ""
    parts = "parts 4 and 5" if any(rules.elo_unrated_below_floor for rules in sets) else "part 4"
    listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    return f"{listed} (the federation's rules, {parts})"


def not_rated_help(elo_sets: list[RuleSet]) -> dict:
    """What the help page's section on games not rated reads: which conditions the Elo rule sets
    in force hold (their names), and the numbers of each."""

    def holding(flag):
        return [rules.name for rules in elo_sets if getattr(rules, flag)]

    return {
        "playing_time": holding("playing_time_conditions"),
        "game_by_game": holding("game_rate_of_play"),
        "rapid_and_blitz": holding("rapid_and_blitz"),
        "band_only": [
            rules.name
            for rules in elo_sets
            if not (rules.playing_time_conditions or rules.game_rate_of_play or rules.rapid_and_blitz)
        ],
        "hours_a_day": [rules.name for rules in elo_sets if rules.playing_time_conditions or rules.game_rate_of_play],
        "event_times": [{"from": rating, "minutes": minutes} for rating, minutes in PLAYING_TIME],
        "game_times": [{"from": rating, "minutes": minutes} for rating, minutes in GAME_PLAYING_TIME],
        "first_control_minutes": FIRST_CONTROL_MINUTES,
        "first_control_moves": FIRST_CONTROL_MOVES,
        "fast_classic": (FAST_CLASSIC_MINUTES, FAST_CLASSIC_INCREMENT),
        "hours": MOST_MINUTES_A_DAY // 60,
        "days": LONGEST_DAYS + 1,
        "round_robin": (ROUND_ROBIN_PLAYERS, ROUND_ROBIN_ROUNDS, DOUBLE_ROUND_ROBIN_PLAYERS),
        "apart": (APART, ABOVE),
        "rapid": RAPID_MINUTES,
        "blitz": BLITZ_MINUTES,
    }
