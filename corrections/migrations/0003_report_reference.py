"""Each report's opaque reference, the one its reporter is given: the reports sent before it get
one each."""

from django.db import migrations, models

import corrections.models


def give_references(apps, schema_editor):
    Report = apps.get_model("corrections", "Report")
    given = set()
    for report in Report.objects.only("pk"):
        reference = corrections.models.new_reference()
        while reference in given:
            reference = corrections.models.new_reference()
        given.add(reference)
        Report.objects.filter(pk=report.pk).update(reference=reference)


class Migration(migrations.Migration):
    dependencies = [
        ("corrections", "0002_reply_claimed"),
    ]

    operations = [
        migrations.AddField(
            model_name="report",
            name="reference",
            field=models.CharField(editable=False, max_length=9, default=""),
            preserve_default=False,
        ),
        migrations.RunPython(give_references, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="report",
            name="reference",
            field=models.CharField(
                default=corrections.models.new_reference, editable=False, max_length=9, unique=True
            ),
        ),
    ]
