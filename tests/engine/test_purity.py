"""The engine is pure Python and numpy: it must work where Django is not configured."""

import ast
import pathlib
import subprocess
import sys

import grading.engine

ENGINE = pathlib.Path(grading.engine.__file__).parent


def test_importing_the_engine_and_its_cli_does_not_import_django():
    code = (
        "import sys, grading.engine, grading.engine.files.rate_file, grading.__main__; "
        "loaded = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
        "assert not loaded, loaded"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent.parent)
    assert done.returncode == 0, done.stderr


def test_no_engine_module_mentions_django_in_an_import():
    for path in ENGINE.rglob("*.py"):
        for line in path.read_text().splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]):
                assert "django" not in line, f"{path.name}: {line}"


def test_no_engine_module_divides_into_binary_floats():
    # true division (/) and float() are the ways a number becomes a binary float
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            assert not isinstance(getattr(node, "op", None), ast.Div), f"{path.name}:{node.lineno}"
            if isinstance(node, ast.Name):
                assert node.id != "float", f"{path.name}:{node.lineno}"
            if isinstance(node, ast.Attribute):
                assert "float" not in node.attr, f"{path.name}:{node.lineno}"
