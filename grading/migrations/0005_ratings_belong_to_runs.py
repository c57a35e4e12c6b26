import django.db.models.deletion
from django.db import migrations, models

import grading.models


class Migration(migrations.Migration):
    dependencies = [("grading", "0004_ratings_belong_to_publications")]

    operations = [
        migrations.AlterField(
            model_name="playerrating",
            name="month",
            field=models.CharField(
                help_text="The period's month again.", max_length=7, validators=[grading.models.month_validator]
            ),
        ),
        migrations.AlterField(
            model_name="playerrating",
            name="published_at",
            field=models.DateTimeField(),
        ),
        migrations.AlterField(
            model_name="playerrating",
            name="run",
            field=models.ForeignKey(
                db_constraint=False, db_index=False, on_delete=django.db.models.deletion.PROTECT,
                related_name="ratings", to="grading.ratingrun",
            ),
        ),
    ]
