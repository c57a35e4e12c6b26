"""``python -m grading rate-file``: golden files, and one-line errors for bad input.

The golden outputs were checked by hand; the arithmetic for the less obvious numbers:

- adult_1500_beats_1900: (8.4 + 10) * 20 / 20 = 18.4 -> 1518; 1900 - 18.4 = 1881.6 -> 1882.
- three_passes: see test_passes.py (N 1725/1778, P 1560/1547, F 1603).
- ecf_2020_opponent_q: F active in the 60-month window. N (GM, no title dummy in ecf-2020):
  A = (1600 + 1400 + 1500 + 1800) / 4 = 1575; B = (1600 + 1498 + 1500 + 1800) / 4 = 1599.5 -> 1600.
  P: A = (4500 + 1800 + 1600 + 1500 + 1800) / 7 - 102 = 1498; B = 10975 / 7 - 102 = 1465.86 -> 1466.
  F: loss to N, D = 0: -10 * 20 / 40 = -5; win over P, D = -134: (-3.6 + 10) * 20 / 40 = 3.2 -> 1598.
  J (14 on 2026-10-01, K 40): (2.8 + 10) * 40 / 40 = 12.8, (-1.0 + 10) * 40 / 40 = 9.0 -> 1522.
- elo_pending_and_ratings_used (fide-2017): P (peak 2700, K 10) draws T (2665): diff -30, PD 0.46,
  10 x 0.04 = 0.4 -> 2635; T (peak 2665, K 10): -0.4 -> 2665. N, pending 2026-05 (3 games, 5400,
  1.5), beats T counted at 2600 (the event began in September) and loses to P: G 5, T 10635,
  S 2.5 = 50% -> Ra 2127. U's only event scored nothing: disregarded, state null.
- elo_rapid_first_rating_and_flat_k (fide-2017-rapid): NEW's first event (one loss) is
  disregarded, the second 5/8 against 1800s: 1800 + 20 x (10 - 8) = 1840. K 20 for everyone:
  the junior J +10, Q (peak 2450) -10.
- rapid_list_titles_and_lapsed: dummies b (GM) 2500 - 100, B (10) 1000 - 100, é lapsed Full 2150,
  10 (FM with a Full standard rating) 1800 - 100. Player 9: 8.4 + 1.6 - 3.0 - 5.6 = 1.4 -> 1751.
- cap_rapid_newcomer_and_adjustment: A = -0.7, B = 0.0003.
  A2040: 2040 + 8.2 - 0.7 + 0.612 = 2048.112 -> 2048.
  C1500: 37 games, K = 700 / 37; 2 * 18.4 + 34 * 8.4 + 6.2 (draw with R, B 1750) = 328.6;
  328.6 * 35 / 37 = 310.84; 1500 + 310.84 - 0.7 + 0.45 = 1810.59 -> 1811; a win 17.405405.
  R: no standard state, active Full rapid 2000 > 1800: (1500 + 2000) / 2 = 1750.
- ecf_floors_variant ({"base": "ecf-2024", "floors": true, "activity_window_months": 48}): A
  last played 2023-01, active in a 48-month window (lapsed in ecf-2024's 36). Against three
  1210s, D 0: -10, -10, 0 -> 1190. Floors: absolute 100 + 4 x 20 + 2 x 11 + 7 = 209 -> 150;
  peak 1464 - 200 = 1264 -> 1200: A's rating is 1200. B and C: a win, +10 -> 1220, floor
  100 + 4 = 104; D: a draw, 1210, floor 100 + 2 = 102. The event has three games for A only.
- fide_2025_floor_first_rating_and_top (docs/rules.md part 5): E and F, both 1409 (K 20), E wins:
  +10 -> 1419; F -10 -> 1399, under 1400: unrated, a pending state with no months, 0 games and
  the peak 1650 kept. TOP (2650, peak 2650, K 10) draws LOW (2150): diff 500 not capped for
  Ro 2650, PD 0.96, 10 x -0.46 = -4.6 -> -5, 2645; LOW keeps the cap: PD 0.08, 20 x 0.42 = 8.4
  -> 2158. J (born 2008: a junior all 2026, K 40) beats K (K 20): 2020 and 1990. N beats five
  2300s: Ra = (11500 + 3600) / 7 = 2157.14, p = 6 / 7 = 0.86, dp 309: 2466, capped at 2200 (the
  state keeps the real games: 5, 11500, 5 points). The 2300s' games against unrated N count for
  nothing.
"""

import json
import pathlib
import subprocess
import sys
from decimal import Decimal

import pytest

GOLDEN = pathlib.Path(__file__).parent / "golden"
PROJECT = pathlib.Path(__file__).parents[2]
CASES = sorted(path.name.removesuffix(".in.json") for path in GOLDEN.glob("*.in.json"))


def run(*arguments, cwd=PROJECT):
    return subprocess.run(
        [sys.executable, "-m", "grading", *map(str, arguments)], capture_output=True, text=True, cwd=cwd
    )


def exact(text: str):
    return json.loads(text, parse_float=Decimal)


@pytest.mark.parametrize("name", CASES)
def test_the_cli_output_matches_the_golden_file(name):
    done = run("rate-file", GOLDEN / f"{name}.in.json")
    assert (done.returncode, done.stderr) == (0, "")
    assert exact(done.stdout) == exact((GOLDEN / f"{name}.out.json").read_text(encoding="utf-8"))


def test_players_without_games_are_left_out_and_the_others_sorted_by_code_point():
    three = exact(run("rate-file", GOLDEN / "three_passes.in.json").stdout)
    assert [p["id"] for p in three["players"]] == ["F", "N", "P"]  # IDLE had no game
    rapid = exact(run("rate-file", GOLDEN / "rapid_list_titles_and_lapsed.in.json").stdout)
    assert [p["id"] for p in rapid["players"]] == ["10", "9", "B", "b", "é"]


def test_there_are_golden_files():
    assert len(CASES) >= 5


def test_the_output_option_writes_the_file_and_nothing_on_stdout(tmp_path):
    out = tmp_path / "out.json"
    done = run("rate-file", GOLDEN / "three_passes.in.json", "-o", out)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert exact(out.read_text()) == exact((GOLDEN / "three_passes.out.json").read_text())


def test_increments_and_points_are_written_as_exact_decimal_numbers():
    document = exact(run("rate-file", GOLDEN / "cap_rapid_newcomer_and_adjustment.in.json").stdout)
    c1500 = next(p for p in document["players"] if p["id"] == "C1500")
    # 18.4 * (700 / 37) / 20 = 17.4054054... written to 6 decimals
    assert c1500["games"][0]["increment"] == Decimal("17.405405")
    assert c1500["state"]["points"] == Decimal("39.5")


def base_document():
    return {
        "rules": "ecf-2024",
        "list": "otb-standard",
        "period": "2026-10",
        "adjustment": {"a": 0, "b": 0},
        "players": [
            {
                "id": "A",
                "birth_date": "2011-04-30",
                "title": "FM",
                "ratings": {
                    "otb-standard": {
                        "rating": 1850,
                        "type": "full",
                        "games": 41,
                        "opponents_total": 74210,
                        "points": 22.5,
                        "last_played": "2026-08",
                    }
                },
            },
            {"id": "B"},
        ],
        "games": [{"white": "A", "black": "B", "result": "1-0", "date": "2026-10-04"}],
    }


def state(document):
    return document["players"][0]["ratings"]["otb-standard"]


def with_change(change):
    document = base_document()
    change(document)
    return json.dumps(document)


BAD_INPUTS = [
    ("not json", "{", "input"),
    ("not an object", "[]", "input"),
    ("missing rules", with_change(lambda d: d.pop("rules")), "rules"),
    ("missing players", with_change(lambda d: d.pop("players")), "players"),
    ("games not an array", with_change(lambda d: d.update(games={})), "games"),
    ("unknown rule set", with_change(lambda d: d.update(rules="ecf-2030")), "rules"),
    ("rules neither a name nor a variant", with_change(lambda d: d.update(rules=["ecf-2024"])), "rules"),
    ("variant of an unknown base", with_change(lambda d: d.update(rules={"base": "ecf-1999"})), "rules.base"),
    ("variant without a base", with_change(lambda d: d.update(rules={"floors": True})), "rules.base"),
    (
        "variant with an unknown parameter",
        with_change(lambda d: d.update(rules={"base": "ecf-2024", "floor": True})),
        "rules.floor",
    ),
    (
        "variant with an absurd value",
        with_change(lambda d: d.update(rules={"base": "ecf-2024", "k_cap": -5})),
        "rules.k_cap",
    ),
    (
        "variant with a number for a yes or no",
        with_change(lambda d: d.update(rules={"base": "ecf-2024", "floors": 1})),
        "rules.floors",
    ),
    (
        "variant with a fraction of a month",
        with_change(lambda d: d.update(rules={"base": "ecf-2024", "activity_window_months": 36.5})),
        "rules.activity_window_months",
    ),
    (
        "variant with an Elo parameter on an ECF base",
        with_change(lambda d: d.update(rules={"base": "ecf-2024", "elo_top_k": 10})),
        "rules.elo_top_k",
    ),
    (
        "variant whose Q is not a multiple of the base Q",
        with_change(lambda d: d.update(rules={"base": "ecf-2020", "partial_opponent_q": 30})),
        "rules.partial_opponent_q",
    ),
    (
        "variant whose peak floors run backwards",
        with_change(lambda d: d.update(rules={"base": "ecf-2024", "peak_floor_lowest": 2200})),
        "rules.peak_floor_lowest",
    ),
    (
        "negative wins",
        with_change(lambda d: d["players"][0]["ratings"]["otb-standard"].update(wins=-1)),
        "players[0].ratings.otb-standard.wins",
    ),
    (
        "events3 not whole",
        with_change(lambda d: d["players"][0]["ratings"]["otb-standard"].update(events3=1.5)),
        "players[0].ratings.otb-standard.events3",
    ),
    ("malformed period", with_change(lambda d: d.update(period="2026-13")), "period"),
    ("period not a string", with_change(lambda d: d.update(period=202610)), "period"),
    ("period with spaces", with_change(lambda d: d.update(period=" 2026-10")), "period"),
    ("adjustment out of range", with_change(lambda d: d.update(adjustment={"a": 1e30})), "adjustment.a"),
    ("adjustment not a number", with_change(lambda d: d.update(adjustment={"a": "0.5"})), "adjustment.a"),
    ("NaN adjustment", with_change(lambda d: d.update(adjustment={"a": float("nan")})), "input"),
    ("player id missing", with_change(lambda d: d["players"][1].pop("id")), "players[1].id"),
    ("player id not a string", with_change(lambda d: d["players"][1].update(id=7)), "players[1].id"),
    ("duplicate player id", with_change(lambda d: d["players"].append({"id": "A"})), "players[2].id"),
    (
        "malformed birth date",
        with_change(lambda d: d["players"][0].update(birth_date="30/04/2011")),
        "players[0].birth_date",
    ),
    (
        "impossible birth date",
        with_change(lambda d: d["players"][0].update(birth_date="2011-02-30")),
        "players[0].birth_date",
    ),
    (
        "birth date on the first day",
        with_change(lambda d: d["players"][1].update(birth_date="2026-10-01")),
        "players[1].birth_date",
    ),
    (
        "birth date after the period",
        with_change(lambda d: d["players"][1].update(birth_date="2027-01-01")),
        "players[1].birth_date",
    ),
    ("title not a string", with_change(lambda d: d["players"][0].update(title=1)), "players[0].title"),
    ("bad state type", with_change(lambda d: state(d).update(type="Full")), "players[0].ratings.otb-standard.type"),
    (
        "non-integer rating",
        with_change(lambda d: state(d).update(rating=1850.5)),
        "players[0].ratings.otb-standard.rating",
    ),
    (
        "rating a string",
        with_change(lambda d: state(d).update(rating="1850")),
        "players[0].ratings.otb-standard.rating",
    ),
    ("negative rating", with_change(lambda d: state(d).update(rating=-5)), "players[0].ratings.otb-standard.rating"),
    (
        "huge opponents_total",
        with_change(lambda d: state(d).update(opponents_total=10**30)),
        "players[0].ratings.otb-standard.opponents_total",
    ),
    ("non-integer games", with_change(lambda d: state(d).update(games=41.5)), "players[0].ratings.otb-standard.games"),
    (
        "non-integer opponents_total",
        with_change(lambda d: state(d).update(opponents_total=1.25)),
        "players[0].ratings.otb-standard.opponents_total",
    ),
    (
        "points not a multiple of 0.5",
        with_change(lambda d: state(d).update(points=22.25)),
        "players[0].ratings.otb-standard.points",
    ),
    ("points above games", with_change(lambda d: state(d).update(points=42)), "players[0].ratings.otb-standard.points"),
    ("missing state field", with_change(lambda d: state(d).pop("games")), "players[0].ratings.otb-standard.games"),
    (
        "last_played after the period",
        with_change(lambda d: state(d).update(last_played="2026-11")),
        "players[0].ratings.otb-standard.last_played",
    ),
    (
        "malformed last_played",
        with_change(lambda d: state(d).update(last_played="2026-8")),
        "players[0].ratings.otb-standard.last_played",
    ),
    ("game player not listed", with_change(lambda d: d["games"][0].update(black="Z")), "games[0].black"),
    ("player playing themself", with_change(lambda d: d["games"][0].update(black="A")), "games[0].black"),
    ("game outside the period", with_change(lambda d: d["games"][0].update(date="2026-11-02")), "games[0].date"),
    ("malformed game date", with_change(lambda d: d["games"][0].update(date="2026-10-32")), "games[0].date"),
    ("bad result", with_change(lambda d: d["games"][0].update(result="1-0F")), "games[0].result"),
    ("missing result", with_change(lambda d: d["games"][0].pop("result")), "games[0].result"),
    ("game not an object", with_change(lambda d: d["games"].append(["A", "B"])), "games[1]"),
]


def elo_document(change):
    """The base document under fide-2017, B pending with one month, after ``change``."""

    def elo(document):
        document.update(rules="fide-2017")
        document.pop("adjustment")
        document["players"][1]["ratings"] = {"otb-standard": pending_state()}
        change(document)

    return with_change(elo)


def pending_state(**changes):
    months = [{"month": "2026-05", "games": 3, "opponents_total": 5400, "points": 1.5}]
    return {
        "rating": None,
        "type": "pending",
        "games": 0,
        "opponents_total": 0,
        "points": 0,
        "last_played": "2026-05",
        "pending": months,
        **changes,
    }


def pending_of(document):
    return document["players"][1]["ratings"]["otb-standard"]


B_STATE = "players[1].ratings.otb-standard"
ELO_BAD_INPUTS = [
    ("adjustment with an elo rule set", elo_document(lambda d: d.update(adjustment={"a": 0})), "adjustment"),
    ("pending state with a rating", elo_document(lambda d: pending_of(d).update(rating=1500)), f"{B_STATE}.rating"),
    ("pending state with games", elo_document(lambda d: pending_of(d).update(games=3)), f"{B_STATE}.games"),
    (
        "full state with pending months",
        elo_document(lambda d: state(d).update(pending=pending_state()["pending"])),
        "players[0].ratings.otb-standard.pending",
    ),
    (
        "full state below 1000",
        elo_document(lambda d: state(d).update(rating=999)),
        "players[0].ratings.otb-standard.rating",
    ),
    (
        "peak below the rating",
        elo_document(lambda d: state(d).update(peak=1800)),
        "players[0].ratings.otb-standard.peak",
    ),
    (
        "partial state on an elo list",
        elo_document(lambda d: state(d).update(type="partial")),
        "players[0].ratings.otb-standard.type",
    ),
    (
        "pending month given twice",
        elo_document(lambda d: pending_of(d)["pending"].append(dict(pending_of(d)["pending"][0]))),
        f"{B_STATE}.pending[1].month",
    ),
    (
        "pending month not before the period",
        elo_document(lambda d: pending_of(d)["pending"][0].update(month="2026-10")),
        f"{B_STATE}.pending[0].month",
    ),
    (
        "pending month without games",
        elo_document(lambda d: pending_of(d)["pending"][0].update(games=0)),
        f"{B_STATE}.pending[0].games",
    ),
    (
        "negative pending total",
        elo_document(lambda d: pending_of(d)["pending"][0].update(opponents_total=-1)),
        f"{B_STATE}.pending[0].opponents_total",
    ),
    (
        "pending points above games",
        elo_document(lambda d: pending_of(d)["pending"][0].update(points=3.5)),
        f"{B_STATE}.pending[0].points",
    ),
    (
        "rating used not whole",
        elo_document(lambda d: d["games"][0].update(white_rating_used=1850.5)),
        "games[0].white_rating_used",
    ),
    (
        "rating used a string",
        elo_document(lambda d: d["games"][0].update(black_rating_used="1850")),
        "games[0].black_rating_used",
    ),
    (
        "negative rating used",
        elo_document(lambda d: d["games"][0].update(black_rating_used=-1)),
        "games[0].black_rating_used",
    ),
    ("event not a string", elo_document(lambda d: d["games"][0].update(event=7)), "games[0].event"),
]
BAD_INPUTS += ELO_BAD_INPUTS


@pytest.mark.parametrize("text, field", [case[1:] for case in BAD_INPUTS], ids=[case[0] for case in BAD_INPUTS])
def test_bad_input_gets_one_error_line_naming_the_field_and_exit_status_2(tmp_path, text, field):
    source = tmp_path / "in.json"
    source.write_text(text)
    done = run("rate-file", source)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"error: {field}: "), done.stderr


def test_the_error_names_the_game_index_and_the_period():
    document = base_document()
    document["games"] = [document["games"][0]] * 3 + [dict(document["games"][0], date="2026-11-02")]
    source_text = json.dumps(document)
    done = subprocess.run(
        [sys.executable, "-m", "grading", "rate-file", "/dev/stdin"],
        input=source_text,
        capture_output=True,
        text=True,
        cwd=PROJECT,
    )
    assert done.stderr == "error: games[3].date: 2026-11-02 is outside period 2026-10\n"


def test_a_missing_input_file_is_an_error_too(tmp_path):
    done = run("rate-file", tmp_path / "nowhere.json")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")


def test_the_example_of_the_format_document_is_accepted():
    document = base_document()
    document["players"][0]["ratings"]["otb-rapid"] = {
        "rating": 1790,
        "type": "partial",
        "games": 6,
        "opponents_total": 10400,
        "points": 3.0,
        "last_played": "2025-01",
    }
    done = subprocess.run(
        [sys.executable, "-m", "grading", "rate-file", "/dev/stdin"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        cwd=PROJECT,
    )
    assert done.returncode == 0, done.stderr
    ids = [p["id"] for p in exact(done.stdout)["players"]]
    assert ids == ["A", "B"]


def test_a_month_without_games_gives_an_empty_list_of_players():
    document = dict(base_document(), games=[])
    done = subprocess.run(
        [sys.executable, "-m", "grading", "rate-file", "/dev/stdin"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        cwd=PROJECT,
    )
    assert done.returncode == 0 and exact(done.stdout)["players"] == []
