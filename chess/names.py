"""Players' names as the federation writes them: "Surname, Forenames". Pure Python, read by the
event file parsers as well as the records."""

import re
import unicodedata


def full_name(surname: str, forenames: str) -> str:
    """ "Surname, Forenames", as names are shown everywhere; a surname alone if that is all."""
    return f"{surname}, {forenames}" if forenames else surname


def initials(surname: str, forenames: str) -> tuple[str, str]:
    """A name as its initials, ("F.", "A. M.") for "Fletcher", "Alice Mary": what the public pages
    show of a player whose name is restricted (docs/privacy.md). A hyphenated part keeps its
    hyphen ("Smith-Jones" is "S.-J."); what has no letter or digit gives none."""

    def letter(piece: str) -> str:
        return next((f"{char.upper()}." for char in piece if char.isalnum()), "")

    def of(part: str) -> str:
        words = ("-".join(filter(None, map(letter, word.split("-")))) for word in part.split())
        return " ".join(word for word in words if word)

    return of(surname), of(forenames)


def split_name(text: str) -> tuple[str, str]:
    """("Surname", "Forenames") from "Surname, Forenames", runs of spaces made one; with no comma
    all of it is the surname."""
    surname, _, forenames = text.partition(",")
    return " ".join(surname.split()), " ".join(forenames.split())


# A spreadsheet takes a cell starting with one of these for a formula ("CSV injection", OWASP): a
# name that came in an upload must not run as one on a club captain's computer. The CSV upload
# warns of such a name; every CSV download writes it with an apostrophe before it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_start(text: str) -> str:
    """The character ``text`` starts with that makes a spreadsheet run it as a formula, or ""."""
    return text[0] if text.startswith(FORMULA_STARTS) else ""


# Letters NFKD does not take apart; apostrophes go: "D'Arcy", "D’Arcy" and "Darcy" are one name.
_FOLDED = str.maketrans(
    {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D"}
    | {"ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ı": "i"}
    | dict.fromkeys("'’‘ʼ`´", None)
)
# Letters also written out as two: German umlauts, and Danish and Norwegian ø and å ("Sørensen":
# sorensen, soerensen; "Åse": ase, aase); ß is "ss" in fold itself, by casefold, and æ is "ae" there.
_UMLAUTS = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"} | {"ø": "oe", "Ø": "Oe", "å": "aa", "Å": "Aa"}
)
# Where such a letter may have been written out: "mueller" may be Müller, "soerensen" Sørensen,
# "aase" Åse; "manuel" is only Manuel. The second letter is the one taken back.
_WRITTEN_OUT = re.compile(r"[aou]e|aa")


def fold(text: str) -> str:
    """A name as names are compared (search, suggestions, matching): lower case, without accents
    or apostrophes, runs of spaces made one ("Fernández" and "fernandez", "D’Arcy" and "darcy",
    "Straße" and "strasse" fold alike)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLDED))
    return " ".join("".join(char for char in decomposed if not unicodedata.combining(char)).casefold().split())


def spellings(text: str) -> list[str]:
    """The folded ways of writing ``text``: as written, and with its umlauts (and ø, å) written
    out ("Müller": muller, mueller; "Sørensen": sorensen, soerensen). Two names are the same
    when they share a spelling."""
    folded = fold(text)
    written_out = fold(unicodedata.normalize("NFC", text).translate(_UMLAUTS))
    return [folded] if written_out == folded else [folded, written_out]


def same_name(one: str, other: str) -> bool:
    return not set(spellings(one)).isdisjoint(spellings(other))


def keys_to_look_up(text: str) -> list[str]:
    """The folded names a record of the same name as ``text`` may be stored under (its first
    spelling, Player.surname_key): its own spellings and each with letters written out taken
    back (umlauts_taken_back): for "mueller", "muller" (Müller's); for "aeroe", "aero" (Ærø's).
    A wider net than same_name, which decides."""
    found = spellings(text)
    return list(dict.fromkeys(found + [plain for key in found for plain in umlauts_taken_back(key)]))


def umlauts_taken_back(folded: str, most=3) -> list[str]:
    """``folded`` with each "ae", "oe", "ue" (or "aa") of it taken, or not, for an umlaut (or
    å) written out and written as a key writes it, without its second letter ("mueller" ->
    ["muller"]; "samuel mueller" -> "samul mueller", "samuel muller", "samul muller"): the
    starts a name's key may have when ``folded`` is the start of its spelling with those
    letters written out. Only the first ``most``
    are taken back, at most 2**most - 1 texts; not ``folded`` itself."""
    found = [match.start() + 1 for match in _WRITTEN_OUT.finditer(folded)][:most]
    texts = []
    for mask in range(1, 2 ** len(found)):
        dropped = {at for bit, at in enumerate(found) if mask >> bit & 1}
        texts.append("".join(char for at, char in enumerate(folded) if at not in dropped))
    return texts


def search_key(surname: str, forenames: str) -> str:
    """The text the name search looks in (Player.name_key): "surname forenames" folded, then the
    surname as one word when it is several ("o briain brian obriain"), then the name with its
    umlauts (and ø, å) written out when it has any ("muller hans mueller hans")."""
    folded, *written_out = spellings(f"{surname} {forenames}")
    folded_surname = fold(surname)
    words = [folded]
    if " " in folded_surname:
        words.append(folded_surname.replace(" ", ""))
    return " ".join(words + written_out)
