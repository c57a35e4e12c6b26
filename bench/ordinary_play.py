"""A year of an ordinary federation for the integrity watch's bench, drawn from assumptions of its
own, not the watch's (docs/integrity.md, "The bench"):

- Players are not their ratings. Each has a true strength; adults drift (a random walk of 15
  points a month), juniors rise 100 to 400 points a year (the lower, the faster), newcomers join
  unrated and get a first rating from their first five games against rated players.
- A game is decided by the true strengths and the day's form: a normal of 70 points on the
  difference, white 35 points up; the expected score is the logistic curve of that, and draws
  are a share of games that rises with the level (6% at 1000, 36% at 2400 between equals) and
  falls as (1 - |2E - 1|)^1.3 with the gap: a model unlike the watch's in form and figures.
- Ratings are published monthly by an Elo update of the month's games (K 40 for juniors and
  players with under 30 games, 20 below 2400, 10 above): they lag strength, as in life.
- Events: weekend Swisses of 30 to 80 players and 5 to 7 rounds paired by score groups, top half
  against bottom half, nobody twice; club nights of clubs of 10 to 25 members meeting weekly and
  pairing members of near rating (the same pairs again and again); league matches between clubs,
  board by board in rating order; a few round robins of players of like rating and a few
  two-player matches.
"""

import numpy as np

PLANTED = 10**6  # planted players' ids start here
# The share of draws between equals by their level: about 15% at 1400, 35% at 2200, half at 2600
# (published averages of FIDE-rated play; straight lines between, flat beyond).
DRAW_LEVELS = (1000, 1400, 1800, 2200, 2600)
DRAWS_BETWEEN_EQUALS = (0.08, 0.15, 0.25, 0.35, 0.52)
LEAGUE_BOARDS = 6


def clubs(rng, players: int) -> np.ndarray:
    """Each player's club (-1 for none): four players in ten, in clubs of 10 to 25 members."""
    members = rng.permutation(players)[: int(players * 0.4)]
    ends = np.cumsum(rng.integers(10, 26, len(members) // 10 + 1))
    club = np.full(players, -1, np.int64)
    club[members] = np.searchsorted(ends, np.arange(len(members)), side="right")
    return club


def divisions(rng, club: np.ndarray) -> list[np.ndarray]:
    """The league's divisions: the clubs in eights, a remainder of fewer than six joining the last
    eight (so that no two clubs meet more than twice in twelve months)."""
    ids = rng.permutation(np.unique(club[club >= 0]))
    starts = list(range(0, len(ids), 8))
    if len(starts) > 1 and len(ids) - starts[-1] < 6:
        starts.pop()
    return np.split(ids, starts[1:])


class Federation:
    """Players as columns (index = id below PLANTED for ordinary players), the year's games as
    growing lists, and each event's month."""

    def __init__(self, rng, players: int):
        self.rng = rng
        junior = rng.random(players) < 0.18
        strength = np.where(junior, rng.normal(1300, 250, players), rng.normal(1700, 300, players))
        self.strength = np.clip(strength, 700, 2750)
        self.rating = np.clip(
            np.rint(self.strength + np.where(junior, -rng.uniform(0, 150, players), 0) + rng.normal(0, 40, players)),
            600,
            2800,
        ).astype(np.int64)
        self.junior = junior
        self.growth = np.where(
            junior, np.clip(rng.uniform(100, 400, players) * (1 + (1500 - self.strength) / 1500), 50, 500), 0.0
        )
        self.games_played = np.where(junior, rng.integers(5, 60, players), rng.integers(30, 400, players))
        newcomer = rng.random(players) < 0.06
        self.rating[newcomer] = 0
        self.games_played[newcomer] = 0
        self.joins = np.where(newcomer, rng.integers(0, 12, players), 0)  # the month they start playing
        self.club = clubs(rng, players)
        self.divisions = divisions(rng, self.club)
        self.swisses = {}  # month: [(event, field rows)]
        self.club_events = {}  # (month, club): the event of its nights that month
        self.columns = [[] for _ in range(7)]  # event, white, black, white's and black's rating used, halves, month
        self.event_month = [0]
        self.published = self.rating.copy()
        self.scored = []  # this month's (white, black, halves), for the update
        self.month_start = 0  # where this month's games begin in the columns (and ``scored``)

    # Players and events.

    def add_players(self, strength, rating) -> np.ndarray:
        """Players of the planted cases (ids from PLANTED), with a rating (0: unrated)."""
        count = len(strength)
        if not hasattr(self, "extra"):
            self.extra = 0
        ids = np.arange(self.extra, self.extra + count)
        self.extra += count
        grow = lambda column, values: np.concatenate((column, values))  # noqa: E731
        self.strength = grow(self.strength, np.asarray(strength, float))
        self.rating = grow(self.rating, np.asarray(rating, np.int64))
        self.published = grow(self.published, np.asarray(rating, np.int64))
        self.junior = grow(self.junior, np.zeros(count, bool))
        self.growth = grow(self.growth, np.zeros(count))
        self.games_played = grow(self.games_played, np.where(np.asarray(rating) > 0, 100, 0))
        self.joins = grow(self.joins, np.zeros(count, np.int64))
        self.club = grow(self.club, np.full(count, -1))
        return self.ordinary_count + ids

    @property
    def ordinary_count(self) -> int:
        return len(self.strength) - getattr(self, "extra", 0)

    def index(self, ids):
        """Rows of ``ids`` in the columns: ordinary ids are rows, planted ones follow them."""
        ids = np.asarray(ids)
        return np.where(ids >= PLANTED, ids - PLANTED + self.ordinary_count, ids)

    def player_ids(self, rows):
        rows = np.asarray(rows)
        return np.where(rows >= self.ordinary_count, rows - self.ordinary_count + PLANTED, rows)

    def new_event(self, month: int) -> int:
        self.event_month.append(month)
        return len(self.event_month) - 1

    # Games.

    def play(self, white_rows, black_rows) -> np.ndarray:
        """Half points of white in games between the rows, drawn from their true strengths."""
        sw, sb = self.strength[white_rows], self.strength[black_rows]
        difference = sw - sb + 35 + self.rng.normal(0, 70, len(sw))
        expected = 1 / (1 + 10 ** (-difference / 400))
        # Draws between equals by level (published averages), falling with the true gap (not the
        # day's form nor white's edge: those decide who wins a decided game).
        even = 1 / (1 + 10 ** (-(sw - sb) / 400))
        draw = np.interp((sw + sb) / 2, DRAW_LEVELS, DRAWS_BETWEEN_EQUALS) * (1 - np.abs(2 * even - 1)) ** 1.3
        draw = np.minimum(draw, 2 * np.minimum(expected, 1 - expected))
        win = np.clip(expected - draw / 2, 0, 1)
        roll = self.rng.random(len(sw))
        return np.where(roll < win, 2, np.where(roll < win + draw, 1, 0))

    def record(self, event, white_rows, black_rows, halves, month):
        white_rows, black_rows = np.atleast_1d(white_rows), np.atleast_1d(black_rows)
        halves = np.broadcast_to(np.asarray(halves, np.int64), white_rows.shape)
        values = (
            np.full(len(white_rows), event),
            self.player_ids(white_rows),
            self.player_ids(black_rows),
            self.published[white_rows],
            self.published[black_rows],
            halves,
            np.full(len(white_rows), month),
        )
        for column, value in zip(self.columns, values):
            column.append(np.asarray(value, np.int64))
        self.scored.append((white_rows, black_rows, halves))

    def played(self, event, white_rows, black_rows, month):
        halves = self.play(white_rows, black_rows)
        self.record(event, white_rows, black_rows, halves, month)
        return halves

    # The month's end: ratings published, strengths move.

    def publish(self, month):
        if self.scored:
            white = np.concatenate([w for w, _, _ in self.scored])
            black = np.concatenate([b for _, b, _ in self.scored])
            halves = np.concatenate([h for _, _, h in self.scored])
            self.update_ratings(white, black, halves)
        self.scored = []
        self.month_start = len(self.columns[0])
        self.published = self.rating.copy()
        drift = self.rng.normal(0, 15, len(self.strength))
        self.strength = self.strength + np.where(
            self.junior, self.growth / 12 + self.rng.normal(0, 10, len(drift)), drift
        )

    def update_ratings(self, white, black, halves):
        size = len(self.rating)
        rated = (self.published[white] > 0) & (self.published[black] > 0)
        w, b, h = white[rated], black[rated], halves[rated]
        expected = 1 / (1 + 10 ** ((self.published[b] - self.published[w]) / 400))
        k = np.where(self.junior | (self.games_played < 30), 40, np.where(self.published >= 2400, 10, 20))
        change = np.bincount(w, weights=k[w] * (h / 2 - expected), minlength=size)
        change -= np.bincount(b, weights=k[b] * (h / 2 - expected), minlength=size)
        self.rating = np.where(self.published > 0, np.rint(self.published + change).astype(np.int64), self.rating)
        self.games_played = self.games_played + np.bincount(white, minlength=size) + np.bincount(black, minlength=size)
        self.first_ratings(white, black, halves)

    def first_ratings(self, white, black, halves):
        """Unrated players with five games or more against rated players: their performance."""
        size = len(self.rating)
        sides = [(white, black, halves), (black, white, 2 - halves)]
        games, points, opponents = np.zeros(size), np.zeros(size), np.zeros(size)
        for me, them, scored in sides:
            chosen = (self.published[me] == 0) & (self.published[them] > 0)
            games += np.bincount(me[chosen], minlength=size)
            points += np.bincount(me[chosen], weights=scored[chosen] / 2, minlength=size)
            opponents += np.bincount(me[chosen], weights=self.published[them][chosen], minlength=size)
        self.pending = getattr(self, "pending", np.zeros((3, size)))
        if self.pending.shape[1] < size:
            self.pending = np.pad(self.pending, ((0, 0), (0, size - self.pending.shape[1])))
        self.pending += np.stack((games, points, opponents))
        games, points, opponents = self.pending
        ready = (self.rating == 0) & (games >= 5)
        share = np.clip(points / np.maximum(games, 1), 0.05, 0.95)
        performance = opponents / np.maximum(games, 1) + 400 * np.log10(share / (1 - share))
        self.rating[ready] = np.clip(np.rint(performance[ready]), 600, 2800).astype(np.int64)
        self.pending[:, ready] = 0

    def won_by(self, event, winner, loser):
        """This month's games of ``event`` between the two rows, rewritten as won by ``winner``."""
        ids = self.player_ids(np.array([winner, loser]))
        for at in range(self.month_start, len(self.columns[0])):
            if self.columns[0][at][:1].tolist() != [event]:
                continue
            white, black, halves = self.columns[1][at], self.columns[2][at], self.columns[5][at]
            between = ((white == ids[0]) & (black == ids[1])) | ((white == ids[1]) & (black == ids[0]))
            if between.any():
                halves = np.where(between, np.where(white == ids[0], 2, 0), halves)
                self.columns[5][at] = halves
                rows = self.scored[at - self.month_start]
                self.scored[at - self.month_start] = (rows[0], rows[1], halves)

    def games(self):
        return [np.concatenate(column) for column in self.columns]


def active(fed, month) -> np.ndarray:
    """The ordinary rows who play this month: joined by now."""
    rows = np.arange(fed.ordinary_count)
    return rows[fed.joins[rows] <= month]


def swiss(fed, month, field, rounds):
    """A Swiss of ``field`` (rows): paired by score groups, top half against bottom half, nobody
    twice; the odd one out has a bye."""
    event = fed.new_event(month)
    field = np.asarray(field)
    points = np.zeros(len(field))
    met = set()
    seed = np.where(fed.published[field] > 0, fed.published[field], 1000)
    for _ in range(rounds):
        order = sorted(range(len(field)), key=lambda i: (-points[i], -seed[i]))
        pairs = pair_score_groups(order, points, met)
        if not pairs:
            break
        white = field[[a for a, _ in pairs]]
        black = field[[b for _, b in pairs]]
        halves = fed.played(event, white, black, month)
        for (a, b), h in zip(pairs, halves.tolist()):
            points[a] += h / 2
            points[b] += 1 - h / 2
            met.add((min(a, b), max(a, b)))
    return event


def pair_score_groups(order, points, met):
    """Pairs of positions: each score group (with floaters from the one above) split in halves,
    the top half against the bottom half; a repeat swapped for the next in the group not met,
    and a player with no one left to meet floats down. The last floaters meet who they can."""
    pairs, carried = [], []
    groups = {}
    for i in order:
        groups.setdefault(points[i], []).append(i)
    for score in sorted(groups, reverse=True):
        group = carried + groups[score]
        carried = []
        half = len(group) // 2
        top, bottom = group[:half], group[half:]
        for a in top:
            choice = next((b for b in bottom if (min(a, b), max(a, b)) not in met), None)
            if choice is None:
                carried.append(a)
                continue
            bottom.remove(choice)
            pairs.append((a, choice))
        carried += bottom
    while len(carried) > 1:
        a = carried.pop(0)
        choice = next((b for b in carried if (min(a, b), max(a, b)) not in met), None)
        if choice is not None:  # none: a bye this round
            carried.remove(choice)
            pairs.append((a, choice))
    return pairs


def club_nights(fed, month):
    """Each club's four weekly nights of the month as one event: the members present (three in
    four) paired with the nearest in rating, so that the same pairs meet again and again."""
    rows = active(fed, month)
    rows = rows[fed.club[rows] >= 0]
    by_club = {}
    for row, club in zip(rows.tolist(), fed.club[rows].tolist()):
        by_club.setdefault(club, []).append(row)
    events = []
    for club, members in by_club.items():
        if len(members) < 6:
            continue
        event = fed.new_event(month)
        events.append(event)
        fed.club_events[(month, club)] = event
        members = np.array(members)
        for _ in range(4):
            present = members[fed.rng.random(len(members)) < 0.75]
            present = present[np.argsort(fed.published[present] + fed.rng.normal(0, 100, len(present)))]
            present = present[: len(present) // 2 * 2]
            if len(present) >= 2:
                fed.played(event, present[0::2], present[1::2], month)
    return events


def league(fed, month):
    """A round of each division's double round robin a month (so the same clubs meet once or twice
    a season), LEAGUE_BOARDS boards a side, board against board in rating order."""
    rows = active(fed, month)
    rows = rows[fed.club[rows] >= 0]
    for division in fed.divisions:
        teams = list(division) + [-1] * (len(division) % 2)  # -1: a bye
        if len(teams) < 2:
            continue
        turn = month % (len(teams) - 1)
        order = [teams[0]] + teams[1:][turn:] + teams[1:][:turn]
        half = len(order) // 2
        for home, away in zip(order[:half], order[half:][::-1]):
            if home < 0 or away < 0:
                continue
            sides = [rows[fed.club[rows] == club] for club in (home, away)]
            sides = [side[np.argsort(-fed.published[side], kind="stable")][:LEAGUE_BOARDS] for side in sides]
            boards = min(len(sides[0]), len(sides[1]))
            if boards >= 4:
                fed.played(fed.new_event(month), sides[0][:boards], sides[1][:boards], month)


def round_robins_and_matches(fed, month, count):
    """``count`` round robins of six to ten players of like rating, and half as many matches of
    four to eight games between players of like rating."""
    rows = active(fed, month)
    rows = rows[fed.published[rows] > 0]
    by_rating = rows[np.argsort(fed.published[rows])]
    for _ in range(count):
        size = int(fed.rng.integers(6, 11))
        start = int(fed.rng.integers(0, len(by_rating) - size))
        field = by_rating[start : start + size]
        event = fed.new_event(month)
        for i in range(size):
            for j in range(i + 1, size):
                fed.played(event, field[i : i + 1], field[j : j + 1], month)
    for _ in range(count // 2):
        start = int(fed.rng.integers(0, len(by_rating) - 2))
        a, b = by_rating[start], by_rating[start + 1]
        event = fed.new_event(month)
        games = int(fed.rng.integers(4, 9))
        white = np.array([a, b] * games)[:games]
        black = np.array([b, a] * games)[:games]
        fed.played(event, white, black, month)


def ordinary_month(fed, month):
    """Every ordinary event of ``month``: Swisses for about three players in ten, club nights,
    league matches, round robins and matches."""
    rows = active(fed, month)
    playing = fed.rng.permutation(rows[fed.rng.random(len(rows)) < 0.3])
    start = 0
    while start < len(playing) - 30:
        size = int(fed.rng.integers(30, 81))
        field = playing[start : start + size]
        fed.swisses.setdefault(month, []).append((swiss(fed, month, field, int(fed.rng.integers(5, 8))), field))
        start += size
    club_nights(fed, month)
    league(fed, month)
    round_robins_and_matches(fed, month, max(fed.ordinary_count // 3000, 2))
