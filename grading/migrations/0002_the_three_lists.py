from django.db import migrations

LISTS = [
    # code, name, standard_play, online, min_minutes, max_minutes, display_order
    ("otb-standard", "OTB standard", True, False, 60, None, 1),
    ("otb-rapid", "OTB rapid", False, False, 10, 60, 2),
    ("online", "Online", False, True, 0, None, 3),
]


def create_lists(apps, schema_editor):
    RatingList = apps.get_model("grading", "RatingList")
    for code, name, standard_play, online, low, high, order in LISTS:
        RatingList.objects.get_or_create(
            code=code,
            defaults={
                "name": name,
                "rule_set": "ecf-2024",
                "standard_play": standard_play,
                "online": online,
                "min_minutes": low,
                "max_minutes": high,
                "display_order": order,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("grading", "0001_initial")]
    operations = [migrations.RunPython(create_lists, migrations.RunPython.noop)]
