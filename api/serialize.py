"""Model rows as the API's JSON objects: ISO dates, numbers as numbers, codes as keys."""

from decimal import Decimal
from urllib.parse import quote

from django.urls import reverse
from django.utils import timezone

from grading.selectors.calculation_facts import calculation_facts
from grading.selectors.calculations import adjustment_of
from grading.selectors.explanations import dummy_hidden
from grading.selectors.rule_sets import rules_named


def number(value):
    """A Decimal (half points, increments) as a JSON number; None stays null."""
    if value is None:
        return None
    return int(value) if value == int(value) else float(value)


def iso(value):
    return value.isoformat() if value else None


def club(club):
    if club is None:
        return None
    return {"code": club.code, "name": club.name, "county": club.county}


def player(player, request=None, ages=None):
    """A player as the public sees them: the name as initials if it is restricted, and of their
    age what ``ages`` (players.ages.age_shower, on today) shows: an age band or a year of birth."""
    surname, forenames = player.shown_names
    age = ages(player.birth_date) if ages else None
    body = {
        "code": player.code,
        "name": player.name,
        "surname": surname,
        "forenames": forenames,
        "sex": player.sex or None,
        "fide_id": player.fide_id,
        "fide_title": player.fide_title or None,
        "age_band": (age and age.band) or None,
        "birth_year": age.birth_year if age else None,
        "club": club(player.club) if player.club_id else None,
    }
    if request is not None:
        body["url"] = request.build_absolute_uri(reverse("api-player", args=[player.code]))
        body["page"] = request.build_absolute_uri(reverse("player", args=[player.code]))
    return body


def rules(rule_set: str) -> dict:
    """The rule set a period was rated by, and its method ("ecf" or "elo")."""
    return {"rule_set": rule_set, "method": rules_named(rule_set).method}


def list_entry(entry, with_player=True, players="", ages=None):
    """A line of a list; with its player, their code, name, title, what ``ages``
    (players.ages.age_shower, on the list's first day) shows of their age, as the list's downloads
    do, and (``players``: the API's address of players, ending in /) their address."""
    body = {
        "rating": entry.rating,
        "type": entry.type,
        "category": entry.category,
        "games": entry.games,
        "last_played": entry.last_played or None,
    }
    if with_player:
        body = {
            "code": entry.player.code,
            "name": entry.player.name,
            "title": entry.player.fide_title or None,
            **body,
            "club": entry.club.code if entry.club_id else None,
            "age": (str(ages(entry.player.birth_date)) or None) if ages else None,
            "url": f"{players}{quote(entry.player.code)}/",
        }
    return body


def players_address(request) -> str:
    """The absolute address of the API's players, built once for a page of list lines."""
    return request.build_absolute_uri(reverse("api-players"))


def list_entries(request, ages):
    players = players_address(request)
    return lambda entry: list_entry(entry, players=players, ages=ages)


def live_entries(request, ages):
    players = players_address(request)
    return lambda entry: live_entry(entry, players=players, ages=ages)


def live_entry(entry, with_player=True, players="", ages=None):
    """A line of a live list: provisional, with the published rating it moves from."""
    return {
        **list_entry(entry, with_player, players, ages),
        "published_rating": entry.published_rating,
        "change": entry.change,
        "new_games": entry.live_games,
        "provisional": True,
    }


def live_list(live, rule_set: str | None) -> dict:
    """What a list's live ratings were computed from, and when, and the rule set of its latest
    month (None: no month)."""
    return {
        "provisional": True,
        "computed_at": iso(live.computed_at),
        "based_on_period": live.based_on.month if live.based_on else None,
        "months": [month for month in dict.fromkeys([live.first_month, live.last_month]) if month],
        "games": live.games,
        **(rules(rule_set) if rule_set else {"rule_set": None, "method": None}),
    }


def current_rating(entry):
    return {"list": entry.period.rating_list.code, "period": entry.period.month, **list_entry(entry, with_player=False)}


def rating(row, hide_dummy=False):
    return {**state(row, hide_dummy), "published_at": iso(row.published_at)}


def state(row, hide_dummy=False):
    """A rating and how it was reached, published or not; without a junior's dummy, which tells
    their age (``hide_dummy``: grading.selectors.explanations.dummy_hidden)."""
    return {
        "list": row.rating_list.code,
        "period": row.month,
        "rating": row.rating,
        "type": row.type,
        "category": row.category,
        "method": row.method,
        "games": row.games,
        "opponents_total": row.opponents_total,
        "points": number(row.points),
        "last_played": row.last_played or None,
        "prior_rating": row.prior_rating,
        "dummy_rating": None if hide_dummy else row.dummy_rating,
        "pass1": row.pass1,
        "pass2": row.pass2,
        "k_factor": number(row.k_factor),
        "k_rule": row.k_rule or None,
        "peak": row.peak,
        "pending": [{**month, "points": number(Decimal(month["points"]))} for month in row.pending],
        "adjustment": adjustment(row.adjusted_from),
        # The Elo method: the calculation page's arithmetic, as numbers.
        "calculation": calculation_facts(row),
    }


def adjustment(before: int | None):
    """FIDE's adjustment of March 2024 at the start of the month, as the calculation page shows it."""
    steps = adjustment_of(before)
    if steps is None:
        return None
    return {
        "reason": steps.reason,
        "before": steps.before,
        "gain": steps.gain,
        "after": steps.after,
        "text": steps.text,
    }


def rated_game(line):
    game = line.game  # None for a game withdrawn since it was rated
    return {
        "list": line.rating.rating_list.code,
        "period": line.rating.month,
        "date": iso(game.date) if game else None,
        "event": {"code": game.event.code, "name": game.event.name} if game else None,
        "round": game.round if game else None,
        "board": game.board if game else None,
        "colour": "white" if line.colour == "w" else "black",
        "opponent": {"code": line.opponent.code, "name": line.opponent.name} if game else None,
        "score": number(line.score),
        "opponent_rating": line.opponent_rating,
        "opponent_type": line.opponent_type,
        "pass1_opponent_rating": line.pass1_opponent_rating,
        "increment": number(line.increment),
        "counted": line.counted,
        "expected": number(line.expected),
    }


def event(event, request=None):
    body = {
        "code": event.code,
        "name": event.name,
        "kind": event.kind,
        "list": event.rating_list.code,
        "start_date": iso(event.start_date),
        "end_date": iso(event.end_date),
        "time_control": event.time_control,
        "online": event.online,
        "organiser": event.organiser,
        "status": event.status,
    }
    if request is not None:
        body["url"] = request.build_absolute_uri(reverse("api-event", args=[event.code]))
    return body


def event_status(event, steps):
    """What is public of an event submitted or held for review: its arbiter, and the days it came
    so far (events.selectors.steps_so_far), not its results."""
    arbiter = event.arbiter
    return {
        "arbiter": (arbiter.get_full_name() or arbiter.get_username()) if arbiter else None,
        "steps": [{"step": step.label, "date": iso(timezone.localdate(step.at))} for step in steps],
    }


def entry(entry, points):
    """An event's entry (grading.selectors.crosstables.EntryShown) and its points."""
    return {
        "pin": entry.pin,
        "name": entry.name,
        "code": entry.player.code if entry.player_id else (entry.code or None),
        "club": entry.club_name or None,
        "points": number(points),
        "rank": entry.rank,
    }


def game_counts(counts) -> dict:
    """An event's games counted, as its page and the arbiter's page count them
    (grading.selectors.game_counts)."""
    return {
        "games": counts.games,
        "rated": counts.rated,
        "byes": counts.byes,
        "not_rated_by_file": counts.not_rated_by_file,
        "not_between_records": counts.not_between_records,
        "left_out": [{"reason": reason, "games": len(games)} for reason, games in counts.left_out],
        "decided": counts.decided or None,
    }


def game(game, pins, not_rated=None):
    return {
        "round": game.round,
        "board": game.board,
        "date": iso(game.date),
        "white": pins.get(game.white_entry_id),
        "black": pins.get(game.black_entry_id),
        "result": game.result,
        "rated": game.rated,
        "unrated_reason": game.unrated_reason or None,
        # Why FIDE's conditions on events leave it out (Elo lists only): as published, or as the
        # live ratings have it until its month is published.
        "not_rated": not_rated,
    }


def trial(trial) -> dict:
    """The calculator's answer: nothing in it is stored or published."""
    return {
        "list": trial.rating_list.code,
        "period": str(trial.month),
        **rules(trial.rules.name),
        "player": {"code": trial.player.code, "name": trial.player.name} if trial.player else None,
        "prior_rating": trial.prior.rating if trial.prior else None,
        "rating": state(trial.rating, trial_dummy_hidden(trial)) if trial.rating else None,
        "change": trial.change,
        "score": number(trial.score),
        "games": len(trial.opponents),
        "performance": {"fide": trial.performance, "algorithm_of_400": trial.performance_400},
        "game_lines": [trial_game(line) for line in trial.games],
        "stored": False,
    }


def trial_dummy_hidden(trial) -> bool:
    """A player's dummy is left out as on the calculator's page, unless their age was typed in."""
    return dummy_hidden(trial.rating, trial.title, trial.rating_list.code, trial.rules, age_public=trial.player is None)


def trial_game(line) -> dict:
    """A calculator game: its opponent (a record, or a rating typed in) and the breakdown line."""
    body = rated_game(line)
    for name in ("list", "period", "date", "event", "round", "board"):
        del body[name]
    body["opponent"]["code"] = body["opponent"]["code"] or None
    return body
