"""A period keeps what its latest rating read of the other lists (grading.periods), so that a
month rated again against them is current whether it published or not.

Until now a published month counted as changed while another list it reads had published a
month before it later than it was published. The months that rule holds current are given what
they read now; the others are left to be rated again by the next run of their list.
"""

from django.db import migrations, models

from grading.engine import RULE_SETS
from grading.loading import lists_read
from grading.periods import reading_digests


def keep_what_the_current_months_read(apps, schema_editor):
    RatingPeriod = apps.get_model("grading", "RatingPeriod")
    published = RatingPeriod.objects.filter(revision__isnull=False)
    publications = list(published.values_list("month", "rating_list__code", "revision", "published_at"))
    for period in published.select_related("rating_list"):
        lists = lists_read(period.rating_list.code, RULE_SETS[period.rule_set])
        if any(code in lists and month < period.month and at > period.published_at for month, code, _, at in publications):
            continue  # it read states published again since: the next run rates it again
        digest = reading_digests({period.month: lists}, [row[:3] for row in publications])[period.month]
        RatingPeriod.objects.filter(pk=period.pk).update(states_read=digest)


class Migration(migrations.Migration):
    dependencies = [
        ("grading", "0021_list_entry_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingperiod",
            name="states_read",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.RunPython(keep_what_the_current_months_read, migrations.RunPython.noop),
    ]
