"""A straightforward scalar reading of docs/rules.md part 2 (the Elo method), one player at a
time, in Fractions, to cross-check the vectorised engine. Shares no code with it but Month and
the input classes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from grading.engine import AT_PERIOD_START
from tests.engine.spec_tables import d_offset, elo_performance_table

DP = elo_performance_table()


@dataclass
class EloOutcome:
    rating: int | None
    type: str | None
    k: int | None
    counted: list[bool]  # per game of the player, in input order
    increments: list[Fraction | None]
    games: int
    opponents_total: int
    points: Fraction
    peak: int | None
    pending: list[tuple]  # (month, games, total, points)


def half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def rate_elo(inputs) -> dict:
    rules = inputs.rules
    period = inputs.period
    state = {p.id: p.ratings.get(inputs.list_code) for p in inputs.players}
    born = {p.id: p.birth_date for p in inputs.players}

    def start_rating(pid):
        s = state[pid]
        return s.rating if s is not None and s.type == "full" else None

    def used(game, colour):  # the rating of ``colour`` that their opponent counts
        given = getattr(game, f"{colour}_rating_used")
        return start_rating(getattr(game, colour)) if given is AT_PERIOD_START else given

    mine = {}
    for index, game in enumerate(inputs.games):
        score = {"1-0": Fraction(1), "0-1": Fraction(0), "1/2-1/2": Fraction(1, 2)}[game.result]
        mine.setdefault(game.white, []).append((index, game, used(game, "black"), score))
        mine.setdefault(game.black, []).append((index, game, used(game, "white"), 1 - score))

    outcomes = {}
    for pid, games in mine.items():
        s = state[pid]
        if s is not None and s.type == "full":
            outcomes[pid] = _rated(rules, period, s, born[pid], games)
        else:
            outcomes[pid] = _unrated(rules, period, s, games)
    return outcomes


def _age(born, period):
    if born is None:
        return None
    first = period.first_day()
    return first.year - born.year - ((first.month, first.day) < (born.month, born.day))


def _rated(rules, period, s, born, games):
    ro = s.rating
    peak = s.peak if s.peak is not None else ro
    counted = [g for g in games if g[2] is not None]
    n = len(counted)
    age = _age(born, period)
    junior = age is not None and age < 18
    if rules == "fide-2017-rapid":
        k = 20
    elif s.games < 30 or junior and ro < 2300:
        k = 40
    elif peak >= 2400:
        k = 10
    else:
        k = 20
    if n and k * n > 700:
        k = 700 // n
    increments = []
    change = Fraction(0)
    for _, _, opponent, score in games:
        if opponent is None:
            increments.append(None)
            continue
        diff = max(-400, min(400, ro - opponent))
        pd = Fraction(1, 2) + (1 if diff > 0 else -1 if diff < 0 else 0) * d_offset(abs(diff)) / 20
        increments.append(k * (score - pd))
        change += k * (score - pd)
    if not n:
        return EloOutcome(
            ro, "full", None, [False] * len(games), increments, s.games, s.opponents_total, Fraction(s.points), peak, []
        )
    rating = max(1000, ro + half_up(change))
    return EloOutcome(
        rating,
        "full",
        k,
        [g[2] is not None for g in games],
        increments,
        s.games + n,
        s.opponents_total + sum(g[2] for g in counted),
        Fraction(s.points) + sum(g[3] for g in counted),
        max(peak, rating),
        [],
    )


def _unrated(rules, period, s, games):
    prior = list(s.pending) if s is not None else []
    live = [m for m in prior if m.month >= period - 25]
    counted = [g for g in games if g[2] is not None]
    kept = counted
    if not live:
        by_event = {}
        for g in counted:
            by_event.setdefault(g[1].event, []).append(g)
        order = sorted(by_event, key=lambda e: (max(g[1].date for g in by_event[e]), "" if e is None else "\x01" + e))
        first = next((i for i, e in enumerate(order) if sum(g[3] for g in by_event[e]) > 0), None)
        keep_events = set(order[first:]) if first is not None else set()
        kept = [g for g in counted if g[1].event in keep_events]
    kept_ids = {g[0] for g in kept}
    flags = [g[0] in kept_ids for g in games]
    if not kept:
        return EloOutcome(
            None,
            s.type if s else None,
            None,
            flags,
            [None] * len(games),
            0,
            0,
            Fraction(0),
            None,
            [(m.month, m.games, m.opponents_total, Fraction(m.points)) for m in prior],
        )
    months = [(m.month, m.games, m.opponents_total, Fraction(m.points)) for m in live]
    months.append((period, len(kept), sum(g[2] for g in kept), sum((g[3] for g in kept), Fraction(0))))
    g_ = sum(m[1] for m in months)
    t = sum(m[2] for m in months)
    s_ = sum(m[3] for m in months)
    if g_ >= 5 and s_ >= Fraction(1, 2):
        ra = Fraction(t, g_)
        if 2 * s_ == g_:
            ru = ra
        elif 2 * s_ > g_:
            ru = ra + 20 * (2 * s_ - g_)
        else:
            p = Fraction(half_up(100 * s_ / g_), 100)
            ru = ra + DP[p]
        rating = half_up(ru)
        if rating >= 1000:
            return EloOutcome(rating, "full", None, flags, [None] * len(games), g_, t, s_, rating, [])
    return EloOutcome(None, "pending", None, flags, [None] * len(games), 0, 0, Fraction(0), None, months)
