"""Where the test data lives, and short ways to write event files in a test."""

from pathlib import Path

from events.formats import parse_event_file

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
TRF_DIR = DATA / "trf"
ECF_EXAMPLE = DATA / "ecf" / "example-ecf-results.txt"


def parse(text: str, filename: str = "", encoding: str = "utf-8"):
    return parse_event_file(text.encode(encoding), filename)


def parse_file(path: Path):
    return parse_event_file(path.read_bytes(), path.name)


def trf_player(rank, name, *rounds, points="", sex="m", title="", rating="", fed="", fide_id="", birth=""):
    """A TRF 001 record with every field in its columns; rounds are (opponent, colour, result)."""
    line = (
        f"001 {rank:>4} {sex:1}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide_id:>11} "
        f"{birth:<10} {points:>4} {'':>4}  "
    )
    for opponent, colour, result in rounds:
        line += f"{opponent:>4} {colour:1} {result:1}  "
    return line.rstrip()


HEADER = ("012 Test Open", "042 2026/10/03", "052 2026/10/04", "122 90 min + 30 sec")


def trf(*lines, header=HEADER):
    return "\n".join([*header, *lines]) + "\n"


def messages(event, severity="error"):
    return [(p.line, p.message) for p in event.problems if p.severity == severity]
