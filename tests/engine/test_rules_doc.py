"""docs/rules.md is the rules reference the code cites: every rule cited by number exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"
CITATION = re.compile(r"\brules? (\d+)(?:-(\d+))? of docs/rules\.md")


def numbered_rules() -> list[int]:
    return [int(n) for n in re.findall(r"^(\d+)\. ", DOC.read_text(), re.MULTILINE)]


def citations() -> list[tuple[str, int]]:
    """(file, rule number) for every rule cited, ranges counted out."""
    found = []
    for path in [
        ROOT / "README.md",
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("engine/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
    ]:
        text = " ".join(path.read_text(encoding="utf-8").split())
        for first, last in CITATION.findall(text):
            for number in range(int(first), int(last or first) + 1):
                found.append((str(path.relative_to(ROOT)), number))
    return found


def test_the_rules_are_numbered_one_by_one_from_1():
    numbers = numbered_rules()
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) >= 17


def test_every_rule_cited_in_the_code_is_in_the_doc():
    cited = citations()
    assert {path for path, _ in cited} >= {"engine/plays.py", "engine/turn.py"}
    missing = [(path, n) for path, n in cited if n not in set(numbered_rules())]
    assert missing == []
