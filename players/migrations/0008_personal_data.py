"""Players' personal data (docs/privacy.md): the federation's privacy setting, its one row made
here with an age band for what the public sees of an age (the strictest setting that keeps the
junior lists and filters the site already publishes: they show bands), a player's name
restricted to initials, and the history of what officers did with a player's data."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def the_setting(apps, schema_editor):
    apps.get_model("players", "PrivacySetting").objects.get_or_create(pk=1, defaults={"age_shown": "band"})


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0007_danish_letters_written_out"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PrivacySetting",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "age_shown",
                    models.CharField(
                        choices=[
                            ("nothing", "nothing"),
                            ("band", "an age band"),
                            ("birth-year", "the year of birth (a junior's band)"),
                        ],
                        default="band",
                        help_text="An age band is U8 to U18, Senior 50+ or Senior 65+ (none from 18 to 49). Never a "
                        "birth date, and never a junior's exact age or year of birth, whatever is chosen here.",
                        max_length=10,
                        verbose_name="what the public sees of an age",
                    ),
                ),
                (
                    "requests_to",
                    models.CharField(
                        blank=True,
                        help_text="An e-mail or postal address the privacy page gives for a copy, a correction, a restriction or an erasure of a player's data. Empty: the page sends people to the error-report form.",
                        max_length=250,
                        verbose_name="requests about personal data go to",
                    ),
                ),
                ("version", models.PositiveIntegerField(default=0, editable=False)),
                ("changed_at", models.DateTimeField(blank=True, editable=False, null=True)),
            ],
            options={
                "verbose_name": "privacy setting",
            },
        ),
        migrations.AlterModelOptions(
            name="player",
            options={
                "ordering": ["surname", "forenames", "code"],
                "permissions": [
                    ("merge_player", "Can merge duplicate player records"),
                    ("handle_personal_data", "Can export, restrict and erase a player's personal data"),
                ],
            },
        ),
        migrations.AddField(
            model_name="player",
            name="name_restricted",
            field=models.BooleanField(
                default=False,
                editable=False,
                help_text="The public pages show the name as initials; set by restricting or erasing the player's data.",
                verbose_name="name shown as initials",
            ),
        ),
        migrations.CreateModel(
            name="PlayerChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "action",
                    models.CharField(
                        choices=[
                            ("exported", "data exported"),
                            ("restricted", "name restricted to initials"),
                            ("lifted", "restriction lifted"),
                            ("erased", "personal data erased"),
                        ],
                        max_length=10,
                    ),
                ),
                ("at", models.DateTimeField()),
                ("reason", models.TextField(help_text="Why: the request it answers.")),
                ("details", models.JSONField(blank=True, default=dict, help_text="What was done, counted.")),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="changes", to="players.player"
                    ),
                ),
            ],
            options={
                "verbose_name": "player's data history",
                "verbose_name_plural": "players' data history",
                "ordering": ["player", "at", "pk"],
            },
        ),
        migrations.RunPython(the_setting, migrations.RunPython.noop),
    ]
