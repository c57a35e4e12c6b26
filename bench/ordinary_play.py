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
        self.club = np.where(rng.random(players) < 0.4, rng.integers(0, max(players // 17, 1), players), -1)
        self.columns = [[] for _ in range(7)]  # event, white, black, white's and black's rating used, halves, month
        self.event_month = [0]
        self.published = self.rating.copy()
        self.scored = []  # this month's (white, black, halves), for the update

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
        level = (sw + sb) / 2
        draw = np.clip(0.06 + 0.30 * (level - 1000) / 1400, 0.05, 0.6) * (1 - np.abs(2 * expected - 1)) ** 1.3
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
    for members in by_club.values():
        if len(members) < 6:
            continue
        event = fed.new_event(month)
        events.append(event)
        members = np.array(members)
        for _ in range(4):
            present = members[fed.rng.random(len(members)) < 0.75]
            present = present[np.argsort(fed.published[present] + fed.rng.normal(0, 60, len(present)))]
            present = present[: len(present) // 2 * 2]
            if len(present) >= 2:
                fed.played(event, present[0::2], present[1::2], month)
    return events


def league(fed, month):
    """Clubs paired at random, six boards each, board against board in rating order."""
    rows = active(fed, month)
    rows = rows[fed.club[rows] >= 0]
    clubs = {}
    for row, club in zip(rows.tolist(), fed.club[rows].tolist()):
        clubs.setdefault(club, []).append(row)
    teams = [np.array(sorted(m, key=lambda r: -fed.published[r])[:6]) for m in clubs.values() if len(m) >= 8]
    order = fed.rng.permutation(len(teams))
    for a, b in zip(order[0::2], order[1::2]):
        event = fed.new_event(month)
        boards = min(len(teams[a]), len(teams[b]))
        fed.played(event, teams[a][:boards], teams[b][:boards], month)


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
        swiss(fed, month, playing[start : start + size], int(fed.rng.integers(5, 8)))
        start += size
    club_nights(fed, month)
    league(fed, month)
    round_robins_and_matches(fed, month, max(fed.ordinary_count // 3000, 2))
