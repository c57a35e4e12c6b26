"""The API's description in OpenAPI 3.1, served at /api/v1/openapi.json.

Written by hand beside the serializers (api/serialize.py) it describes: tests/api/test_openapi.py
checks it is a valid OpenAPI document, that it names every endpoint of api/urls.py, and that each
endpoint's real answers, refusals included, match their schemas exactly (no field undescribed).
"""

NULL = "null"


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def obj(optional=(), **properties):
    """An object with exactly these properties, all required but ``optional``."""
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }


def nullable(schema):
    if "$ref" in schema:
        return {"oneOf": [schema, {"type": NULL}]}
    return {**schema, "type": [schema["type"], NULL]}


def array(items):
    return {"type": "array", "items": items}


STRING, INTEGER, NUMBER, BOOLEAN = ({"type": kind} for kind in ("string", "integer", "number", "boolean"))
URL = {"type": "string", "format": "uri"}
DATE = {"type": "string", "format": "date"}
DATETIME = {"type": "string", "format": "date-time"}
MONTH = {"type": "string", "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])$", "examples": ["2026-10"]}
METHOD = {"type": "string", "enum": ["ecf", "elo"]}


def page(item, **extra):
    """A page of a list: count, next, previous, results, and what the endpoint adds beside them."""
    return obj(**extra, count=INTEGER, next=nullable(URL), previous=nullable(URL), results=array(item))


RULES = {"rule_set": STRING, "method": METHOD}
LINE = {
    "rating": nullable(INTEGER),
    "type": STRING,
    "category": STRING,
    "games": INTEGER,
    "last_played": nullable(MONTH),
}
LIVE = {
    "published_rating": nullable(INTEGER),
    "change": nullable(INTEGER),
    "new_games": INTEGER,
    "provisional": BOOLEAN,
}
GAME_LINE = {
    "colour": {"type": "string", "enum": ["white", "black"]},
    "score": NUMBER,
    "opponent_rating": nullable(INTEGER),
    "opponent_type": nullable(STRING),
    "pass1_opponent_rating": nullable(INTEGER),
    "increment": nullable(NUMBER),
    "counted": nullable(STRING),
    "expected": nullable(NUMBER),
}
NAMED = obj(code=STRING, name=STRING)
CLUB = {"code": STRING, "name": STRING, "county": STRING}
PLAYER = {
    "code": STRING,
    "name": STRING,
    "surname": STRING,
    "forenames": STRING,
    "sex": nullable(STRING),
    "fide_id": nullable(INTEGER),
    "fide_title": nullable(STRING),
    # What the federation's privacy setting shows of the age today (players.ages): one or neither.
    "age_band": nullable(STRING),
    "birth_year": nullable(INTEGER),
    "club": nullable(ref("Club")),
    "url": URL,
    "page": URL,
}
STATE = {
    "list": STRING,
    "period": MONTH,
    "rating": nullable(INTEGER),
    "type": STRING,
    "category": STRING,
    "method": STRING,
    "games": INTEGER,
    "opponents_total": nullable(INTEGER),
    "points": NUMBER,
    "last_played": nullable(MONTH),
    "prior_rating": nullable(INTEGER),
    "dummy_rating": nullable(INTEGER),
    "pass1": nullable(INTEGER),
    "pass2": nullable(INTEGER),
    "k_factor": nullable(NUMBER),
    "k_rule": nullable(STRING),
    "peak": nullable(INTEGER),
    "pending": array(obj(month=MONTH, games=INTEGER, opponents_total=INTEGER, points=NUMBER)),
    # FIDE's adjustment of March 2024 at the start of the month, where it began with it.
    "adjustment": nullable(obj(reason=STRING, before=INTEGER, gain=INTEGER, after=INTEGER, text=STRING)),
}

SCHEMAS = {
    "Error": obj(
        optional=("report", "fields"),
        error=STRING,
        status=INTEGER,
        report=ref("Report"),
        fields={"type": "object", "additionalProperties": array(STRING)},
    ),
    "Club": obj(**CLUB),
    "Player": obj(**PLAYER),
    "PlayerDetail": obj(
        **PLAYER,
        ratings_url=URL,
        games_url=URL,
        ratings=array(obj(list=STRING, period=MONTH, **LINE)),
        live=array(obj(list=STRING, **LINE, **LIVE)),
    ),
    "ListLine": obj(
        code=STRING, name=STRING, title=nullable(STRING), **LINE, club=nullable(STRING), age=nullable(STRING), url=URL
    ),
    "LiveLine": obj(
        code=STRING,
        name=STRING,
        title=nullable(STRING),
        **LINE,
        club=nullable(STRING),
        age=nullable(STRING),
        url=URL,
        **LIVE,
    ),
    "State": obj(**STATE),
    "Rating": obj(**STATE, published_at=nullable(DATETIME)),
    "RatedGame": obj(
        list=STRING,
        period=MONTH,
        date=nullable(DATE),
        event=nullable(NAMED),
        round=nullable(INTEGER),
        board=nullable(INTEGER),
        opponent=nullable(NAMED),
        **GAME_LINE,
    ),
    "Trial": obj(
        list=STRING,
        period=MONTH,
        **RULES,
        player=nullable(NAMED),
        prior_rating=nullable(INTEGER),
        rating=nullable(ref("State")),
        change=nullable(INTEGER),
        score=NUMBER,
        games=INTEGER,
        performance=obj(fide=nullable(INTEGER), algorithm_of_400=nullable(INTEGER)),
        game_lines=array(obj(opponent=obj(code=nullable(STRING), name=STRING), **GAME_LINE)),
        stored={"type": "boolean", "const": False},
    ),
    "RatingList": obj(
        code=STRING,
        name=STRING,
        online=BOOLEAN,
        standard_play=BOOLEAN,
        band=STRING,
        latest_period=nullable(MONTH),
        periods=array(obj(period=MONTH, revision=INTEGER, published_at=nullable(DATETIME), **RULES, url=URL)),
    ),
    "GameCounts": obj(
        games=INTEGER,
        rated=INTEGER,
        byes=INTEGER,
        not_rated_by_file=INTEGER,
        not_between_records=INTEGER,
        left_out=array(obj(reason=STRING, games=INTEGER)),
        decided={"type": ["string", NULL], "enum": ["published", "live", "today", "published and live", None]},
    ),
    "Event": obj(
        optional=("arbiter", "steps", "entries", "games", "games_counted"),
        code=STRING,
        name=STRING,
        kind=STRING,
        list=STRING,
        start_date=DATE,
        end_date=DATE,
        time_control=STRING,
        online=BOOLEAN,
        organiser=STRING,
        status={"type": "string", "enum": ["submitted", "held", "approved", "rated"]},
        url=URL,
        arbiter=nullable(STRING),
        steps=array(obj(step=STRING, date=DATE)),
        entries=array(
            obj(
                pin=INTEGER,
                name=STRING,
                code=nullable(STRING),
                club=nullable(STRING),
                points=NUMBER,
                rank=nullable(INTEGER),
            )
        ),
        games=array(
            obj(
                round=INTEGER,
                board=nullable(INTEGER),
                date=DATE,
                white=nullable(INTEGER),
                black=nullable(INTEGER),
                result=STRING,
                rated=BOOLEAN,
                unrated_reason=nullable(STRING),
                not_rated=nullable(STRING),
            )
        ),
        games_counted=ref("GameCounts"),
    ),
    "Problem": obj(line=nullable(INTEGER), column=nullable(INTEGER), message=STRING),
    "Report": {
        "type": "object",
        "description": "The check of an uploaded file, as the arbiters' upload page shows it.",
        "properties": {
            "format": STRING,
            "event": {"type": "object"},
            "errors": array(ref("Problem")),
            "warnings": array(ref("Problem")),
            "players": array({"type": "object"}),
            "games": {"type": "object"},
            "changes": {
                **array(STRING),
                "description": 'A corrected file only: what it changes of the event it replaces ("name: Old → New", '
                "and the dates, list and format likewise).",
            },
        },
        "required": ["format", "event", "errors", "warnings", "players", "games"],
    },
    "ArbitersEvent": obj(
        code=STRING,
        name=STRING,
        list=STRING,
        start_date=DATE,
        end_date=DATE,
        submission=INTEGER,
        status=STRING,
        status_label=STRING,
        games_counted=ref("GameCounts"),
        report_page=URL,
        submit=URL,
    ),
    "Upload": obj(optional=("report",), changed=BOOLEAN, event=ref("ArbitersEvent"), report=ref("Report")),
}

ERROR = {"description": "Refused: the message says why.", "content": {"application/json": {"schema": ref("Error")}}}
PAGING = [
    {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
    {"name": "page_size", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 500}},
]


def query(name, description, schema=STRING):
    return {"name": name, "in": "query", "description": description, "schema": schema}


def in_path(name, description):
    return {"name": name, "in": "path", "required": True, "description": description, "schema": STRING}


def answer(schema, description="OK"):
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def read(summary, schema, *parameters, paged=False, errors=("400", "404")):
    return {
        "get": {
            "summary": summary,
            "parameters": [*parameters, *(PAGING if paged else [])],
            "responses": {"200": answer(schema), **dict.fromkeys(errors, ERROR)},
        }
    }


CODE = in_path("code", "The player's federation code.")
LIST = query("list", "A rating list's code.")
PERIOD = query("period", "A month, YYYY-MM.", MONTH)
EDITION = query("edition", "revised (the default) or original.", {"type": "string", "enum": ["revised", "original"]})
BEARER = [{"token": []}]
WRITE_ERRORS = {"401": ERROR, "403": ERROR, "409": ERROR, "429": ERROR}

PATHS = {
    "/": read(
        "The API's resources",
        obj(players=STRING, lists=URL, clubs=URL, events=URL, documentation=URL, openapi=URL),
        errors=(),
    ),
    "/players/": read(
        "Players found by name, or by code",
        page(ref("Player")),
        query("q", "A name, part of one, the start of a code, or a FIDE ID (2 characters or more)."),
        query("code", "A federation code."),
        paged=True,
    ),
    "/openapi.json": read("This description", {"type": "object"}, errors=()),
    "/players/{code}/": read(
        "One player, their latest ratings and live ratings", ref("PlayerDetail"), CODE, errors=("404",)
    ),
    "/players/{code}/ratings/": read(
        "A player's rating history", page(ref("Rating"), player=STRING), CODE, LIST, PERIOD, paged=True
    ),
    "/players/{code}/games/": read(
        "A player's rated games", page(ref("RatedGame"), player=STRING), CODE, LIST, PERIOD, paged=True
    ),
    "/lists/": read("The rating lists and their published periods", page(ref("RatingList")), errors=()),
    "/lists/{code}/": read(
        "The latest published list",
        page(ref("ListLine"), list=STRING, period=MONTH, revision=INTEGER, edition=STRING, **RULES),
        in_path("code", "The list's code."),
        EDITION,
        paged=True,
    ),
    "/lists/{code}/live/": read(
        "The live list: provisional ratings since the latest published list",
        page(
            ref("LiveLine"),
            list=STRING,
            provisional=BOOLEAN,
            computed_at=nullable(DATETIME),
            based_on_period=nullable(MONTH),
            months=array(MONTH),
            games=INTEGER,
            rule_set=nullable(STRING),
            method={"type": ["string", NULL], "enum": ["ecf", "elo", None]},
        ),
        in_path("code", "The list's code."),
        paged=True,
    ),
    "/lists/{code}/{month}/": read(
        "A published list of a month",
        page(ref("ListLine"), list=STRING, period=MONTH, revision=INTEGER, edition=STRING, **RULES),
        in_path("code", "The list's code."),
        {"name": "month", "in": "path", "required": True, "schema": MONTH},
        EDITION,
        paged=True,
    ),
    "/calculator/": read(
        "The rating calculator: what games would do to a rating (nothing is stored)",
        ref("Trial"),
        LIST,
        query("player", "A player's code: their latest published state."),
        query("rating", "A rating, instead of a player.", {"type": "integer"}),
        query("type", "full or partial."),
        query("games", "Games rated before.", {"type": "integer"}),
        query("age", "The player's age.", {"type": "integer"}),
        query("title", "A FIDE title."),
        {
            "name": "opponent",
            "in": "query",
            "description": "CODE_OR_RATING:RESULT, once per game (at most 60).",
            "schema": array(STRING),
            "style": "form",
            "explode": True,
        },
        errors=("400",),
    ),
    "/clubs/": read("The clubs and their numbers of players", page(obj(**CLUB, players=INTEGER, url=URL)), paged=True),
    "/clubs/{code}/": read(
        "A club and its players", page(ref("Player"), club=ref("Club")), in_path("code", "The club's code."), paged=True
    ),
    "/events/": {
        **read(
            "Events approved and rated, and those submitted or held for review",
            page(ref("Event")),
            LIST,
            query("kind", "The kind of event."),
            query("month", "The month it ended, YYYY-MM.", MONTH),
            query("q", "Its name."),
            paged=True,
        ),
        "post": {
            "summary": "Upload an event's file, as the arbiters' upload page does",
            "security": BEARER,
            "requestBody": {
                "required": True,
                "content": {
                    "multipart/form-data": {
                        "schema": {
                            "type": "object",
                            "properties": {
                                "file": {"type": "string", "format": "binary"},
                                "code": STRING,
                                "name": STRING,
                                "start_date": DATE,
                                "end_date": DATE,
                                "time_control": STRING,
                                "online": BOOLEAN,
                                "kind": STRING,
                                "submission_index": INTEGER,
                            },
                            "required": ["file"],
                        }
                    }
                },
            },
            "responses": {
                "201": answer(ref("Upload"), "Stored: a new event, or a corrected file."),
                "200": answer(ref("Upload"), "The same file as the event's latest: nothing changed."),
                "422": {
                    "description": "The file has errors: nothing was stored.",
                    "content": {"application/json": {"schema": ref("Error")}},
                },
                "400": ERROR,
                **WRITE_ERRORS,
            },
        },
    },
    "/events/{code}/": read("One event", ref("Event"), in_path("code", "The event's code."), errors=("404",)),
    "/events/{code}/submit/": {
        "post": {
            "summary": "Submit an arbiter's checked event for approval",
            "security": BEARER,
            "parameters": [in_path("code", "The event's code.")],
            "responses": {
                "200": answer(obj(changed=BOOLEAN, event=ref("ArbitersEvent"))),
                "404": ERROR,
                **WRITE_ERRORS,
            },
        }
    },
}


def description(base: str) -> dict:
    """The whole document, its server at ``base`` (the API's absolute address, ending /v1/)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Federation ratings API",
            "version": "1",
            "description": "Rating lists, players, clubs and events, read by anyone; uploads by an arbiter's token. "
            "The documentation is at /api/.",
        },
        "servers": [{"url": base.rstrip("/")}],
        "paths": PATHS,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An arbiter's API token (fr_...), made on their page.",
                }
            },
        },
    }
