"""A generated federation in a PostgreSQL database of its own, loaded with COPY: the data of
the benchmarks that need a real database at scale (bench/site.py, bench/monthly_run.py).

A federation is clubs and players (a fifth of them juniors, a few titled), a take-on period on
each list, then rated months: events of EVENT_SIZE players, their games, the ratings they gave
(a K-style update for everyone: plausible numbers, not the engine's) with their breakdowns, and
each period's list snapshot. ``add_month_to_rate`` adds a month of approved events, not yet
rated, with newcomers among the players.

Every event looks like a real one of its list, so that a list rated by the Elo method, which
applies FIDE's event conditions (docs/rules.md section 16), rates its games: the list's time
control (TIME_CONTROLS, as the site stores it: 90+30 on OTB standard, 120 minutes for 60
moves), one round a day from the month's first day (a round's games are dated its day), and
the event's last day that of its last round.
"""

import datetime
import sys
import time
from dataclasses import dataclass

import numpy as np
from databases import ROOT, bulk_loading, connect, copy, log

sys.path.insert(0, str(ROOT))

from chess.months import Month  # noqa: E402
from chess.names import fold, search_key  # noqa: E402
from chess.time_controls import TimeControl  # noqa: E402
from grading.engine.rule_sets import RULE_SETS, lists_read, reading_digests  # noqa: E402
from grading.engine.rules.tables import d_offset_tenths_array  # noqa: E402

LISTS = [  # code, share of players on it, share of those who play in a month, rounds of an event
    ("otb-standard", 1.0, 0.20, 4),
    ("otb-rapid", 0.5, 0.10, 6),
    ("online", 0.3, 0.10, 6),
]
# Each list's time control, as the site stores an event's (str of chess.time_controls.TimeControl):
# 120 minutes for 60 moves on OTB standard, as FIDE's conditions ask of an event with a player
# rated 2200 or more; 25 on rapid, 15 online.
TIME_CONTROLS = {
    code: str(TimeControl.from_text(text))
    for code, text in {"otb-standard": "90+30", "otb-rapid": "15+10", "online": "10+5"}.items()
}
EVENT_SIZE = 40
TITLES = ["GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"]
SYLLABLES = (
    "Ab Bar Car Dun Ed Fal Gar Hal Ing Jar Kel Lan Mor Nor Or Pen Quin Ros Sal Tur Up Val War Yar Zel Ash "
    "Brom Crag Dal Elm Fen Glen"
).split()
MIDDLES = ["", "ble", "den", "ing", "ton", "ley", "ford", "wick", "more", "son", "ridge", "worth"]
ENDINGS = ["", "s", "er", "ham"]
FORENAMES = (
    "Adam Brian Callum David Ewan Farhan George Harry Ivan Jack Kieran Liam Mohammed Niall Oscar Piotr "
    "Rhys Sam Tomas Wei Alice Beth Chloe Dana Eilidh Fatima Grace Hannah Isla Jasmine Katya Lucy Maya "
    "Niamh Olivia Priya Ruth Sofia Zofia Ana"
).split()
RATING_COLUMNS = [
    "id",
    "player_id",
    "rating_list_id",
    "period_id",
    "month",
    "run_id",
    "published_at",
    "rating",
    "type",
    "games",
    "opponents_total",
    "points",
    "last_played",
    "category",
    "method",
    "prior_rating",
    "dummy_rating",
    "pass1",
    "pass2",
    "k_factor",
    "breakdown",
    "pending",
]


class Ids:
    """Primary keys handed out here, so that rows can point at each other before COPY."""

    def __init__(self):
        self.next = {}

    def take(self, table, count):
        start = self.next.get(table, 1)
        self.next[table] = start + count
        return np.arange(start, start + count, dtype=np.int64)


@dataclass
class ListStates:
    """The current state of every member of one list, as the generator moves month by month."""

    code: str
    list_id: int
    members: np.ndarray  # player ids, sorted
    rating: np.ndarray
    full: np.ndarray
    games: np.ndarray
    last_played: np.ndarray  # month indexes


@dataclass
class Federation:
    """What the loader made: enough to add more months to it."""

    players: int
    club_of: np.ndarray  # by player id
    lists: list
    ids: Ids
    rng: np.random.Generator


def load(url, players, first: Month, last: Month, seed=2026, plays: dict | None = None) -> Federation:
    """Clubs and players, the take-on period ``first`` and rated months up to ``last``, on every
    list; ``plays`` ({list code: share}) replaces LISTS' share of a list's players who play in a month."""
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    with connect(url) as conn, bulk_loading(conn):
        clubs = max(50, players // 200)
        copy(
            conn,
            "players_club",
            ["id", "code", "name", "county"],
            ((n + 1, f"B{n:05d}", f"{SYLLABLES[n % 32]}{MIDDLES[n % 12]} {n}", "Benchshire") for n in range(clubs)),
        )
        people = make_players(rng, players, clubs)
        copy(
            conn,
            "players_player",
            ["id", "code", "surname", "forenames", "birth_date", "sex", "nationality", "fide_title", "club_id"]
            + ["surname_key", "forenames_key", "name_key", "name_restricted"],
            people,
        )
        log(f"  {players:,} players in {clubs:,} clubs: {time.perf_counter() - started:.0f} s")
        federation = Federation(players, np.array([0] + [row[8] for row in people], dtype=np.int64), [], Ids(), rng)
        for code, share, playing, rounds in LISTS:
            states = take_on(conn, federation, code, share, first)
            federation.lists.append(states)
            for month in range(first.index + 1, last.index + 1):
                play_month(conn, federation, states, Month.from_index(month), (plays or {}).get(code, playing), rounds)
            log(f"  {code}: {time.perf_counter() - started:.0f} s")
        keep_what_each_month_read(conn)
    log(f"  loaded and analysed in {time.perf_counter() - started:.0f} s")
    return federation


def make_players(rng, count, clubs):
    surnames = [f"{a}{m}{e}".capitalize() for a in SYLLABLES for m in MIDDLES for e in ENDINGS]
    weights = 1 / np.arange(1, len(surnames) + 1) ** 0.7
    surname = rng.choice(len(surnames), count, p=weights / weights.sum())
    junior = rng.random(count) < 0.2
    age = np.where(junior, rng.integers(6, 18, count), rng.integers(18, 90, count))
    titled = rng.random(count) < 0.004
    today = datetime.date.today()
    rows = []
    for n in range(count):
        female = n % 6 == 0
        born = today - datetime.timedelta(days=int(age[n]) * 365 + n % 360)
        title = TITLES[4 + n % 4 if female else n % 4] if titled[n] and not junior[n] else ""
        family, given = surnames[surname[n]], FORENAMES[20 + n % 20 if female else n % 20]
        rows.append(
            (
                n + 1,
                f"{100000 + n:06d}{'ABCDEFGHJKL'[n % 11]}",
                family,
                given,
                born,
                "F" if female else "M",
                "ENG",
                title,
                int(rng.integers(1, clubs + 1)),
                # The keys Player.save writes (chess.names).
                fold(family),
                fold(given),
                search_key(family, given),
                False,  # name_restricted: a Python default, which COPY does not fill
            )
        )
    return rows


def take_on(conn, federation, code, share, month: Month) -> ListStates:
    """The list's members and their imported states for ``month``, published as its list."""
    rng, players = federation.rng, federation.players
    list_id = conn.execute("SELECT id FROM grading_ratinglist WHERE code = %s", [code]).fetchone()[0]
    members = np.sort(rng.choice(np.arange(1, players + 1), int(players * share), replace=False))
    size = len(members)
    full = rng.random(size) < 0.9
    states = ListStates(
        code,
        list_id,
        members,
        rating=np.clip(rng.normal(1550, 330, size), 100, 2750).astype(np.int64),
        full=full,
        games=np.where(full, rng.integers(10, 400, size), rng.integers(1, 10, size)),
        last_played=month.index - rng.choice([0, 0, 0, 1, 2, 5, 11, 20, 30], size),
    )
    period_id, run_id = publish_period(conn, federation.ids, list_id, month)
    rows = federation.ids.take("grading_playerrating", size)
    now = datetime.datetime.now(datetime.UTC)
    copy(
        conn,
        "grading_playerrating",
        RATING_COLUMNS,
        (
            (
                int(rows[i]),
                int(members[i]),
                list_id,
                period_id,
                str(month),
                run_id,
                now,
                int(states.rating[i]),
                "full" if full[i] else "partial",
                int(states.games[i]),
                int(states.games[i]) * int(states.rating[i]),
                int(states.games[i]) // 2,
                str(Month.from_index(int(states.last_played[i]))),
                "imported",
                "import",
                None,
                None,
                None,
                None,
                None,
                "[]",
                "[]",
            )
            for i in range(size)
        ),
    )
    write_list(conn, federation, states, period_id, month)
    return states


def write_list(conn, federation, states, period_id, month: Month):
    active = np.flatnonzero(states.last_played >= month.index - 36)
    copy(
        conn,
        "grading_listentry",
        ["period_id", "revision", "player_id", "rating", "type", "category", "games", "last_played", "club_id"],
        (
            (
                period_id,
                0,
                int(states.members[i]),
                int(states.rating[i]),
                "full" if states.full[i] else "partial",
                "full" if states.full[i] else "partial",
                int(states.games[i]),
                str(Month.from_index(int(states.last_played[i]))),
                int(federation.club_of[states.members[i]]),
            )
            for i in active
        ),
    )


def keep_what_each_month_read(conn):
    """Each published month read the other lists' publications before it, as a run in month order
    across the lists does (grading.run.periods): kept, they are current, and a run rates no more."""
    periods = conn.execute(
        "SELECT p.id, p.month, p.rule_set, l.code FROM grading_ratingperiod p "
        "JOIN grading_ratinglist l ON l.id = p.rating_list_id WHERE p.revision IS NOT NULL"
    ).fetchall()
    publications = conn.execute(
        "SELECT p.month, l.code, p.revision FROM grading_ratingperiod p "
        "JOIN grading_ratinglist l ON l.id = p.rating_list_id WHERE p.revision IS NOT NULL"
    ).fetchall()
    for period_id, month, rule_set, code in periods:
        read = reading_digests({month: lists_read(code, RULE_SETS[rule_set])}, publications)[month]
        conn.execute("UPDATE grading_ratingperiod SET states_read = %s WHERE id = %s", [read, period_id])


def publish_period(conn, ids, list_id, month):
    # Published when a month's run would be, early in the next month: in month order across the
    # lists, as the lists that read each other's states expect (grading.run.runs).
    now = datetime.datetime.combine((month + 1).first_day(), datetime.time(2), tzinfo=datetime.UTC)
    period_id = int(ids.take("grading_ratingperiod", 1)[0])
    run_id = int(ids.take("grading_ratingrun", 1)[0])
    conn.execute(
        "INSERT INTO grading_ratingperiod (id, rating_list_id, month, rule_set, status, published_at, "
        "adjustment_a, adjustment_b, revision, revision_due, states_read) VALUES (%s, %s, %s, 'ecf-2024', "
        "'published', %s, 0, 0, 0, false, '')",
        [period_id, list_id, str(month), now],
    )
    conn.execute(
        "INSERT INTO grading_ratingrun (id, period_id, trigger, started_at, finished_at, outcome, revision, "
        "task_id, progress, games, players_rated, message, result_digest, follow_ups_done) VALUES (%s, %s, 'bench', "
        "%s, %s, 'succeeded', 0, '', '', 0, 0, '', '', true)",
        [run_id, period_id, now, now],
    )
    return period_id, run_id


def pairings(rng, seats, rounds):
    """White and black seats and round numbers: each event's players shuffled and paired, each round."""
    white, black, numbers = [], [], []
    for round_number in range(1, rounds + 1):
        shuffled = rng.permuted(seats, axis=1).reshape(-1, 2)
        white.append(shuffled[:, 0])
        black.append(shuffled[:, 1])
        numbers.append(np.full(len(shuffled), round_number))
    return np.concatenate(white), np.concatenate(black), np.concatenate(numbers)


def write_events(conn, federation, code, list_id, month, player_of, rounds, status):
    """Events of EVENT_SIZE of ``player_of`` (whole events only), with their entries; each at the
    list's time control, from the month's first day to its last round's, a round a day.
    Returns the events' and entries' ids, and the games' white and black seats (indexes into
    ``player_of``) and rounds."""
    if rounds > 28:
        raise ValueError(f"{rounds} rounds, a round a day from the month's first day, would not fit in February")
    rng, ids = federation.rng, federation.ids
    events = len(player_of) // EVENT_SIZE
    event_ids = ids.take("events_event", events)
    day = month.first_day()
    copy(
        conn,
        "events_event",
        [
            "id",
            "code",
            "name",
            "kind",
            "rating_list_id",
            "start_date",
            "end_date",
            "time_control",
            "online",
            "organiser",
            "status",
            "sent_back_reason",
            "held_from",
            "submission_index",
            "list_overridden",
        ],
        (
            (
                int(event),
                f"B-{code}-{month}-{k}",
                f"Bench {code} {month} event {k}",
                "swiss",
                list_id,
                day,
                day + datetime.timedelta(days=rounds - 1),
                TIME_CONTROLS[code],
                code == "online",
                "",
                status,
                "",
                "",
                1,
                False,
            )
            for k, event in enumerate(event_ids)
        ),
    )
    entry_ids = ids.take("events_entry", events * EVENT_SIZE)
    copy(
        conn,
        "events_entry",
        [
            "id",
            "event_id",
            "pin",
            "surname",
            "forenames",
            "code",
            "player_id",
            "match",
            "club_name",
            "title",
            "sex",
            "federation",
        ],
        (
            (
                int(entry_ids[i]),
                int(event_ids[i // EVENT_SIZE]),
                i % EVENT_SIZE + 1,
                "",
                "",
                "",
                int(player_of[i]),
                "code",
                "",
                "",
                "",
                "",
            )
            for i in range(events * EVENT_SIZE)
        ),
    )
    white, black, round_of = pairings(rng, np.arange(events * EVENT_SIZE).reshape(events, EVENT_SIZE), rounds)
    return event_ids, entry_ids, white, black, round_of


def write_games(conn, federation, event_ids, entry_ids, player_of, white, black, round_of, halves, first_day):
    """The games, each dated its round's day: the events' ``first_day`` + (round - 1)."""
    game_ids = federation.ids.take("events_game", len(white))
    results = np.array(["0-1", "1/2-1/2", "1-0"])[halves]
    dates = [first_day + datetime.timedelta(days=number) for number in range(int(round_of.max(initial=0)))]
    copy(
        conn,
        "events_game",
        [
            "id",
            "event_id",
            "round",
            "board",
            "date",
            "white_entry_id",
            "black_entry_id",
            "white_id",
            "black_id",
            "result",
            "rated",
            "unrated_reason",
        ],
        (
            (
                int(game_ids[g]),
                int(event_ids[white[g] // EVENT_SIZE]),
                int(round_of[g]),
                g % (EVENT_SIZE // 2) + 1,
                dates[round_of[g] - 1],
                int(entry_ids[white[g]]),
                int(entry_ids[black[g]]),
                int(player_of[white[g]]),
                int(player_of[black[g]]),
                results[g],
                True,
                "",
            )
            for g in range(len(white))
        ),
    )
    return game_ids


def results_by_rating(rng, white_rating, black_rating):
    """White's halves (0, 1, 2): the stronger player wins more often, a quarter or so are draws."""
    expected = 1 / (1 + 10 ** ((black_rating - white_rating) / 400))
    roll = rng.random(len(white_rating))
    return np.where(roll < expected - 0.12, 2, np.where(roll < expected + 0.12, 1, 0))


def play_month(conn, federation, states, month, plays, rounds):
    """A rated month: events among the list's members, and the ratings and breakdown they gave."""
    rng, ids = federation.rng, federation.ids
    period_id, run_id = publish_period(conn, ids, states.list_id, month)
    playing = rng.permutation(np.flatnonzero(rng.random(len(states.members)) < plays))
    playing = playing[: len(playing) - len(playing) % EVENT_SIZE]
    player_of = states.members[playing]
    event_ids, entry_ids, white, black, round_of = write_events(
        conn, federation, states.code, states.list_id, month, player_of, rounds, "rated"
    )
    old = states.rating[playing]
    halves = results_by_rating(rng, old[white], old[black])
    game_ids = write_games(
        conn, federation, event_ids, entry_ids, player_of, white, black, round_of, halves, month.first_day()
    )
    # Each side's increment: (D offset + S offset) x 20 / 20, in tenths.
    side_player = np.concatenate([white, black])
    side_opponent = np.concatenate([black, white])
    side_halves = np.concatenate([halves, 2 - halves])
    tenths = d_offset_tenths_array(old[side_opponent] - old[side_player]) + (side_halves - 1) * 100
    change = np.zeros(len(playing), dtype=np.int64)
    np.add.at(change, side_player, tenths)
    new = np.maximum(100, old + np.floor_divide(change + 5, 10))
    games = states.games[playing] + rounds
    # Each player's breakdown (grading.run.breakdown.LINE), sides grouped by player.
    order = np.argsort(side_player, kind="stable")
    lines = [
        f'[{game},"{colour}",{halves},{rating},"full",null,{increment * 100_000}]'
        for game, colour, halves, rating, increment in zip(
            np.tile(game_ids, 2)[order].tolist(),
            np.repeat(["w", "b"], len(white))[order].tolist(),
            side_halves[order].tolist(),
            old[side_opponent][order].tolist(),
            tenths[order].tolist(),
        )
    ]
    ends = np.cumsum(np.bincount(side_player, minlength=len(playing))).tolist()
    breakdowns = ["[" + ",".join(lines[start:end]) + "]" for start, end in zip([0] + ends[:-1], ends)]
    rating_ids = ids.take("grading_playerrating", len(playing))
    now = datetime.datetime.now(datetime.UTC)
    copy(
        conn,
        "grading_playerrating",
        RATING_COLUMNS,
        (
            (
                int(rating_ids[i]),
                int(player_of[i]),
                states.list_id,
                period_id,
                str(month),
                run_id,
                now,
                int(new[i]),
                "full",
                int(games[i]),
                int(games[i]) * int(new[i]),
                int(games[i]) // 2,
                str(month),
                "full" if states.full[playing[i]] else "partial",
                "K",
                int(old[i]),
                None,
                None,
                None,
                20,
                breakdowns[i],
                "[]",
            )
            for i in range(len(playing))
        ),
    )
    states.rating[playing] = new
    states.full[playing] = True
    states.games[playing] = games
    states.last_played[playing] = month.index
    write_list(conn, federation, states, period_id, month)


def add_month_to_rate(url, federation, month: Month, games: dict, newcomers=0.03):
    """Approved events in ``month``, not yet rated: ``games[code]`` games on each list (whole
    events of EVENT_SIZE players, so about that many), a share ``newcomers`` of their players
    with no state on the list. Returns the games written per list."""
    rng = federation.rng
    written = {}
    with connect(url) as conn, bulk_loading(conn):
        for states in federation.lists:
            rounds = {code: rounds for code, _, _, rounds in LISTS}[states.code]
            wanted = games[states.code]
            seats = max(EVENT_SIZE, round(wanted * 2 / rounds / EVENT_SIZE) * EVENT_SIZE)
            outsiders = np.setdiff1d(np.arange(1, federation.players + 1), states.members)
            new = min(len(outsiders), int(seats * newcomers))
            player_of = np.concatenate(
                [rng.choice(states.members, seats - new, replace=False), rng.choice(outsiders, new, replace=False)]
            )
            player_of = rng.permutation(player_of)
            event_ids, entry_ids, white, black, round_of = write_events(
                conn, federation, states.code, states.list_id, month, player_of, rounds, "approved"
            )
            rating = np.full(federation.players + 1, 1500, dtype=np.int64)
            rating[states.members] = states.rating
            halves = results_by_rating(rng, rating[player_of[white]], rating[player_of[black]])
            write_games(
                conn, federation, event_ids, entry_ids, player_of, white, black, round_of, halves, month.first_day()
            )
            # Drawn and left unused: it was the one day all the list's games were once dated on,
            # and drawing it keeps the numbers drawn after it (the next list's players and
            # results), and so the data, those of the benches before the games had their rounds' days.
            rng.integers(0, 27)
            written[states.code] = len(white)
    return written
