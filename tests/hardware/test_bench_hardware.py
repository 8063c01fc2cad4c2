"""`arcana-table bench hardware`: the figures are there and agree with the byte counts.

No wall-clock timing is asserted here; byte counts and modelled times are deterministic and
the one-digit share is a byte ratio, so the issue's targets are checked on those.
"""

from __future__ import annotations

import json

import pytest

from firmware import cli
from firmware.benchmarks.hardware import measure
from hardware.display.bench import update_figures
from hardware.nfc.scanner import absence_for
from hardware.profile import load_profile


@pytest.fixture(scope="module")
def figures():
    return measure(cycles=3)


def test_every_scan_combination_is_measured(figures):
    combos = {
        (s["interface"], s["clock_hz"], s["readers"], s["tag_present"], s["irq"])
        for s in figures["scan_cycles"]
    }
    clocks = [("i2c", 10_000), ("i2c", 100_000), ("i2c", 400_000), ("spi", 1_000_000)]
    both = (False, True)
    expected = {(i, c, n, t, q) for i, c in clocks for n in (1, 5) for t in both for q in both}
    assert combos == expected
    assert all(s["reader_states"] == ["ok"] for s in figures["scan_cycles"])
    boards = {(s["interface"], s["clock_hz"]): s["board"] for s in figures["scan_cycles"]}
    assert boards[("i2c", 400_000)] == "Pi 5 only"  # a Pi 1-4 cannot clock a PN532 that fast


def test_i2c_wire_time_scales_with_the_clock(figures):
    by = {
        (s["clock_hz"], s["readers"], s["tag_present"]): s
        for s in figures["scan_cycles"]
        if s["interface"] == "i2c"
    }
    for readers in (1, 5):
        slow, fast = by[(100_000, readers, False)], by[(400_000, readers, False)]
        assert slow["bytes_per_cycle"] == fast["bytes_per_cycle"]
        # the bits take four times as long; the PN532's clock stretching does not scale
        assert fast["wire_time_ms_per_cycle"] < slow["wire_time_ms_per_cycle"]
        assert slow["wire_time_ms_per_cycle"] < 4 * fast["wire_time_ms_per_cycle"]


def test_five_spi_readers_with_irq_meet_the_60_ms_target(figures):
    targets = figures["targets"]
    assert targets["scan_target_ms"] == 60.0
    assert targets["scan_met"] is True
    assert targets["scan_5_readers_spi_irq_modelled_ms"] <= 60.0


def test_the_full_tables_absence_time_is_derived_from_its_scan_cycle(figures):
    own = figures["profile_scan_cycle"]
    assert (own["interface"], own["readers"], own["irq"]) == ("spi", 5, True)
    shortest = absence_for(own["modelled_time_ms_per_cycle"] / 1000)
    assert figures["targets"]["shortest_safe_absence_s"] == shortest
    assert load_profile("full-table").absence_s == shortest  # the shipped value is the rule's
    assert figures["targets"]["absence_met"] is True


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_a_one_digit_update_is_at_most_5_percent_of_a_full_frame(chip):
    result = update_figures(chip, 64, "i2c", 400_000, repeats=1)
    assert result["full"]["payload_bytes"] >= 1024
    assert result["one_digit"]["wire_bytes"] <= 0.05 * result["full"]["wire_bytes"]
    assert result["one_digit_share_of_full"] == pytest.approx(
        result["one_digit"]["wire_bytes"] / result["full"]["wire_bytes"], abs=1e-4
    )


def test_the_command_prints_the_figures_as_json(capsys):
    assert cli.main(["bench", "hardware", "--cycles", "2", "--repeat", "1"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["benchmark"] == "hardware"
    assert len(printed["display_updates"]) == 12
    assert printed["targets"]["one_digit_met"] is True
