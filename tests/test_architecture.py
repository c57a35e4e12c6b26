"""The shape docs/architecture.md describes holds: the imports point one way, and actions and locks
follow their conventions."""

import ast
import re
import subprocess
import sys
from pathlib import Path

from tests.builders import ROOT

PROJECT = {
    "mails",
    "accounts",
    "api",
    "arbiters",
    "public",
    "privacy",
    "laboratory",
    "alerts",
    "corrections",
    "grading",
    "events",
    "players",
    "config",
    "common",
    "chess",
    "bench",
}


def test_the_import_contracts_of_pyproject_toml_are_kept():
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 6 kept, 0 broken." in done.stdout


def project_imports_inside_functions():
    for path in sorted(ROOT.glob("*/**/*.py")):
        relative = path.relative_to(ROOT)
        # The bench's scripts set Django up before they import what needs it.
        if relative.parts[0] not in PROJECT - {"bench"} or "migrations" in relative.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.level or inner.module.split(".")[0] in PROJECT):
                    yield str(relative), "." * inner.level + (inner.module or "")
                elif isinstance(inner, ast.Import) and inner.names[0].name.split(".")[0] in PROJECT:
                    yield str(relative), inner.names[0].name


def test_no_module_of_the_project_is_imported_inside_a_function_to_dodge_a_cycle():
    # An app's ready() imports what needs the app registry: that is Django's way, not a dodge.
    found = {found for found in project_imports_inside_functions() if not found[0].endswith("/apps.py")}

    assert not found, sorted(found)


def test_the_engine_tests_run_without_django():
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/engine", "-p", "no:django", "-p", "no:cacheprovider", "-q", "-x"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )

    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout.splitlines()[-1] and "error" not in done.stdout.splitlines()[-1]


def project_modules():
    for path in sorted(ROOT.glob("*/**/*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[0] in PROJECT and "migrations" not in relative.parts:
            yield str(relative), ast.parse(path.read_text())


def test_every_action_takes_the_acting_user_keyword_only():
    # An action (docs/architecture.md, Conventions) is do_<verb>_<thing>(..., *, acting_user, ...).
    actions, wrong = [], []
    for relative, tree in project_modules():
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("do_"):
                actions.append(node.name)
                if "acting_user" not in [argument.arg for argument in node.args.kwonlyargs]:
                    wrong.append(f"{relative}: {node.name}")

    assert not wrong, wrong
    assert len(actions) >= 14


def takes_a_lock(node) -> bool:
    """A row lock (select_for_update) or an advisory one (pg_advisory_xact_lock and its kin)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "select_for_update"
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and "pg_advisory" in node.value


def test_every_lock_is_taken_through_common_locking():
    takers = {relative for relative, tree in project_modules() for node in ast.walk(tree) if takes_a_lock(node)}

    assert takers == {"common/locking.py"}


def test_no_template_comment_spans_lines():
    # Django's {# ... #} ends at the line: one of several lines is printed on the page as text.
    spanning = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "templates").rglob("*.html")
        if any("\n" in comment for comment in re.findall(r"\{#(.*?)#\}", path.read_text(), flags=re.S))
    ]
    assert spanning == []


def raw_cursor(node) -> bool:
    """``connection.cursor()`` or ``connections[...].cursor()``: a raw query on a named database."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cursor"):
        return False
    owner = node.func.value
    return (isinstance(owner, ast.Name) and owner.id == "connection") or (
        isinstance(owner, ast.Subscript) and isinstance(owner.value, ast.Name) and owner.value.id == "connections"
    )


def test_a_raw_read_goes_through_the_connection_the_orm_would_read():
    # With a replica, a raw query on ``connection`` would read the primary from a public page (or,
    # worse, a page's session setting would be made on the other database): common.replica.reading()
    # gives the one the ORM reads, and common.lookups.prepared_cursor the one the router chooses for
    # a model. Writers (the locks, COPY), the replica's own checks and the bench (its own database)
    # are apart.
    modules = [(relative, tree) for relative, tree in project_modules() if not relative.startswith("bench/")]
    readers = {relative for relative, tree in modules for node in ast.walk(tree) if raw_cursor(node)}

    assert readers == {"common/locking.py", "common/bulk.py", "common/replica.py", "common/lookups.py"}
