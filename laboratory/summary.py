"""What a simulation's comparison adds up to: who moves, by how much, and how the pool shifts
(docs/laboratory.md). Figures only; the admin page and the command print them."""

from statistics import mean, median

from django.db.models import Avg, Count

from grading.engine.rule_sets import FIDE_2024
from grading.engine.rules.adjustment import ADJUSTED_BELOW
from grading.models import PlayerRating
from laboratory.models import SimulatedRating

BAND = 200  # rating bands of the published rating
# The marks a rule change moves players across, read from the rules that set them: FIDE's floor,
# the ceiling of its adjustment, and the cap of a first rating (docs/laboratory.md).
MARKS = (FIDE_2024.rating_floor, ADJUSTED_BELOW, FIDE_2024.first_rating_cap)
BUCKET = 10  # the histogram of differences, in steps of this many points
WIDEST = 100  # ... from -WIDEST to +WIDEST, with the tails beyond


def figures(differences: list[int]) -> dict:
    moved = [d for d in differences if d]
    return {
        "players": len(differences),
        "moved": len(moved),
        "up": sum(1 for d in moved if d > 0),
        "down": sum(1 for d in moved if d < 0),
        "mean": round(mean(differences), 1) if differences else None,
        "mean_absolute": round(mean(abs(d) for d in differences), 1) if differences else None,
        "median": median(differences) if differences else None,
        "largest_rise": max(differences, default=None),
        "largest_fall": min(differences, default=None),
    }


def summarize(simulation, columns: dict) -> dict:
    """The figures of a comparison (``columns``: SimulatedPlayer's fields, a list each)."""
    rows = list(zip(columns["difference"], columns["published_rating"], columns["category"], columns["junior"]))
    compared = [row for row in rows if row[0] is not None]
    by_category, by_band = {}, {}
    for difference, published, category, _ in compared:
        by_category.setdefault(category or "not rated in the span", []).append(difference)
        low = published // BAND * BAND
        by_band.setdefault(low, []).append(difference)
    pairs = list(zip(columns["published_rating"], columns["simulated_rating"]))
    return {
        "players": len(rows),
        "compared": figures([row[0] for row in compared]),
        "only_published": sum(1 for published, simulated in pairs if published is not None and simulated is None),
        "only_simulated": sum(1 for published, simulated in pairs if published is None and simulated is not None),
        "by_category": {name: figures(values) for name, values in sorted(by_category.items())},
        "juniors": figures([row[0] for row in compared if row[3]]),
        "adults": figures([row[0] for row in compared if not row[3]]),
        "by_band": [{"band": f"{low}-{low + BAND - 1}", **figures(values)} for low, values in sorted(by_band.items())],
        "distribution": distribution([row[0] for row in compared]),
        "marks": marks_crossed(pairs),
        "months": monthly_means(simulation),
    }


def marks_crossed(pairs: list[tuple]) -> list[dict]:
    """For each of MARKS: how many players are rated at it or above, published and simulated, and
    how many of them cross it (up: under it published, at it or above simulated; down: the
    reverse; a player rated one way only counts as under it the other)."""
    rows = []
    for mark in MARKS:
        published = [rating is not None and rating >= mark for rating, _ in pairs]
        simulated = [rating is not None and rating >= mark for _, rating in pairs]
        rows.append(
            {
                "mark": mark,
                "published": sum(published),
                "simulated": sum(simulated),
                "up": sum(1 for was, now in zip(published, simulated) if now and not was),
                "down": sum(1 for was, now in zip(published, simulated) if was and not now),
            }
        )
    return rows


def distribution(differences: list[int]) -> list[list]:
    """[[label, players]] from "under -100" through "0" to "over +100"."""
    buckets = {}
    for difference in differences:
        if difference < -WIDEST:
            key = -WIDEST - BUCKET
        elif difference > WIDEST:
            key = WIDEST + BUCKET
        else:  # the bucket's end furthest from 0: 1 to 10 is 10, -10 to -1 is -10
            key = (abs(difference) + BUCKET - 1) // BUCKET * BUCKET * (1 if difference >= 0 else -1)
        buckets[key] = buckets.get(key, 0) + 1
    labels = []
    for key in range(-WIDEST - BUCKET, WIDEST + 2 * BUCKET, BUCKET):
        if key < -WIDEST:
            label = f"under -{WIDEST}"
        elif key > WIDEST:
            label = f"over +{WIDEST}"
        elif key == 0:
            label = "0"
        elif key > 0:
            label = f"+{key - BUCKET + 1} to +{key}"
        else:
            label = f"-{-key} to -{-key - BUCKET + 1}"
        labels.append([label, buckets.get(key, 0)])
    return labels


def monthly_means(simulation) -> list[dict]:
    """The mean rating of the players rated in each month of the span, published and simulated."""
    published = dict(
        PlayerRating.objects.filter(
            rating_list=simulation.rating_list,
            month__gte=simulation.first_month,
            month__lte=simulation.last_month,
            superseded_at=None,
            rating__isnull=False,
        )
        .values_list("month")
        .annotate(Avg("rating"))
    )
    counts = dict(
        SimulatedRating.objects.filter(simulation=simulation, rating__isnull=False)
        .values_list("month")
        .annotate(Count("pk"))
    )
    simulated = dict(
        SimulatedRating.objects.filter(simulation=simulation, rating__isnull=False)
        .values_list("month")
        .annotate(Avg("rating"))
    )
    months = sorted(set(published) | set(simulated))
    return [
        {
            "month": month,
            "published": round(float(published[month]), 1) if month in published else None,
            "simulated": round(float(simulated[month]), 1) if month in simulated else None,
            "players": counts.get(month, 0),
        }
        for month in months
    ]
