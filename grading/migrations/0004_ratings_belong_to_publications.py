"""Ratings stored before publications existed (the take-on imports) become publications.

Each such row gets its period's month, the period's latest run (an import run; one is written
if there is none) and the period's publication time; each period with ratings becomes its
original list (revision 0), with the list's entries: every player whose state after that period
is active by the window of the period's rule set. Windows are copied here, as a migration must
not depend on code that may change: ecf-2020 60 months, ecf-2024 36.
"""

from django.db import migrations
from django.utils import timezone

WINDOW_MONTHS = {"ecf-2020": 60, "ecf-2024": 36}


def month_index(month: str) -> int:
    year, number = month.split("-")
    return int(year) * 12 + int(number) - 1


def backfill(apps, schema_editor):
    PlayerRating = apps.get_model("grading", "PlayerRating")
    RatingPeriod = apps.get_model("grading", "RatingPeriod")
    RatingRun = apps.get_model("grading", "RatingRun")
    ListEntry = apps.get_model("grading", "ListEntry")
    Player = apps.get_model("players", "Player")

    periods = RatingPeriod.objects.filter(ratings__isnull=False).distinct().order_by("rating_list_id", "month")
    clubs = dict(Player.objects.values_list("pk", "club_id"))
    states = {}  # rating list id -> player id -> the latest row so far
    for period in periods:
        run = RatingRun.objects.filter(period=period).order_by("-started_at").first()
        published_at = period.published_at or (run.finished_at if run else None) or timezone.now()
        if run is None:
            run = RatingRun.objects.create(
                period=period, trigger="import", started_at=published_at, finished_at=published_at,
                outcome="succeeded", message="ratings imported before runs were recorded",
            )
        rows = PlayerRating.objects.filter(period=period)
        rows.update(month=period.month, run=run, published_at=published_at)
        run.revision = 0
        run.save(update_fields=["revision"])
        period.revision, period.status, period.published_at = 0, "published", published_at
        period.save(update_fields=["revision", "status", "published_at"])

        current = states.setdefault(period.rating_list_id, {})
        current.update((row.player_id, row) for row in rows)
        oldest_active = month_index(period.month) - WINDOW_MONTHS.get(period.rule_set, 36)
        ListEntry.objects.bulk_create(
            [
                ListEntry(
                    period=period, revision=0, player_id=row.player_id, rating=row.rating, type=row.type,
                    category=row.category, games=row.games, last_played=row.last_played,
                    club_id=clubs.get(row.player_id),
                )
                for row in current.values()
                if row.last_played and month_index(row.last_played) >= oldest_active
            ],
            batch_size=2000,
        )


class Migration(migrations.Migration):
    dependencies = [("grading", "0003_rating_runs_publish_and_explain"), ("players", "0001_initial")]
    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
