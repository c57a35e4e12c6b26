"""Players' names as the federation writes them: "Surname, Forenames". Pure Python, read by the
event file parsers as well as the records."""

import unicodedata


def full_name(surname: str, forenames: str) -> str:
    """ "Surname, Forenames", as names are shown everywhere; a surname alone if that is all."""
    return f"{surname}, {forenames}" if forenames else surname


def split_name(text: str) -> tuple[str, str]:
    """("Surname", "Forenames") from "Surname, Forenames", runs of spaces made one; with no comma
    all of it is the surname."""
    surname, _, forenames = text.partition(",")
    return " ".join(surname.split()), " ".join(forenames.split())


# Letters NFKD does not take apart, and the apostrophes people type, as the search compares them.
_FOLDED = str.maketrans(
    {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D"}
    | {"ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ı": "i", "’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'"}
)


def fold(text: str | None) -> str | None:
    """A name as the search compares it: lower case, without accents, one kind of apostrophe
    ("Fernández" and "fernandez", "D’Arcy" and "d'arcy" fold alike). PostgreSQL's unaccent does
    the same in the database (players.search.Fold); on SQLite this very function does."""
    if text is None:
        return None
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLDED))
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()
