from django.db import migrations, models


class Migration(migrations.Migration):
    """A publication is known by what it shows, not by what its run read: another list's states
    change the inputs far more often than the results."""

    dependencies = [
        ("grading", "0005_ratings_belong_to_runs"),
    ]

    operations = [
        migrations.RenameField(model_name="ratingrun", old_name="inputs_digest", new_name="result_digest"),
        migrations.AlterField(
            model_name="ratingrun",
            name="result_digest",
            field=models.CharField(blank=True, help_text="SHA-256 of what the run published: its ratings and the list.",
                                   max_length=64),
        ),
    ]
