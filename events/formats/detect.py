"""Which of the three formats an uploaded file is, judged by its content."""

import codecs
import re

from chess.decoding import MixedEncoding, decode
from events.formats.base import CODE_PATTERN, ParsedEvent
from events.formats.csvgames import REQUIRED, header_columns, parse_csv
from events.formats.ecf import parse_ecf
from events.formats.trf import parse_trf

TRF, ECF, CSV = "trf", "ecf", "csv"
_PARSERS = {TRF: parse_trf, ECF: parse_ecf, CSV: parse_csv}
_EXTENSIONS = {".trf": TRF, ".trfx": TRF, ".csv": CSV}
_TRF_RECORD = re.compile(r"^\d{3}(?: |$)", re.MULTILINE)
# Control characters other than tab and line ends have no place in a results file and would be
# stored in names.
# The same for the bidirectional overrides (U+202A-U+202E, U+2066-U+2069), which make a name
# read on screen other than it is written.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
_ECF_FIELD = re.compile(r"#\s*[A-Z][A-Z0-9 ]*(?:=|\s*(?:#|$))", re.IGNORECASE | re.MULTILINE)
# What a file uploaded by mistake most often is, by its first bytes, and what to say of it.
_SPREADSHEET = (
    "this is a spreadsheet (or other binary) file, not text: save it as CSV (comma separated values) and upload that."
)
_NOT_TEXT = {
    b"PK\x03\x04": _SPREADSHEET,  # .xlsx, .ods
    b"\xd0\xcf\x11\xe0": _SPREADSHEET,  # .xls
    b"\x89PNG": "this is a PNG image, not a text file of results.",
    b"\xff\xd8\xff": "this is a JPEG image, not a text file of results.",
    b"GIF8": "this is a GIF image, not a text file of results.",
    b"%PDF": "this is a PDF document, not a text file of results.",
}
EXPECTED = (
    "Expected one of: a FIDE TRF file (lines starting with record numbers such as '012 ' and "
    "'001 '); an ECF results file (starting '#EVENT DETAILS', then '#NAME=value' fields); or a "
    "CSV file whose first row names the columns " + ", ".join(REQUIRED) + "."
)


def detect_format(text: str, filename: str = "") -> str | None:
    """TRF, ECF or CSV from the content; the file name only settles a tie. None if none fits."""
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines:
        return None
    found = []
    if lines[0].lstrip().startswith("#") and len(_ECF_FIELD.findall(text)) >= 2:
        found.append(ECF)
    records = _TRF_RECORD.findall(text)
    if len(records) >= 2 and any(line.startswith(("001 ", "012 ")) for line in lines):
        found.append(TRF)
    columns, _ = header_columns(lines[0])
    if sum(name in columns for name in REQUIRED) >= 2:
        found.append(CSV)
    extension = filename.lower()[filename.rfind(".") :] if "." in filename else ""
    if len(found) > 1 and _EXTENSIONS.get(extension) in found:
        return _EXTENSIONS[extension]
    return found[0] if found else None


def parse_event_file(data: bytes, filename: str = "", code_pattern: str = CODE_PATTERN) -> ParsedEvent:
    """Parse an uploaded event file. Never raises for bad content: what is wrong is in
    ``problems`` (an unrecognised file is a ParsedEvent with format "" and one error).
    ``code_pattern`` is the shape of the federation's player codes (a regular expression)."""
    if refusal := _not_text(data):
        return _refused(f"{refusal} {EXPECTED}")
    try:
        text, encoding = decode(data)
    except MixedEncoding as mixed:
        event = ParsedEvent(format="")
        event.error(mixed.line, str(mixed))
        return event
    if "\x00" in text:
        return _refused("this is a binary file, not a text file of results. " + EXPECTED)
    if not text.strip():
        return _refused("the file is empty. " + EXPECTED)
    if bad_lines := lines_with_control_characters(text):
        return _refused_lines(bad_lines)
    kind = detect_format(text, filename)
    if kind is None:
        return _refused("the file's format is not recognised. " + EXPECTED)
    event = _PARSERS[kind](text, code_pattern)
    event.encoding = encoding
    return event


def _not_text(data):
    """What to say of a file that is no text, or None. A NUL byte is in no text but UTF-16's:
    undecoded, an image's bytes would pass for a file in two encodings."""
    for signature, refusal in _NOT_TEXT.items():
        if data.startswith(signature):
            return refusal
    if b"\x00" in data and not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "this is a binary file, not a text file of results."
    return None


def lines_with_control_characters(text) -> list[tuple[int, str]]:
    """(line number, the first control character as U+XXXX) for each line that has one."""
    return [
        (number, f"U+{ord(found.group()):04X}")
        for number, line in enumerate(text.split("\n"), start=1)
        if (found := _CONTROL.search(line))
    ]


def _refused_lines(bad_lines):
    event = ParsedEvent(format="")
    for number, character in bad_lines:
        event.error(
            number,
            f"contains the control character {character}, which no name or result may "
            "hold: save the file again from the program that made it, or remove it",
        )
    return event


def _refused(message):
    event = ParsedEvent(format="")
    event.error(None, message)
    return event
