"""Display test set-up: byte baselines (luma.oled's practice) and score images to draw.

A baseline is the list of `["command", [...]]` / `["data", [...]]` calls a driver made,
stored as JSON in `baselines/`. A missing baseline, or a run with ARCANA_REGENERATE=1 (the
suite's one switch, `tests/support/regenerate.py`), writes the file and FAILS the test on
purpose: a baseline is accepted by reading it, never by a run that happens to pass.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont
from regenerate import regenerating, rewrote

BASELINES = Path(__file__).resolve().parent / "baselines"


@pytest.fixture
def baseline():
    def check(name: str, calls: list) -> None:
        path = BASELINES / f"{name}.json"
        if regenerating() or not path.exists():
            path.write_text(json.dumps(calls, separators=(",", ":")) + "\n", encoding="utf-8")
            rewrote(f"baseline {path.name}")
        assert calls == json.loads(path.read_text(encoding="utf-8"))

    return check


@pytest.fixture
def score_image():
    """A stake screen as the firmware might draw it: a label and a number."""
    font = ImageFont.load_default(size=20)

    def draw(value: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
        image = Image.new("1", size)
        pen = ImageDraw.Draw(image)
        pen.text((2, 0), "Gold", fill=1, font=font)
        pen.text((70, 0), f"{value:2d}", fill=1, font=font)
        if size[1] == 64:
            pen.rectangle((0, 40, 127, 63), outline=1)
            pen.text((6, 42), "stake 3", fill=1, font=font)
        return image

    return draw
