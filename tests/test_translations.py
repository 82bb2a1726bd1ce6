"""Every string of the pages is translated into every language, the catalogues are up to
date with the templates and code, and they compile without GNU gettext."""

import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

from bansugoroku.lib.translations import LOCALE_DIR, compile_messages, stale_catalogues

TRANSLATED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
"""English is the source language: its strings are the msgids."""

PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|<code>|</code>")


def catalogue(language: str, locale_dir: Path = LOCALE_DIR) -> polib.POFile:
    path = locale_dir / language / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"no catalogue for {language}"
    return polib.pofile(str(path))


def test_there_is_a_catalogue_for_every_other_language():
    assert sorted(TRANSLATED) == ["de", "fr", "ja", "ru"]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_is_translated(language):
    po = catalogue(language)
    assert len(po) > 100
    plurals = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
    problems = []
    for entry in po:
        forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        if entry.msgid_plural and len(forms) != plurals:
            problems.append(f"{len(forms)} plural forms, not {plurals}: {entry.msgid!r}")
        if "fuzzy" in entry.flags or not all(form.strip() for form in forms):
            problems.append(f"untranslated: {entry.msgid!r}")
            continue
        # A translation may leave a value out (Japanese names a roll by its kanji, not
        # its romanised reading), but one it names that the code does not pass would
        # fail at run time.
        known = set(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
        for form in forms:
            if unknown := set(PLACEHOLDER.findall(form)) - known:
                problems.append(f"unknown placeholders {unknown}: {entry.msgid!r} -> {form!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext's xgettext is absent")
@pytest.mark.slow
def test_the_catalogues_hold_exactly_the_strings_of_the_templates_and_code(tmp_path, monkeypatch):
    """`make messages` would change nothing: no string is missing, none is left over."""
    for package in ("bansugoroku", "notifications"):
        shutil.copytree(
            Path(settings.BASE_DIR) / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "static"),
        )
    (tmp_path / "locale").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(settings, "LOCALE_PATHS", [tmp_path / "locale"])
    call_command("makemessages", locale=["de"], no_obsolete=True, verbosity=0)

    def msgids(po: polib.POFile) -> set[tuple[str, str]]:
        return {(entry.msgid, entry.msgid_plural) for entry in po}

    fresh, kept = msgids(catalogue("de", tmp_path / "locale")), msgids(catalogue("de"))
    assert not fresh - kept, f"missing from the catalogues (run make messages): {fresh - kept}"
    assert not kept - fresh, f"no longer in the code (run make messages): {kept - fresh}"
    for language in TRANSLATED:
        assert msgids(catalogue(language)) == kept, f"{language} differs from de"


def test_catalogues_compile_in_python_when_stale(tmp_path):
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = folder / "django.po"
    shutil.copy(LOCALE_DIR / "de" / "LC_MESSAGES" / "django.po", po)
    assert stale_catalogues(tmp_path) == [po]
    assert compile_messages(tmp_path) == [po]
    mo = polib.mofile(str(po.with_suffix(".mo")))
    assert mo.find("Settings").msgstr == "Einstellungen"
    assert compile_messages(tmp_path) == []  # fresh: nothing to do
    os.utime(po, (mo_time := po.with_suffix(".mo").stat().st_mtime + 10, mo_time))
    assert compile_messages(tmp_path) == [po]
    assert list(folder.glob("*.tmp")) == []


def test_no_two_strings_differ_only_in_their_placeholders():
    """The same words are one msgid, named once (`bansugoroku.games.vocabulary`): "In %(number)d"
    and "In %(n)s" were two, translated apart ("gegnerisches Außen 1", "Gegner-Außen 1").
    A context says the same words mean something else: `off` in a play's notation."""
    seen: dict[tuple[str, str], str] = {}
    twins = []
    for entry in catalogue("de"):
        words = (entry.msgctxt or "", PLACEHOLDER.sub("%", entry.msgid))
        if words in seen:
            twins.append((seen[words], entry.msgid))
        seen.setdefault(words, entry.msgid)
    assert not twins, twins
