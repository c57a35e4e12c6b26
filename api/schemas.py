"""The schemas of the API's answers in OpenAPI 3.1: the building blocks and every object
api/serialize.py writes, by name. The paths that answer with them are api/openapi.py."""

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
    # The Elo method's arithmetic, as the calculation page shows it (grading/selectors/calculation_facts.py).
    "calculation": {"oneOf": [ref("EloChange"), ref("FirstRating"), {"type": NULL}]},
}
ROUNDING = {"type": "string", "enum": ["half away from zero", "half up"]}
COUNTED_GAME = obj(
    difference=INTEGER, difference_used=INTEGER, counted_whole=BOOLEAN, expected=NUMBER, increment=NUMBER
)
BELOW_FLOOR = obj(rating=INTEGER, lowest=INTEGER, unrated_from=MONTH, peak_kept=nullable(INTEGER))
CHANGE = {"k": INTEGER, "expected": NUMBER, "score": NUMBER, "change": NUMBER, "rounding": ROUNDING}
CHANGE |= {"rounded": INTEGER, "rounded_half_up": INTEGER, "rating": INTEGER, "largest_difference": INTEGER}
CHANGE |= {"uncapped_from": nullable(INTEGER), "uncapped": BOOLEAN, "below_floor": nullable(BELOW_FLOOR)}
CHANGE["games"] = array({"oneOf": [COUNTED_GAME, {"type": NULL}]})
FIRST = {"games": INTEGER, "opponents_total": INTEGER, "points": NUMBER, "imaginary_games": INTEGER}
FIRST |= {
    "imaginary_rating": nullable(INTEGER),
    "average": NUMBER,
    "p": nullable(NUMBER),
    "p_rounded": nullable(NUMBER),
}
FIRST |= {"bonus": nullable(INTEGER), "rounded": nullable(INTEGER), "cap": nullable(INTEGER), "capped": BOOLEAN}
FIRST |= {"rating": nullable(INTEGER), "reached": BOOLEAN}
ELO_CALCULATIONS = {"EloChange": obj(**CHANGE), "FirstRating": obj(**FIRST)}

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
    **ELO_CALCULATIONS,
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
