"""Reading the federation's take-on CSV files: every bad line reported, nothing half-read."""

import csv
import io
import re

from chess.decoding import MixedEncoding
from chess.decoding import decode as decode_upload


class FileRefused(Exception):
    """A file that cannot be imported; ``errors`` holds every problem, each naming its line."""

    def __init__(self, errors):
        self.errors = sorted(errors, key=_line_number)
        super().__init__("\n".join(self.errors))


def decode(data: bytes) -> str:
    """UTF-8 (with or without a byte-order mark), else Windows-1252 as Excel writes it (the
    decoding of uploaded event files, which also takes UTF-16 and refuses mixed encodings)."""
    try:
        return decode_upload(data)[0]
    except MixedEncoding as mixed:
        raise FileRefused([f"line {mixed.line}: {mixed}"]) from None


def read_rows(data: bytes, columns: list[str], optional=()):
    """The data rows as ``(line_number, row)``, and the problems of lines that could not be read.

    The header must name exactly ``columns`` (in any order), and may add any of ``optional``:
    a row has an empty value for an optional column the header leaves out. Blank lines are skipped.
    """
    reader = csv.reader(io.StringIO(decode(data), newline=""))
    try:
        header = next(reader, None)
        while header is not None and not any(value.strip() for value in header):
            header = next(reader, None)  # blank lines before the header
        if header is None:
            raise FileRefused(["line 1: the file is empty; expected a header: " + ",".join(columns)])
        header = [name.strip().lower() for name in header]
        check_header(header, columns, reader.line_num, optional)
        absent = {name: "" for name in optional if name not in header}
        rows, errors = [], []
        for values in reader:
            if not any(value.strip() for value in values):
                continue
            if len(values) != len(header):
                errors.append(f"line {reader.line_num}: {len(values)} values where the header has {len(header)}")
                continue
            row = {name: value.strip() for name, value in zip(header, values)}
            if absent:
                row.update(absent)
            rows.append((reader.line_num, row))
    except csv.Error as error:
        raise FileRefused([f"line {reader.line_num}: {error}"]) from None
    return rows, errors


def check_header(header, columns, line=1, optional=()):
    expected = ",".join(columns) + (f" (and optionally {','.join(optional)})" if optional else "")
    if len(header) == 1 and ";" in header[0]:
        raise FileRefused(
            [
                f"line {line}: the columns are separated by semicolons: save the file with commas "
                f"(CSV, comma delimited); expected: {expected}"
            ]
        )
    problems = []
    missing = [name for name in columns if name not in header]
    unknown = [name for name in header if name and name not in columns and name not in optional]
    twice = sorted({name for name in header if name and header.count(name) > 1})
    if missing:
        problems.append("missing column(s) " + ", ".join(missing))
    if unknown:
        problems.append("unknown column(s) " + ", ".join(unknown))
    if "" in header:
        problems.append("a column without a name (a comma too many?)")
    if twice:
        problems.append("column(s) named twice: " + ", ".join(twice))
    if problems:
        raise FileRefused([f"line {line}: {'; '.join(problems)}; expected: {expected}"])


def read_records(data: bytes, columns: list[str], read_row, optional=()):
    """Apply ``read_row`` to every row: the records read, and a problem for every bad line.

    ``read_row(row)`` returns the record or raises ValueError("column: what is wrong").
    """
    rows, errors = read_rows(data, columns, optional)
    records = []
    for line, row in rows:
        try:
            records.append((line, read_row(row)))
        except ValueError as error:
            errors.append(f"line {line}: {error}")
    return records, errors


def read_fields(row, readers):
    """``{name: reader(row[column])}`` for ``readers = {name: (column, reader)}``.

    Every field is read, so that one line reports all of its problems at once.
    """
    record, problems = {}, []
    for name, (column, reader) in readers.items():
        try:
            record[name] = reader(row[column])
        except ValueError as error:
            problems.append(str(error))
    if problems:
        raise ValueError("; ".join(problems))
    return record


def _line_number(message):
    match = re.match(r"line (\d+):", message)
    return int(match[1]) if match else 0


def read_path(path) -> bytes:
    """A command's input file, or FileRefused saying why it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise FileRefused([f"cannot read {path}: {error.strerror}"]) from None


def refusal(path, refused: FileRefused) -> str:
    """The message a command prints for a refused file: every problem, one a line."""
    count = len(refused.errors)
    plural = "s" if count != 1 else ""
    return f"{path}: nothing imported, {count} problem{plural}:\n" + "\n".join(refused.errors)
