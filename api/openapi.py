"""The API's description in OpenAPI 3.1, served at /api/v1/openapi.json.

Written by hand beside the serializers (api/serialize.py) it describes: tests/api/test_openapi.py
checks it is a valid OpenAPI document, that it names every endpoint of api/urls.py, and that each
endpoint's real answers, refusals included, match their schemas exactly (no field undescribed).
"""

from api.schemas import (
    BOOLEAN,
    CLUB,
    DATE,
    DATETIME,
    INTEGER,
    MONTH,
    NULL,
    RULES,
    SCHEMAS,
    STRING,
    URL,
    array,
    nullable,
    obj,
    page,
    ref,
)

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
LIST_PAGE = {"list": STRING, "period": MONTH, "revision": INTEGER, "edition": STRING, "edition_url": URL, **RULES}
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
        "The latest published list (its edition's own address: edition_url)",
        page(ref("ListLine"), **LIST_PAGE),
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
        "A published list of a month, as its latest revision has it (its edition's own address: edition_url)",
        page(ref("ListLine"), **LIST_PAGE),
        in_path("code", "The list's code."),
        {"name": "month", "in": "path", "required": True, "schema": MONTH},
        EDITION,
        paged=True,
    ),
    "/lists/{code}/{month}/r{revision}/": read(
        "One edition of a month's list: as revision N published it (0 the original), which never changes",
        page(ref("ListLine"), **LIST_PAGE),
        in_path("code", "The list's code."),
        {"name": "month", "in": "path", "required": True, "schema": MONTH},
        {"name": "revision", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}},
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
                "503": {
                    "description": "The file store cannot be reached: nothing was stored; send the file again after "
                    "Retry-After seconds.",
                    "content": {"application/json": {"schema": ref("Error")}},
                },
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
