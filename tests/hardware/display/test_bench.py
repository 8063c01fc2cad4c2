"""The bench's display figures (`hardware.display.bench`, `arcana-table bench hardware`): the
screen it draws, and the figures docs/hardware.md gives for it.

Bytes and modelled bus time are deterministic and asserted; CPU time never is (only that it is
there, a number of milliseconds).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hardware.display.bench import score_screen, update_figures

DOCS = Path(__file__).resolve().parents[3] / "docs/hardware.md"
CPU = "cpu_ms_per_one_digit_update"
ROW = r"\| (SSD1306|SH1106) 128x(\d+) \| (\d+) / ([\d.]+) \| (\d+) / ([\d.]+) \| ([\d.]+%) \|"
KEYS = {"chip", "size", "interface", "clock_hz", "full", "one_digit", "one_digit_share_of_full"}


def documented() -> dict[tuple[str, int], tuple[int, float, int, float, str]]:
    """docs/hardware.md's table "display update, I2C 400 kHz": per (chip, height) the full
    frame's bytes and ms, the one-digit update's bytes and ms, and its share."""
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        found = re.fullmatch(ROW, line)
        if found:
            chip, height, full, full_ms, one, one_ms, share = found.groups()
            rows[(chip.lower(), int(height))] = (
                int(full), float(full_ms), int(one), float(one_ms), share
            )  # fmt: skip
    return rows


def test_the_docs_give_the_figures_of_both_chips_and_both_heights():
    assert set(documented()) == {(c, h) for c in ("ssd1306", "sh1106") for h in (64, 32)}


@pytest.mark.parametrize("height", [64, 32])
@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_the_bench_measures_the_display_figures_the_docs_give(chip, height):
    figures = update_figures(chip, height, "i2c", 400_000, repeats=1)
    full, full_ms, one, one_ms, share = documented()[(chip, height)]
    assert figures.keys() == KEYS | {CPU, "timed_updates"}
    assert (figures["chip"], figures["size"], figures["interface"], figures["clock_hz"]) == (
        chip,
        f"128x{height}",
        "i2c",
        400_000,
    )
    assert (figures["full"]["wire_bytes"], round(figures["full"]["bus_ms"], 1)) == (full, full_ms)
    assert (figures["one_digit"]["wire_bytes"], round(figures["one_digit"]["bus_ms"], 2)) == (
        one,
        one_ms,
    )
    assert f"{figures['one_digit_share_of_full']:.1%}" == share
    assert isinstance(figures[CPU], float) and figures[CPU] >= 0


def test_by_default_the_bench_measures_an_ssd1306_128x64_on_i2c_at_400_khz():
    default = update_figures()
    named = update_figures("ssd1306", 64, "i2c", 400_000, repeats=1)
    assert {k: default[k] for k in KEYS} == {k: named[k] for k in KEYS}
    assert default["timed_updates"]["updates"] == 200


@pytest.mark.parametrize(("chip", "repeats"), [("ssd1306", 4), ("sh1106", 3), ("ssd1306", 200)])
def test_the_cpu_figure_times_one_digit_updates_every_one_a_change(chip, repeats):
    """The timed loop goes 12, 13, 12, ... from the 13 on the screen: each update sends what
    the one-digit update does (an unchanged screen would send nothing and flatter the CPU
    figure)."""
    figures = update_figures(chip, 64, "i2c", 400_000, repeats=repeats)
    timed, one = figures["timed_updates"], figures["one_digit"]
    assert timed["updates"] == repeats
    for key in ("transactions", "wire_bytes", "payload_bytes"):
        assert timed[key] == repeats * one[key], key
    assert timed["bus_ms"] == pytest.approx(repeats * one["bus_ms"], abs=0.01)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_on_spi_the_wire_carries_the_payload_alone_at_the_clock(chip):
    """No address or control bytes as on I2C: 8 bits a byte at 8 MHz."""
    figures = update_figures(chip, 64, "spi", 8_000_000, repeats=1)
    assert (figures["interface"], figures["clock_hz"]) == ("spi", 8_000_000)
    i2c = update_figures(chip, 64, "i2c", 400_000, repeats=1)
    for update in ("full", "one_digit"):
        sent = figures[update]
        assert sent["wire_bytes"] == sent["payload_bytes"] == i2c[update]["payload_bytes"]
        assert sent["bus_ms"] == pytest.approx(sent["payload_bytes"] * 8 / 8_000_000 * 1000)


@pytest.mark.parametrize("value", [12, 13, 5])
def test_the_bench_draws_the_stake_screen_the_partial_update_tests_check(value, score_image):
    """The partial-update tests' screen (conftest) is the bench's, with a framed line below
    on a 128x64 panel: the bench's is its top, label and number, and nothing under them."""
    short = score_screen(value, (128, 32))
    assert (short.mode, short.size) == ("1", (128, 32))
    assert short.tobytes() == score_image(value, (128, 32)).tobytes()
    tall = score_screen(value)
    assert (tall.mode, tall.size) == ("1", (128, 64))
    top = (0, 0, 128, 40)
    assert tall.crop(top).tobytes() == score_image(value).crop(top).tobytes()
    assert tall.crop((0, 40, 128, 64)).getbbox() is None
