"""Rule variants: a base rule set with some of its parameters overridden (docs/rules.md part 3).

A variant is data, ``{"base": "ecf-2024", "floors": true, "activity_window_months": 48}``: the
rate-file reads it, the laboratory stores it. Every parameter has a range; an unknown name or
an absurd value is an EngineInputError naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from types import MappingProxyType

from grading.engine.inputs.forms import EngineInputError
from grading.engine.rule_sets import BASE_RULE_SETS, RULE_SETS, RuleSet


@dataclass(frozen=True)
class Parameter:
    kind: str  # "int", "optional int" (null allowed), "bool" or "titles" ({title: rating})
    low: int = 0
    high: int = 0
    help: str = ""
    elo_only: bool = False  # a parameter only the Elo method reads
    ecf_only: bool = False


RATING = (0, 3500)
DUMMY = (100, 3500)

PARAMETERS: Mapping[str, Parameter] = MappingProxyType(
    {
        "activity_window_months": Parameter("int", 1, 240, "idle months after which a rating lapses", ecf_only=True),
        "partial_opponent_q": Parameter(
            "int", 1, 1000, "Q of a game against a Partially rated opponent (a multiple of base_q)", ecf_only=True
        ),
        "base_q": Parameter("int", 1, 1000, "Q of every other game", ecf_only=True),
        "adult_dummy": Parameter("int", *DUMMY, "the dummy opponent of an adult", ecf_only=True),
        "junior_dummy_per_year": Parameter("int", 0, 300, "a junior's dummy: this times their age", ecf_only=True),
        "junior_below_age": Parameter("int", 1, 30, "a junior is younger than this"),
        "non_standard_dummy_offset": Parameter(
            "int", -1000, 1000, "added to every dummy off the standard list", ecf_only=True
        ),
        "title_dummies": Parameter("titles", *DUMMY, "the dummy of each title ({} for none)", ecf_only=True),
        "lapsed_full_dummy": Parameter("bool", help="a higher lapsed Full rating is the dummy", ecf_only=True),
        "rapid_for_standard_dummy": Parameter(
            "bool", help="a higher Full rapid rating is a standard newcomer's dummy", ecf_only=True
        ),
        "full_rating_games": Parameter("int", 1, 100, "games that make a P rating Full", ecf_only=True),
        "base_k": Parameter("int", 1, 100, "K"),
        "junior_k": Parameter("int", 1, 100, "K of a junior (ECF: whose games raised the rating)"),
        "k_cap": Parameter("int", 1, 100_000, "K becomes k_cap / N when K x N exceeds it"),
        "rating_floor": Parameter("int", *RATING, "the lowest rating there is"),
        "elo_largest_difference": Parameter("int", 1, 2000, "a larger difference counts as this", elo_only=True),
        "elo_new_player_games": Parameter(
            "optional int", 1, 1000, "K is junior_k while the state has fewer games", elo_only=True
        ),
        "elo_junior_below_rating": Parameter(
            "optional int", *RATING, "... and for a junior rated below this", elo_only=True
        ),
        "elo_top_peak": Parameter("optional int", *RATING, "K is elo_top_k once the peak reached this", elo_only=True),
        "elo_top_k": Parameter("int", 1, 100, "K of a player whose peak reached elo_top_peak", elo_only=True),
        "first_rating_games": Parameter("int", 1, 100, "games a first rating needs", elo_only=True),
        "first_rating_window_months": Parameter("int", 1, 120, "months pending games count", elo_only=True),
        "first_rating_step": Parameter("int", 0, 200, "added per half point over 50%", elo_only=True),
        "floors": Parameter("bool", help="rating floors (section 14)"),
        "floor_base": Parameter("int", *RATING, "absolute floor: this ..."),
        "floor_per_win": Parameter("int", 0, 100, "... plus this per win ..."),
        "floor_per_draw": Parameter("int", 0, 100, "... this per draw ..."),
        "floor_per_event": Parameter("int", 0, 100, "... this per event of floor_event_games games ..."),
        "floor_cap": Parameter("int", *RATING, "... and at most this"),
        "floor_event_games": Parameter("int", 1, 100, "rated games that make an event count"),
        "peak_floor_drop": Parameter("int", 0, 1000, "peak floor: the peak less this, rounded down to a step"),
        "peak_floor_lowest": Parameter("int", *RATING, "the lowest peak floor"),
        "peak_floor_highest": Parameter("int", *RATING, "the highest peak floor"),
        "peak_floor_step": Parameter("int", 1, 1000, "the peak floors' step"),
    }
)


BASE_NAMES = tuple(rules.name for rules in BASE_RULE_SETS)


def variant(spec, path: str = "rules") -> RuleSet:
    """The RuleSet a rule set name or a variant (``{"base": name, parameter: value, ...}``)
    describes; EngineInputError names a bad part (``rules.k_cap``)."""
    if isinstance(spec, str):
        if spec not in RULE_SETS:
            raise EngineInputError(path, f"unknown rule set {spec!r} (known: {', '.join(RULE_SETS)})")
        return RULE_SETS[spec]
    if not isinstance(spec, Mapping):
        raise EngineInputError(path, "is neither a rule set's name nor an object with a base")
    base_name = spec.get("base")
    if not isinstance(base_name, str) or base_name not in BASE_NAMES:
        # A rule set with floors is a base with "floors": true: one name for each set of rules.
        known = ", ".join(BASE_NAMES)
        raise EngineInputError(f"{path}.base", f"{base_name!r} is not a base rule set (known: {known})")
    base = RULE_SETS[base_name]
    unknown = [name for name in spec if name != "base" and name not in PARAMETERS]
    if unknown:
        # Every unknown name at once: a variant written with two typos is put right in one go.
        known = f"(known: {', '.join(PARAMETERS)})"
        if len(unknown) == 1:
            raise EngineInputError(f"{path}.{unknown[0]}", f"unknown parameter {known}")
        raise EngineInputError(path, f"unknown parameters {', '.join(map(str, unknown))} {known}")
    overrides = {}
    for name, value in spec.items():
        if name == "base":
            continue
        parameter = PARAMETERS[name]
        if (parameter.elo_only and not base.is_elo) or (parameter.ecf_only and base.is_elo):
            raise EngineInputError(f"{path}.{name}", f"{base.method_name} ({base_name}) has no such parameter")
        overrides[name] = _value(parameter, value, f"{path}.{name}")
    if not overrides:
        return base
    _check_together(lambda name: overrides.get(name, getattr(base, name)), path)
    described = {"base": base_name, **{name: _plain(value) for name, value in overrides.items()}}
    return replace(base, name=variant_name(base_name, overrides), described_as=described, **overrides)


def _plain(value):
    return dict(value) if isinstance(value, Mapping) else value


def variant_name(base: str, overrides: dict) -> str:
    """ecf-2024+floors, ecf-2024+activity_window_months=48: the base and what differs."""
    parts = [base]
    for name in sorted(overrides):
        value = overrides[name]
        if name == "floors":
            parts.append("floors" if value else "no-floors")
        elif isinstance(value, Mapping):
            parts.append(f"{name}=" + "/".join(f"{title}:{rating}" for title, rating in sorted(value.items())))
        else:
            parts.append(f"{name}={'none' if value is None else str(value).lower()}")
    return "+".join(parts)


def _value(parameter: Parameter, value, path: str):
    if parameter.kind == "bool":
        if not isinstance(value, bool):
            raise EngineInputError(path, f"{value!r} is not true or false")
        return value
    if parameter.kind == "titles":
        if not isinstance(value, Mapping):
            raise EngineInputError(path, f"{value!r} is not an object of titles and ratings")
        titles = {}
        for title, rating in value.items():
            if not isinstance(title, str) or not title.strip() or len(title) > 10:
                raise EngineInputError(path, f"{title!r} is not a title")
            titles[title] = _whole(rating, parameter, f"{path}.{title}")
        return MappingProxyType(titles)
    if value is None and parameter.kind == "optional int":
        return None
    return _whole(value, parameter, path)


def _whole(value, parameter: Parameter, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise EngineInputError(path, f"{value!r} is not a whole number")
    if isinstance(value, Decimal):
        if value != value.to_integral_value():
            raise EngineInputError(path, f"{value} is not a whole number")
        value = int(value)
    if not parameter.low <= value <= parameter.high:
        raise EngineInputError(path, f"{value} is out of range ({parameter.low} to {parameter.high})")
    return value


def _check_together(value, path: str) -> None:
    """Values fine alone that make no sense together; ``value(name)`` is the variant's."""
    if value("partial_opponent_q") % value("base_q"):
        raise EngineInputError(f"{path}.partial_opponent_q", f"must be a multiple of base_q ({value('base_q')})")
    if value("peak_floor_lowest") > value("peak_floor_highest"):
        raise EngineInputError(f"{path}.peak_floor_lowest", "is above peak_floor_highest")
    if value("floor_base") > value("floor_cap"):
        raise EngineInputError(f"{path}.floor_cap", "is below floor_base")
