"""Compiles the translations (`locale/*/LC_MESSAGES/django.po`) into the `.mo` files
Django reads, in Python (polib), so a fresh machine needs no GNU gettext.

The `.mo` files are build output, ignored by git: `make install` compiles them, and so
does every process that starts Django (`FrontConfig.ready`) when one is missing or
older than its `.po`, which keeps a development server in step with an edited `.po`.
Each file is written beside and then renamed over the old one, so processes starting
together never read half a file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"


def stale_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """The `.po` files whose `.mo` is missing or older."""
    stale = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            stale.append(po)
    return stale


def compile_messages(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every stale catalogue; returns the `.po` files compiled."""
    stale = stale_catalogues(locale_dir)
    for po in stale:
        handle, temporary = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
        os.close(handle)
        try:
            polib.pofile(str(po)).save_as_mofile(temporary)
            os.replace(temporary, po.with_suffix(".mo"))
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
    return stale


if __name__ == "__main__":
    for compiled in compile_messages():
        print(f"compiled {compiled.relative_to(LOCALE_DIR.parent)}")
