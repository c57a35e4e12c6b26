"""A period keeps what its latest rating read of the other lists (grading.run.periods), so that a
month rated again against them is current whether it published or not.

Until now a published month counted as changed while another list it reads had published a
month before it later than it was published. The months that rule holds current are given what
they read now; the others are left to be rated again by the next run of their list.
"""

import hashlib

from django.db import migrations, models

# As grading.run.loading and grading.run.periods have them today, written out here so that this
# migration does what it did whatever they become: the lists an ECF month reads (an Elo month
# reads none), and the digest of their publications before the month.
READ_BY_ECF_MONTHS = {"otb-standard": ("otb-rapid",), "otb-rapid": ("otb-standard",)}
ELO_RULE_SETS = ("fide-2017", "fide-2017-rapid", "fide-2017+floors", "fide-2017-rapid+floors")


def lists_read(code, rule_set):
    if rule_set in ELO_RULE_SETS:
        return ()
    return READ_BY_ECF_MONTHS.get(code, ("otb-standard", "otb-rapid"))


def digest(month, lists, publications):
    hasher = hashlib.sha256()
    for other_month, code, revision, _ in sorted(publications):
        if other_month >= month:
            break
        if code in lists:
            hasher.update(f"{code} {other_month} {revision}\n".encode())
    return hasher.hexdigest() if lists else ""


def keep_what_the_current_months_read(apps, schema_editor):
    RatingPeriod = apps.get_model("grading", "RatingPeriod")
    published = RatingPeriod.objects.filter(revision__isnull=False)
    publications = list(published.values_list("month", "rating_list__code", "revision", "published_at"))
    for period in published.select_related("rating_list"):
        lists = lists_read(period.rating_list.code, period.rule_set)
        if any(code in lists and month < period.month and at > period.published_at for month, code, _, at in publications):
            continue  # it read states published again since: the next run rates it again
        RatingPeriod.objects.filter(pk=period.pk).update(states_read=digest(period.month, lists, publications))


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
