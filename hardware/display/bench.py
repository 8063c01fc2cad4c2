"""Figures for `arcana-table bench hardware`: what a display update costs on the bus.

A display is opened on emulated buses exactly as a table opens it (luma's interface and
our partial-update driver); the bus meter counts the bytes and models the time at the
clock. "Full" is a whole frame (what stock luma sends on every update); "one digit" is a
score going from 12 to 13 in a 20-pixel font.
"""

from __future__ import annotations

import time
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from hardware.display.spec import DisplaySpec
from hardware.display.wiring import EmulatedWiring, open_display


def score_screen(value: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """A stake screen: a label and a two-digit number in a 20-pixel font."""
    font = ImageFont.load_default(size=20)
    image = Image.new("1", size)
    pen = ImageDraw.Draw(image)
    pen.text((2, 0), "Gold", fill=1, font=font)
    pen.text((70, 0), f"{value:2d}", fill=1, font=font)
    return image


def update_figures(
    chip: str = "ssd1306",
    height: int = 64,
    interface: str = "i2c",
    clock_hz: int = 400_000,
    repeats: int = 200,
) -> dict[str, Any]:
    """Bytes, transactions and modelled bus time of a full and a one-digit update, and the CPU
    time of `repeats` one-digit updates (`timed_updates`: what they put on the bus)."""
    spec = DisplaySpec(
        "stake-0",
        chip=chip,
        height=height,
        interface=interface,
        clock_hz=clock_hz,
        cs=5 if interface == "spi" else None,
    )
    display = open_display(spec, EmulatedWiring())
    twelve, thirteen = score_screen(12, display.size), score_screen(13, display.size)
    display.show(twelve)
    meter = display.meter

    before = meter.snapshot()
    display.invalidate()
    display.show(twelve)
    full = meter.since(before)

    before = meter.snapshot()
    display.show(thirteen)
    one_digit = meter.since(before)

    before = meter.snapshot()
    start = time.process_time()
    for n in range(repeats):  # each a one-digit change from the 13 shown: 12, 13, 12, ...
        display.show(thirteen if n % 2 else twelve)
    cpu_ms = (time.process_time() - start) * 1000 / repeats
    timed = meter.since(before)
    display.close()
    return {
        "chip": chip,
        "size": f"128x{height}",
        "interface": interface,
        "clock_hz": clock_hz,
        "full": full,
        "one_digit": one_digit,
        "one_digit_share_of_full": round(one_digit["wire_bytes"] / full["wire_bytes"], 4),
        "cpu_ms_per_one_digit_update": round(cpu_ms, 4),
        "timed_updates": {"updates": repeats, **timed},  # what the CPU figure's loop sent
    }
