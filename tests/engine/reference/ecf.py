"""A straightforward scalar reading of docs/rules.md, one player and one game at a time, in
Fractions, to cross-check the vectorised engine. Shares no code with it but Month."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from chess.months import Month
from tests.engine.spec_tables import d_offset, elo_performance_table

DP = elo_performance_table()
TITLES = {"GM": 2500, "IM": 2350, "WGM": 2200, "FM": 2200, "WIM": 2100, "CM": 2050, "WFM": 2000, "WCM": 1800}
WINDOW = {"ecf-2020": 60, "ecf-2024": 36}


@dataclass
class Line:
    game: int
    opponent_rating: int
    opponent_type: str
    increment: Fraction | None


@dataclass
class Outcome:
    category: str
    method: str
    pass1: int | None
    pass2: int | None
    rating: int
    type: str
    games: int
    opponents_total: int
    points: Fraction
    lines: list


def round_half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def age_on(born, day) -> int:
    return day.year - born.year - ((born.month, born.day) > (day.month, day.day))


def active(state, rules: str, period: Month) -> bool:
    """Section 3: the state's last-played month is within the rule set's window."""
    return state.last_played is not None and state.last_played >= period - WINDOW[rules]


def dummy_rating(rules: str, list_code: str, period: Month, player, age: int | None, junior: bool) -> int:
    """Section 4, the dummy rating, decided in the order of its steps 1 to 5."""
    state = player.ratings.get(list_code)
    value = 100 * age if junior else 1800
    standard = player.ratings.get("otb-standard")
    if rules == "ecf-2024" and player.title in TITLES and (standard is None or standard.type == "partial"):
        value = TITLES[player.title]
    if list_code != "otb-standard":
        value -= 100
    if rules == "ecf-2024" and state is not None and not active(state, rules, period) and state.type == "full":
        value = max(value, state.rating)
    rapid = player.ratings.get("otb-rapid")
    if (
        rules == "ecf-2024"
        and list_code == "otb-standard"
        and standard is None
        and rapid is not None
        and rapid.type == "full"
        and active(rapid, rules, period)
    ):
        value = max(value, rapid.rating)
    return value


def k_rating(rules: str, prior, junior: bool, games: list, a: Fraction, b: Fraction) -> Outcome:
    """Section 6: a Fully Rated player's K rating; ``games`` are (game, opponent's rating used,
    its type, points), the ratings used those of pass 3 (section 5)."""
    old = prior.rating
    terms = []
    for g, opponent_rating, opponent_type, s in games:
        D = opponent_rating - old
        offset = d_offset(abs(D)) * (1 if D >= 0 else -1)
        s_offset = {Fraction(1): 10, Fraction(1, 2): 0, Fraction(0): -10}[s]
        q = 40 if rules == "ecf-2020" and opponent_type == "partial" else 20
        terms.append((g, opponent_rating, opponent_type, offset + s_offset, q))
    N = len(games)
    K = 40 if junior and sum(t / q for *_, t, q in terms) > 0 else 20
    if K * N > 700:
        K = Fraction(700, N)
    lines = [Line(g, r, kind, t * K / q) for g, r, kind, t, q in terms]
    change = sum(line.increment for line in lines)
    rating = max(100, round_half_up(old + change + a + old * b))
    return Outcome(
        "full",
        "K",
        None,
        None,
        rating,
        "full",
        prior.games + N,
        prior.opponents_total + sum(r for _, r, *_ in terms),
        Fraction(prior.points) + sum(s for *_, s in games),
        lines,
    )


def rate(inputs) -> dict:
    rules = inputs.rules if isinstance(inputs.rules, str) else inputs.rules.name
    period: Month = inputs.period
    list_code = inputs.list_code
    players = {p.id: p for p in inputs.players}

    score = {
        "1-0": (Fraction(1), Fraction(0)),
        "0-1": (Fraction(0), Fraction(1)),
        "1/2-1/2": (Fraction(1, 2), Fraction(1, 2)),
    }
    played: dict = {}  # id -> [(game index, opponent id, points)]
    for g, game in enumerate(inputs.games):
        white_points, black_points = score[game.result]
        played.setdefault(game.white, []).append((g, game.black, white_points))
        played.setdefault(game.black, []).append((g, game.white, black_points))

    category, junior, dummy, prior = {}, {}, {}, {}
    for pid in played:
        player = players[pid]
        state = player.ratings.get(list_code)
        prior[pid] = state
        if state is not None and active(state, rules, period):
            category[pid] = state.type
        else:
            category[pid] = "new"
        age = None if player.birth_date is None else age_on(player.birth_date, period.first_day())
        junior[pid] = age is not None and age < 18
        dummy[pid] = dummy_rating(rules, list_code, period, player, age, junior[pid])

    def p_rating(pid, opponent_rating):
        partial = category[pid] == "partial"
        state = prior[pid]
        G = (state.games if partial else 0) + len(played[pid]) + 1
        T = (state.opponents_total if partial else 0) + sum(opponent_rating(o) for _, o, _ in played[pid]) + dummy[pid]
        S = (Fraction(state.points) if partial else 0) + sum(s for _, _, s in played[pid]) + Fraction(1, 2)
        p = Fraction(round_half_up(S / G * 100), 100)
        rating = max(100, round_half_up(Fraction(T, G) + DP[p]))
        return rating, ("full" if G - 1 >= 10 else "partial"), G - 1, T - dummy[pid], S - Fraction(1, 2)

    p_players = [pid for pid in played if category[pid] != "full"]
    pass1 = {pid: p_rating(pid, lambda o: dummy[o] if category[o] == "new" else prior[o].rating) for pid in p_players}
    pass2 = {
        pid: p_rating(pid, lambda o: prior[o].rating if category[o] == "full" else pass1[o][0]) for pid in p_players
    }

    def pass3_opponent(o):
        return (prior[o].rating, "full") if category[o] == "full" else (pass2[o][0], pass2[o][1])

    out = {}
    a, b = Fraction(inputs.adjustment_a), Fraction(inputs.adjustment_b)
    for pid in played:
        games = played[pid]
        if category[pid] != "full":
            rating, kind, g_total, t_total, s_total = pass2[pid]
            lines = []
            for g, o, _ in games:
                used = (prior[o].rating, "full") if category[o] == "full" else pass1[o][:2]
                lines.append(Line(g, used[0], used[1], None))
            out[pid] = Outcome(
                category[pid], "P", pass1[pid][0], rating, rating, kind, g_total, t_total, s_total, lines
            )
            continue
        pass3 = [(g, *pass3_opponent(o), s) for g, o, s in games]
        out[pid] = k_rating(rules, prior[pid], junior[pid], pass3, a, b)
    return out
