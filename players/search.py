"""Finding players by name or federation code.

Names are compared by their keys (chess.names: folded, lower case, without accents or
apostrophes, umlauts also written out; written on the player by every save), so "fernandez"
finds Fernández, "darcy" D'Arcy, "mueller" and "muller" Müller, "obriain" Ó Briain. On
PostgreSQL a name is matched by trigram word similarity (pg_trgm) against ``name_key``, which
the GIN index of migration 0006_name_keys holds, so a search tolerates typos and any word order.
Elsewhere (SQLite in development) every word typed must appear in the key, in any order; if no
name has them all, each word of four letters or more counts by its first three.
"""

import re

from django.db.models import BooleanField, F, FloatField, Func, Q, Value

from chess.federations import fide_id
from chess.names import spellings, umlauts_taken_back
from common.replica import reading
from players.models import Player, is_player_code

# The lowest word similarity that still counts as a match (pg_trgm's default is 0.6, which
# misses one wrong letter in a short name: "flecher" is 0.55 of "Fletcher").
WORD_SIMILARITY = 0.4
MAX_QUERY = 100
MAX_WORDS = 6


class FullKey(Func):
    """``surname_key || ' ' || forenames_key`` (or forenames first): the folded name in an order."""

    template = "(%(expressions)s)"
    arg_joiner = " || "
    output_field = Player._meta.get_field("name_key")

    def __init__(self, forenames_first=False):
        first, second = ("forenames_key", "surname_key") if forenames_first else ("surname_key", "forenames_key")
        super().__init__(F(first), Value(" "), F(second))


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


def word_spellings(query: str) -> list[list[str]]:
    """The spellings (chess.names.spellings) of each word typed: ["müller"] -> [["muller",
    "mueller"]]. A word that folds to nothing (an apostrophe) is no word."""
    words = [spellings(word) for word in query.split()]
    return [found for found in words if found[0]][:MAX_WORDS]


def looks_like_code(query: str) -> bool:
    return is_player_code(query.upper())


def uses_trigrams() -> bool:
    return reading().vendor == "postgresql"


def prepare():
    """Set the session's word-similarity threshold (one cheap query, PostgreSQL only), on the
    connection the search then reads (the replica's, for the public search)."""
    if uses_trigrams():
        with reading().cursor() as cursor:
            cursor.execute("SET pg_trgm.word_similarity_threshold = %s", [WORD_SIMILARITY])


def code_prefix(query: str) -> str | None:
    """The query upper-cased if it can only be the start of a federation code (digits, perhaps
    a letter), else None."""
    return query.upper() if re.fullmatch(r"[0-9]+[A-Za-z]?", query) else None


def finds_nobody(query: str) -> bool:
    """Whether ``query`` (cleaned) can match no one: neither the start of a code nor a word of a
    name (nothing, or only apostrophes, which a name's keys never hold). Such a query finds no
    player, as an unknown name does, where a filter of no words would have taken everyone."""
    return not code_prefix(query) and not word_spellings(query)


def name_matches(query: str, prefix="") -> Q:
    """A filter for players (or rows whose ``prefix`` leads to a player) matching ``query``:
    the start of a federation code, or a FIDE ID (6 to 9 digits, chess.federations.fide_id);
    or else a name in which every word typed is found, in any order and any of its spellings
    (approximately, on PostgreSQL); none for a query that finds_nobody. Call prepare() before
    running it."""
    query = clean(query)
    if finds_nobody(query):
        return Q(pk__in=[])
    start = code_prefix(query)
    if start:
        # A range on the code's own index: "1000" finds 100000A to 100099L.
        following = start[:-1] + chr(ord(start[-1]) + 1)
        by_code = Q(**{f"{prefix}code__gte": start, f"{prefix}code__lt": following})
        number = fide_id(query)
        return by_code if number is None else by_code | Q(**{f"{prefix}fide_id": number})
    by_name = Q()
    for spelled in word_spellings(query):
        either = Q()
        for word in spelled:
            if uses_trigrams():
                # Each word on its own: the GIN index answers every condition and their
                # intersection is small, where the whole query would match every player who
                # shares a forename.
                either |= Q(WordSimilar(Value(word), F(f"{prefix}name_key")))
            else:
                either |= Q(**{f"{prefix}name_key__contains": word})
        by_name &= either
    return by_name


def nearly(query: str, prefix="") -> Q:
    """SQLite's tolerance of a typo: each word of four letters or more by its first three."""
    by_name = Q()
    for spelled in word_spellings(query):
        either = Q()
        for word in spelled:
            either |= Q(**{f"{prefix}name_key__contains": word[:3] if len(word) >= 4 else word})
        by_name &= either
    return by_name


def find_players(query, limit=20):
    """Players matching ``query``, best first: a federation code exactly, else by name.

    Returns (players, exact) where ``exact`` is the player whose code was typed, if any, or
    whose FIDE ID was, when no code starts with it.
    """
    query = clean(query)
    if finds_nobody(query):
        return [], None
    if looks_like_code(query):
        exact = live_players().filter(code=query.upper()).first()
        if exact:
            return [exact], exact
    number = fide_id(query)
    if number is not None:
        found = list(matching_players(query)[:limit])
        return found, found[0] if [player.fide_id for player in found] == [number] else None
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
    """``(surname_key || ' ' || forenames_key) COLLATE "C"`` (or forenames first): exactly the
    expressions of the b-tree indexes of migration 0006_name_keys, which answer a prefix LIKE
    and give the rows in this order."""

    template = '(%(expressions)s COLLATE "C")'
    output_field = Player._meta.get_field("name_key")

    def __init__(self, forenames_first=False):
        super().__init__(FullKey(forenames_first))


def by_name_start(query) -> list:
    """Querysets of the players whose name starts with ``query`` (PostgreSQL only), in name
    order, to be tried in turn: one word, the start of the surname; more words, the start of
    "surname forenames", then of "forenames surname". Separate queries, not one with OR: each
    is a range of its index, where OR made PostgreSQL walk a whole index. Every spelling of the
    query is a start (start_conditions), within the one query: "mueller" finds Mueller and
    Müller, "samuel" every Samuel."""
    words = word_spellings(query)
    if not words:
        return []
    tries = [starting(live_players().annotate(key=NameKey()), start_conditions(words))]
    if len(words) > 1:
        tries.append(starting(live_players().annotate(key=NameKey(forenames_first=True)), start_conditions(words)))
    return tries


def starting(players, starts: list[Q]):
    """``players`` meeting any of ``starts``, by ``key`` and code. A start alone is a range of
    its index read in order, stopping at the page's last row; several are the union of their
    ranges, each read on its own, then sorted: with them ORed in one condition PostgreSQL read
    the whole index in order, filtering every row (150 ms for a name with an "oe", "Chloe",
    among 300,000 players)."""
    first, *others = (players.filter(start).order_by("key", "code") for start in starts)
    return first.union(*others).order_by("key", "code") if others else first


def start_conditions(words) -> list[Q]:
    """The starts of a key (``key``: NameKey, written with the umlauts without their dots) that
    match the words typed, in any spelling: as typed and with their umlauts written out
    ("müller": muller, mueller); and with an "ae", "oe" or "ue" typed taken for an umlaut
    written out, the start of a key "muller" for "mueller" (chess.names.umlauts_taken_back),
    for a name that holds the words typed (its name_key has its umlauts written out: Müller's
    "mueller", where Muller has none). Each start is a range of the same index."""
    typed = list(dict.fromkeys(" ".join(spelled[index] for spelled in words) for index in (0, -1)))
    holds = Q()
    for spelled in words:
        holds &= any_of(Q(name_key__contains=word) for word in spelled)
    taken_back = dict.fromkeys(start for text in typed for start in umlauts_taken_back(text) if start not in typed)
    return [Q(key__startswith=text) for text in typed] + [Q(key__startswith=start) & holds for start in taken_back]


def any_of(conditions) -> Q:
    found = Q()
    for condition in conditions:
        found |= condition
    return found


def matching_players(query, starts_first=True):
    """A queryset of the players matching ``query`` (not empty), best match first.

    On PostgreSQL the names that start with the query (by_name_start: an index range, a
    millisecond) are the matches when there are any; else the trigram search, which forgives
    typos and takes the words in any order (tens of milliseconds)."""
    query = clean(query)
    if finds_nobody(query):
        return live_players().none()
    prepare()
    found = live_players().filter(name_matches(query))
    if code_prefix(query):
        return found.order_by("code")
    if uses_trigrams():
        for starting in by_name_start(query) if starts_first else []:
            if starting.exists():
                return starting
        folded = " ".join(spelled[0] for spelled in word_spellings(query))
        # Their clubs read apart, for the page's players alone: joined in, PostgreSQL joined every
        # player the trigrams matched (hundreds for a typo) before it sorted and cut the page.
        found = found.select_related(None).prefetch_related("club")
        return found.annotate(
            score=WordSimilarity(Value(folded), F("name_key")), closeness=Similarity(F("name_key"), Value(folded))
        ).order_by("-score", "-closeness", "surname", "forenames", "code")
    if not found.exists():
        found = live_players().filter(nearly(query))
    return found.order_by("surname", "forenames", "code")
