"""Command line of the grading app that needs no database.

    python -m grading rate-file IN.json [-o OUT.json]

Bad input: one line ``error: FIELD: what is wrong`` on standard error, exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from grading.engine.files.rate_file import format_result, parse_rate_file
from grading.engine.inputs.forms import EngineInputError
from grading.engine.methods.passes import rate_period

INPUT_ERROR = 2


def rate_file(source: str, output: str | None) -> int:
    try:
        with open(source, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        return _fail(f"{source}: cannot read ({error.__class__.__name__}: {error})")
    try:
        document = format_result(rate_period(parse_rate_file(text)))
    except EngineInputError as error:
        return _fail(str(error))
    if output is None:
        sys.stdout.write(document)
        return 0
    try:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(document)
    except OSError as error:
        return _fail(f"{output}: cannot write ({error.__class__.__name__}: {error})", status=1)
    return 0


def _fail(message: str, status: int = INPUT_ERROR) -> int:
    print("error: " + " ".join(message.split()), file=sys.stderr)
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grading")
    commands = parser.add_subparsers(dest="command", required=True)
    rate = commands.add_parser("rate-file", help="rate one period of one list from a JSON file")
    rate.add_argument("input", metavar="IN.json")
    rate.add_argument("-o", "--output", metavar="OUT.json", help="write the result here, not to stdout")
    arguments = parser.parse_args(argv)
    return rate_file(arguments.input, arguments.output)


if __name__ == "__main__":
    sys.exit(main())
