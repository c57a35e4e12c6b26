"""The public pages bench/site.py times and bench/page_costs.py costs, and what each is measured
against: the addresses each page is asked for (random pages, players, names), and its limit as a
multiple of the help page's p95 in the same run (issue 41: the cost of serving any page)."""

import os

from databases import connect

DATABASE = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/federation_bench")
# The shared cache of production (README); this Redis database is emptied when the bench starts.
CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/3")

HELP = "help"
# Every page's p95 at most three times the help page's, the search's and the calculator's five.
RATIO_LIMITS = {"search": 5, "calculator": 5}
RATIO_LIMIT = 3
# The earlier targets, in ms: every page's p95 under 50, the search's and the calculator's 100.
TARGETS = {"search": 100, "calculator": 100}
TARGET = 50


def ratio_limit(page: str) -> int:
    return RATIO_LIMITS.get(page, RATIO_LIMIT)


def target(page: str) -> int:
    return TARGETS.get(page, TARGET)


def workloads(rng, count):
    """{page: [path]}: the paths each measured page is asked for, ``count`` for the main pages and a
    third of it for the others; the same on every run of the same database (its samples ordered)."""
    with connect(DATABASE) as conn:
        sample = conn.execute(
            "SELECT DISTINCT p.code, p.surname, p.forenames FROM grading_playerrating r "
            "JOIN players_player p ON p.id = r.player_id WHERE r.method = 'K' AND r.id % 97 = 0 ORDER BY p.code "
            "LIMIT 2000"
        ).fetchall()
        rated = conn.execute(
            "SELECT p.code, l.code, r.month FROM grading_playerrating r JOIN players_player p ON p.id = r.player_id "
            "JOIN grading_ratinglist l ON l.id = r.rating_list_id WHERE r.method = 'K' AND r.id % 89 = 0 ORDER BY r.id "
            "LIMIT 2000"
        ).fetchall()
        events = conn.execute("SELECT code FROM events_event WHERE id % 7 = 0 ORDER BY id LIMIT 500").fetchall()
        met = conn.execute(
            "SELECT w.code, b.code FROM events_game g JOIN players_player w ON w.id = g.white_id "
            "JOIN players_player b ON b.id = g.black_id WHERE g.id % 211 = 0 ORDER BY g.id LIMIT 1000"
        ).fetchall()
    searches = []
    for _code, surname, forenames in sample:
        typo = surname[:2] + surname[3] + surname[2] + surname[4:] if len(surname) > 4 else surname
        searches += [f"{surname} {forenames}", f"{forenames} {surname}", surname[:5], f"{typo} {forenames[:3]}"]

    def quote(text):
        return text.replace(" ", "+")

    return {
        "list page": [f"/lists/otb-standard/?page={rng.randint(1, 20)}" for _ in range(count)],
        "player page": [f"/players/{rng.choice(sample)[0]}/" for _ in range(count)],
        "search": [f"/players/?q={quote(rng.choice(searches))}" for _ in range(count)],
        "list page, one club": [f"/lists/otb-standard/?club=B{rng.randint(0, 1400):05d}" for _ in range(count // 3)],
        "live list": ["/lists/otb-standard/live/" for _ in range(count // 3)],
        "event page": [f"/events/{quote(rng.choice(events)[0])}/" for _ in range(count // 3)],
        "calculation": ["/players/{}/{}/{}/".format(*rng.choice(rated)) for _ in range(count // 3)],
        "head to head": ["/players/{}/vs/{}/".format(*rng.choice(met)) for _ in range(count // 3)],
        HELP: ["/help/" for _ in range(count // 3)],
        "calculator": [calculator(rng, sample) for _ in range(count // 3)],
    }


def calculator(rng, sample):
    """A player by code against a rating typed in, a player by code and a rating again."""
    player, opponent = rng.choice(sample)[0], rng.choice(sample)[0]
    games = [(rng.randint(1200, 2400), "1"), (opponent, "0.5"), (rng.randint(1200, 2400), "0")]
    rows = "&".join(f"o-{i}-opponent={who}&o-{i}-result={result}" for i, (who, result) in enumerate(games))
    return f"/calculator/?list=otb-standard&player={player}&{rows}"
