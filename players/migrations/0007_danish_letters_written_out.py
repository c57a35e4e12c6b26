"""Names with ø or å are also found with the letter written out (chess.names: "Sørensen" is also
"soerensen", "Åse" also "aase"), as names with an umlaut are: ``name_key`` rewritten for the
players already recorded whose names have them. ``surname_key`` and ``forenames_key`` (the
names folded, "sorensen", "ase") are as they were.
"""

import unicodedata
from importlib import import_module

from django.db import migrations
from django.db.models import Q

BATCH = 2000
LETTERS = "øØåÅ"

# chess.names as it was when this migration was written, copied as 0006_name_keys copied it.
_FOLDED = str.maketrans(
    {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D"}
    | {"ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ı": "i"}
    | dict.fromkeys("'’‘ʼ`´", None)
)
_WRITTEN_OUT = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"} | {"ø": "oe", "Ø": "Oe", "å": "aa", "Å": "Aa"}
)


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLDED))
    return " ".join("".join(char for char in decomposed if not unicodedata.combining(char)).casefold().split())


def spellings(text):
    folded = fold(text)
    written_out = fold(unicodedata.normalize("NFC", text).translate(_WRITTEN_OUT))
    return [folded] if written_out == folded else [folded, written_out]


def search_key(surname, forenames):
    folded, *written_out = spellings(f"{surname} {forenames}")
    folded_surname = fold(surname)
    words = [folded]
    if " " in folded_surname:
        words.append(folded_surname.replace(" ", ""))
    return " ".join(words + written_out)


def rewrite(search_key):
    """The players whose names have ø or å (in either case, NFC or not: "å" may be "a" and a
    combining ring) with ``name_key`` as ``search_key`` writes it, in batches as 0006 wrote it."""

    def run(apps, schema_editor):
        Player = apps.get_model("players", "Player")
        having = Q()
        for letter in [*LETTERS, "\u030a"]:
            having |= Q(surname__contains=letter) | Q(forenames__contains=letter)
        names = Player.objects.filter(having).values_list("pk", "surname", "forenames").order_by("pk")
        last = 0
        with schema_editor.connection.cursor() as cursor:
            while batch := list(names.filter(pk__gt=last)[:BATCH]):
                cursor.executemany(
                    "UPDATE players_player SET name_key = %s WHERE id = %s",
                    [(search_key(surname, forenames), pk) for pk, surname, forenames in batch],
                )
                last = batch[-1][0]

    return run


class Migration(migrations.Migration):
    dependencies = [("players", "0006_name_keys")]
    operations = [
        migrations.RunPython(
            rewrite(search_key), rewrite(import_module("players.migrations.0006_name_keys").search_key), elidable=False
        ),
    ]
