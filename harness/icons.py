"""Draws the app's PNG icons from their SVG with Chromium, at the sizes Android and iOS
ask for: `make icons` after changing an SVG, then commit the PNGs. Chromium renders them
as a browser shows the SVG, so no image library is needed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "bansugoroku" / "front" / "static" / "front" / "icons"
SIZES = [
    ("board.svg", 192),
    ("board.svg", 512),
    ("board-maskable.svg", 512),
    ("board-maskable.svg", 180),
]
"""Android's two sizes, the maskable one, and iOS's home screen icon (apple-touch-icon),
full bleed too: iOS rounds its corners itself and fills transparent ones black."""


def png_name(svg: str, size: int) -> str:
    return f"{Path(svg).stem}-{size}.png"


def draw() -> list[Path]:
    drawn = []
    args = ["--no-sandbox"] if os.geteuid() == 0 else []  # Chromium's sandbox refuses root
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=args)
        page = browser.new_page()
        for svg, size in SIZES:
            page.set_viewport_size({"width": size, "height": size})
            sized = f"<svg width={size} height={size} "
            markup = (ICONS / svg).read_text().replace("<svg ", sized, 1)
            page.set_content(f'<body style="margin:0">{markup}')
            path = ICONS / png_name(svg, size)
            page.screenshot(path=str(path), omit_background=True)
            drawn.append(path)
        browser.close()
    return drawn


if __name__ == "__main__":
    for path in draw():
        print(path.name, path.stat().st_size)
