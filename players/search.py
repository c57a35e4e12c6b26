"""Finding players by name or federation code.

Names are compared folded (players.names.fold: lower case, no accents, one apostrophe), so
"fernandez" finds Fernández and "D’Arcy" D'Arcy. On PostgreSQL a name is matched by trigram
word similarity (pg_trgm) against ``fed_fold(surname || ' ' || forenames)``, the expression of
the GIN index of migration 0005_folded_names, so a search tolerates typos and any word order.
Elsewhere (SQLite in development) every word typed must appear in the folded name, in any
order; if no name has them all, each word of four letters or more counts by its first three.
"""

import re

from django.db import connection
from django.db.models import BooleanField, F, FloatField, Func, Q, Value
from django.db.models.lookups import Contains

from .models import Player, is_player_code
from .names import fold

# The lowest word similarity that still counts as a match (pg_trgm's default is 0.6, which
# misses one wrong letter in a short name: "flecher" is 0.55 of "Fletcher").
WORD_SIMILARITY = 0.4
MAX_QUERY = 100
MAX_WORDS = 6


class FullName(Func):
    """``surname || ' ' || forenames``, exactly the indexed expression."""

    template = "(%(expressions)s)"
    arg_joiner = " || "
    output_field = Player._meta.get_field("surname")

    def __init__(self, prefix="", first="surname"):
        second = "forenames" if first == "surname" else "surname"
        super().__init__(F(f"{prefix}{first}"), Value(" "), F(f"{prefix}{second}"))


class Fold(Func):
    """``fed_fold(text)``: the name folded in the database as players.names.fold folds it (on
    PostgreSQL unaccent and lower, migration 0005_folded_names; on SQLite that very function,
    registered on each connection by players.apps)."""

    function = "fed_fold"
    output_field = Player._meta.get_field("surname")


class WordSimilarity(Func):
    function = "WORD_SIMILARITY"
    output_field = FloatField()


class Similarity(Func):
    function = "SIMILARITY"
    output_field = FloatField()


class WordSimilar(Func):
    """``query <% name``: true when the word similarity reaches the session's threshold.
    The GIN trigram index answers it."""

    template = "%(expressions)s"
    arg_joiner = " <%% "
    output_field = BooleanField()


def clean(query) -> str:
    """The query as searched: single spaces, at most MAX_QUERY characters. A comma is a space:
    people type a name as the site prints it, "Fletcher, Brian"."""
    return " ".join(str(query or "").replace(",", " ").split())[:MAX_QUERY]


def folded_words(query: str) -> list[str]:
    return fold(query).split()[:MAX_WORDS]


def looks_like_code(query: str) -> bool:
    return is_player_code(query.upper())


def uses_trigrams() -> bool:
    return connection.vendor == "postgresql"


def prepare():
    """Set the session's word-similarity threshold (one cheap query, PostgreSQL only)."""
    if uses_trigrams():
        with connection.cursor() as cursor:
            cursor.execute("SET pg_trgm.word_similarity_threshold = %s", [WORD_SIMILARITY])


def code_prefix(query: str) -> str | None:
    """The query upper-cased if it can only be the start of a federation code (digits, perhaps
    a letter), else None."""
    return query.upper() if re.fullmatch(r"[0-9]+[A-Za-z]?", query) else None


def name_matches(query: str, prefix="") -> Q:
    """A filter for players (or rows whose ``prefix`` leads to a player) matching ``query``:
    the start of a federation code; or else a name in which every word typed is found, in any
    order (approximately, on PostgreSQL). Call prepare() before running it."""
    query = clean(query)
    start = code_prefix(query)
    if start:
        # A range on the code's own index: "1000" finds 100000A to 100099L.
        following = start[:-1] + chr(ord(start[-1]) + 1)
        return Q(**{f"{prefix}code__gte": start, f"{prefix}code__lt": following})
    by_name = Q()
    for word in folded_words(query):
        if uses_trigrams():
            # Each word on its own: the GIN index answers every condition and their intersection
            # is small, where the whole query would match every player who shares a forename.
            by_name &= Q(WordSimilar(Value(word), Fold(FullName(prefix))))
        else:
            by_name &= Q(Contains(Fold(FullName(prefix)), word))
    return by_name


def nearly(query: str, prefix="") -> Q:
    """SQLite's tolerance of a typo: each word of four letters or more by its first three."""
    by_name = Q()
    for word in folded_words(query):
        by_name &= Q(Contains(Fold(FullName(prefix)), word[:3] if len(word) >= 4 else word))
    return by_name


def find_players(query, limit=20):
    """Players matching ``query``, best first: a federation code exactly, else by name.

    Returns (players, exact) where ``exact`` is the player whose code was typed, if any.
    """
    query = clean(query)
    if not query:
        return [], None
    if looks_like_code(query):
        exact = live_players().filter(code=query.upper()).first()
        if exact:
            return [exact], exact
    if uses_trigrams() and not code_prefix(query):
        for starting in by_name_start(query):
            found = list(starting[:limit])
            if found:
                return found, None
    return list(matching_players(query, starts_first=False)[:limit]), None


def live_players():
    """Players that are not merged duplicates, with their clubs."""
    return Player.objects.filter(merged_into=None).select_related("club")


class NameKey(Func):
    """``fed_fold(surname || ' ' || forenames) COLLATE "C"`` (or forenames first): exactly the
    expressions of the b-tree indexes of migration 0005_folded_names, which answer a prefix
    LIKE and give the rows in this order."""

    template = '(fed_fold(%(expressions)s) COLLATE "C")'
    output_field = Player._meta.get_field("surname")

    def __init__(self, forenames_first=False):
        super().__init__(FullName() if not forenames_first else FullName(first="forenames"))


def by_name_start(query) -> list:
    """Querysets of the players whose name starts with ``query`` (PostgreSQL only), in name
    order, to be tried in turn: one word, the start of the surname; more words, the start of
    "surname forenames", then of "forenames surname". Separate queries, not one with OR: each
    is a range of its index, where OR made PostgreSQL walk a whole index."""
    words = folded_words(query)
    text = " ".join(words)
    players = live_players().annotate(key=NameKey())
    tries = [players.filter(key__startswith=text).order_by("key", "code")]
    if len(words) > 1:
        players = live_players().annotate(key=NameKey(forenames_first=True))
        tries.append(players.filter(key__startswith=text).order_by("key", "code"))
    return tries


def matching_players(query, starts_first=True):
    """A queryset of the players matching ``query`` (not empty), best match first.

    On PostgreSQL the names that start with the query (by_name_start: an index range, a
    millisecond) are the matches when there are any; else the trigram search, which forgives
    typos and takes the words in any order (tens of milliseconds)."""
    query = clean(query)
    prepare()
    found = live_players().filter(name_matches(query))
    if code_prefix(query):
        return found.order_by("code")
    if uses_trigrams():
        for starting in by_name_start(query) if starts_first else []:
            if starting.exists():
                return starting
        folded = " ".join(folded_words(query))
        return found.annotate(
            score=WordSimilarity(Value(folded), Fold(FullName())), closeness=Similarity(Fold(FullName()), Value(folded))
        ).order_by("-score", "-closeness", "surname", "forenames", "code")
    if not found.exists():
        found = live_players().filter(nearly(query))
    return found.order_by("surname", "forenames", "code")
