"""`arcana-table bench hardware`: the figures are there and agree with the byte counts.

No timing is asserted here; byte counts are deterministic and the one-digit share is a
byte ratio, so the issue's 5% target is checked as bytes.
"""

from __future__ import annotations

import json

import pytest

from firmware import cli
from firmware.benchmarks.hardware import measure
from hardware.display.bench import update_figures


@pytest.fixture(scope="module")
def figures():
    return measure(cycles=3)


def test_every_scan_combination_is_measured(figures):
    combos = {
        (s["interface"], s["clock_hz"], s["readers"], s["tag_present"])
        for s in figures["scan_cycles"]
    }
    clocks = [("i2c", 100_000), ("i2c", 400_000), ("spi", 1_000_000)]
    assert combos == {(i, c, n, t) for i, c in clocks for n in (1, 5) for t in (False, True)}
    assert all(s["reader_states"] == ["ok"] for s in figures["scan_cycles"])


def test_i2c_wire_time_scales_with_the_clock(figures):
    by = {
        (s["clock_hz"], s["readers"], s["tag_present"]): s
        for s in figures["scan_cycles"]
        if s["interface"] == "i2c"
    }
    for readers in (1, 5):
        slow, fast = by[(100_000, readers, False)], by[(400_000, readers, False)]
        assert slow["bytes_per_cycle"] == fast["bytes_per_cycle"]
        assert slow["wire_time_ms_per_cycle"] == pytest.approx(4 * fast["wire_time_ms_per_cycle"])


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_a_one_digit_update_is_at_most_5_percent_of_a_full_frame(chip):
    result = update_figures(chip, 64, "i2c", 400_000, repeats=1)
    assert result["full"]["payload_bytes"] >= 1024
    assert result["one_digit"]["wire_bytes"] <= 0.05 * result["full"]["wire_bytes"]
    assert result["one_digit_share_of_full"] == pytest.approx(
        result["one_digit"]["wire_bytes"] / result["full"]["wire_bytes"], abs=1e-4
    )


def test_the_command_prints_the_figures_as_json(capsys):
    assert cli.main(["bench", "hardware", "--cycles", "2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["benchmark"] == "hardware"
    assert len(printed["display_updates"]) == 12
    assert printed["targets"]["one_digit_met"] is True
