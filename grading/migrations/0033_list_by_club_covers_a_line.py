from django.db import migrations, models

INCLUDED = ("player", "rating", "type", "category", "games", "last_played")


class Migration(migrations.Migration):
    """list_by_club holds what a one-club list page's line shows (grading.selectors.history.club_lines).
    The new index is built first under another name, so that the old one is dropped (a lock that
    stops reads until the migration commits) only once the build is done."""

    dependencies = [
        ("grading", "0032_fide_adjustment"),
        ("players", "0008_personal_data"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="listentry",
            index=models.Index(fields=["period", "revision", "club"], include=INCLUDED, name="list_by_club_covering"),
        ),
        migrations.RemoveIndex(model_name="listentry", name="list_by_club"),
        migrations.RenameIndex(model_name="listentry", new_name="list_by_club", old_name="list_by_club_covering"),
    ]
