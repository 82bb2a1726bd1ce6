"""What the tests share lives in helper modules: a test module imported by another runs
its tests twice, and its fixtures leak into the importer. (The tests and the benchmarks
share only `harness`: an import-linter contract in pyproject.toml.)"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_no_test_module_or_conftest_is_imported():
    wrong = [
        f"{path.relative_to(TESTS)}: {name}"
        for path in sorted(TESTS.rglob("*.py"))
        for name in imported(path)
        if name.startswith("tests.")
        and (name.rsplit(".", 1)[-1].startswith("test_") or name.endswith(".conftest"))
    ]
    assert wrong == []
