"""The hand-drawn icons of `icons.txt` as bitmaps, optionally scaled up by whole pixels.

>>> icon("fire").size
(12, 12)
>>> icon("fire", scale=2).size
(24, 24)
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from PIL import Image

from firmware.language import load


@cache
def _drawings() -> dict[str, list[str]]:
    text = resources.files("firmware.screens").joinpath("icons.txt").read_text(encoding="utf-8")
    drawings: dict[str, list[str]] = {}
    rows: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("icon "):
            rows = drawings.setdefault(line.split()[1], [])
        elif not line.strip():
            rows = None
        elif rows is not None:
            rows.append(line)
    return drawings


def icon_names() -> list[str]:
    """Every icon drawn in icons.txt, sorted."""
    return sorted(_drawings())


@cache
def icon(name: str, scale: int = 1) -> Image.Image:
    """The icon as a mode "1" image, each pixel drawn as a scale x scale block (cached and
    shared: paste it, never draw on it).

    Scaling repeats rows and columns by hand (no resampling filter), so the result is the
    same on every Pillow version.
    """
    rows = _drawings()[name]
    width = max(len(row) for row in rows)
    data = [
        255 if char == "#" else 0
        for row in rows
        for _ in range(scale)
        for char in row.ljust(width, ".")
        for _ in range(scale)
    ]
    image = Image.new("1", (width * scale, len(rows) * scale), 0)
    image.putdata(data)
    return image


# The icons of the legend of docs/screens.md and of the simulator page, in its order; what
# each stands for is the catalogs' `legend.<icon>` (firmware/language/), English here.
LEGEND_ICONS = (
    "military", "political", "spiritual", "financial",
    "fire", "life", "calm", "death", "gold",
    "hidden", "turn", "tap",
)  # fmt: skip
LEGEND: dict[str, str] = {name: load("en").text(f"legend.{name}") for name in LEGEND_ICONS}
