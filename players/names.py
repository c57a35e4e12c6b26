"""Players' names as the federation writes them: "Surname, Forenames". Pure Python, read by the
event file parsers as well as the records."""


def full_name(surname: str, forenames: str) -> str:
    """ "Surname, Forenames", as names are shown everywhere; a surname alone if that is all."""
    return f"{surname}, {forenames}" if forenames else surname


def split_name(text: str) -> tuple[str, str]:
    """("Surname", "Forenames") from "Surname, Forenames", runs of spaces made one; with no comma
    all of it is the surname."""
    surname, _, forenames = text.partition(",")
    return " ".join(surname.split()), " ".join(forenames.split())
