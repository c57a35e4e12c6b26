"""An event's standings as its files give them: points and ranks, a Swiss crosstable, a round-robin
grid, a match card (read for the event page and the API by grading.selectors.crosstables); and
two players' games against each other."""

from collections import defaultdict
from decimal import Decimal

from django.db.models import Q

from chess import results
from events.models import IN_RATING, Game

SYMBOLS = {Decimal(1): "1", Decimal("0.5"): "½", Decimal(0): "0"}
RESULT_LABELS = dict(results.CHOICES)


def score_symbol(result, score):
    """How a crosstable prints one player's score: 1 ½ 0, + and − for a default."""
    if result in results.DEFAULTS:
        return "+" if score else "−"
    return SYMBOLS[score]


def sides(game):
    """The two sides of a game: (entry id, opponent entry id, colour, score)."""
    white, black = results.scores(game.result)
    yield game.white_entry_id, game.black_entry_id, "w", white
    if game.black_entry_id:
        yield game.black_entry_id, game.white_entry_id, "b", black


def standings(entries, games):
    """[{entry, points, cells: {round: cell}}] ordered by rank (else points, then pin)."""
    rows = {entry.pk: {"entry": entry, "points": Decimal(0), "cells": {}} for entry in entries}
    pins = {entry.pk: entry.pin for entry in entries}
    for game in games:
        for entry_id, opponent_id, colour, score in sides(game):
            row = rows[entry_id]
            row["points"] += score
            row["cells"].setdefault(game.round, []).append(
                {
                    "opponent": pins.get(opponent_id),
                    "colour": colour,
                    "symbol": score_symbol(game.result, score),
                    "bye": opponent_id is None,
                    "rated": game.rated,
                }
            )
    return sorted(rows.values(), key=lambda row: (row["entry"].rank or 10**6, -row["points"], row["entry"].pin))


def swiss_crosstable(entries, games):
    rounds = sorted({game.round for game in games})
    rows = standings(entries, games)
    for row in rows:
        row["rounds"] = [row["cells"].get(number, []) for number in rounds]
    return {"rounds": rounds, "rows": rows}


def round_robin_grid(entries, games):
    """Rows in standing order, a column per player in the same order; each cell the player's
    scores against that opponent (two in a double round robin)."""
    rows = standings(entries, games)
    order = [row["entry"].pk for row in rows]
    met = defaultdict(list)
    for game in games:
        for entry_id, opponent_id, _colour, score in sides(game):
            if opponent_id:
                met[entry_id, opponent_id].append(score_symbol(game.result, score))
    for row in rows:
        me = row["entry"].pk
        row["against"] = [None if other == me else " ".join(met.get((me, other), [])) for other in order]
    return {"rows": rows, "size": len(rows)}


def match_card(entries, games):
    """The boards, in order, and each side's total by club (a team match has two). ``games``
    may be Game rows or plain rows with their fields."""
    by_id = {entry.pk: entry for entry in entries}
    boards = []
    totals = defaultdict(Decimal)
    for game in games:
        white = by_id.get(game.white_entry_id)
        black = by_id.get(game.black_entry_id)
        white_score, black_score = results.scores(game.result)
        if white:
            totals[white.club_name] += white_score
        if black:
            totals[black.club_name] += black_score or 0
        result = RESULT_LABELS.get(game.result, game.result)  # as Django's get_result_display would
        boards.append({"game": game, "white": white, "black": black, "result": result})
    teams = sorted(totals.items()) if len(totals) == 2 and "" not in totals else []
    return {"boards": boards, "teams": teams}


def head_to_head(first, second):
    """Every game between two players in the events the public sees, oldest first, and each
    one's points from the played games, and how many those were (a default is listed, not
    counted)."""
    games = list(
        Game.objects.filter(event__status__in=IN_RATING)
        .filter(Q(white=first, black=second) | Q(white=second, black=first))
        .select_related("event")
        .order_by("date", "event__code", "round", "board", "pk")
    )
    points, played = [Decimal(0), Decimal(0)], 0
    for game in games:
        if game.result in results.PLAYED:
            played += 1
            white, black = results.scores(game.result)
            mine, theirs = (white, black) if game.white_id == first.pk else (black, white)
            points[0] += mine
            points[1] += theirs
        side = 0 if game.white_id == first.pk else 1
        game.first_score = score_symbol(game.result, results.scores(game.result)[side])
    return games, points, played
