"""The documentation holds together: every link in the README, `docs/` and
`bench/README.md` leads to a file and heading that exist, and every environment
variable the code reads is documented on the configuration page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "bench" / "README.md", *(ROOT / "docs").glob("*.md")])
CONFIGURATION = ROOT / "docs" / "configuration.md"
"""Where the environment variables are listed, one table row each."""

_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_READ = re.compile(r"\benv_[a-z]+\(\s*\"([A-Z][A-Z0-9_]*)\"")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_somewhere(page: Path):
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    broken = []
    for target in _LINK.findall(text) + _IMAGE.findall(text):
        if re.match(r"[a-z]+:", target):  # https:, mailto:: outside the repository
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists() or (
            anchor and linked.suffix == ".md" and anchor not in anchors(linked)
        ):
            broken.append(target)
    assert broken == [], f"{page.name}: {broken}"


def test_every_environment_variable_read_is_documented():
    sources = [*ROOT.glob("bansugoroku/**/*.py"), *ROOT.glob("notifications/**/*.py")]
    read = {name for source in sources for name in _READ.findall(source.read_text())}
    assert len(read) > 40, read  # the pattern still finds what the settings read
    first_cells = re.findall(r"^\| ([^|]*) \|", CONFIGURATION.read_text(), re.M)
    documented = {
        name for cell in first_cells for name in re.findall(r"`([A-Z][A-Z0-9_<>]*)`", cell)
    }
    prefixed = {name.removesuffix("<NAME>") for name in documented if name.endswith("<NAME>")}
    missing = sorted(name for name in read - documented if name not in prefixed)
    assert missing == [], f"not in {CONFIGURATION.name}'s table: {missing}"
