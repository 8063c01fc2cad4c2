"""The bench's scan-cycle figures are consistent with the emulator's counters (no thresholds)."""

from __future__ import annotations

import pytest

from hardware.nfc.bench import scan_cycle_figures
from hardware.nfc.emulator import ChipTiming


def test_five_readers_cost_about_five_times_one():
    one = scan_cycle_figures(readers=1, tag_present=False, cycles=3)
    five = scan_cycle_figures(readers=5, tag_present=False, cycles=3)
    timing = ChipTiming()
    # each empty poll: command + field start + two attempts; field off: one more command
    per_reader = 2 * timing.command_s + timing.field_on_s + 2 * timing.empty_attempt_s
    assert one["chip_time_ms_per_cycle"] == pytest.approx(per_reader * 1000)
    assert five["chip_time_ms_per_cycle"] == pytest.approx(5 * per_reader * 1000)
    # five readers sit behind a multiplexer: its channel selects add bytes
    assert five["bytes_per_cycle"] > 5 * one["bytes_per_cycle"]
    assert five["modelled_time_ms_per_cycle"] == pytest.approx(
        five["wire_time_ms_per_cycle"] + five["chip_time_ms_per_cycle"], abs=0.002
    )
    assert five["reader_states"] == ["ok"]


def test_a_present_tag_is_placed_in_the_warm_up_and_costs_an_activation():
    empty = scan_cycle_figures(readers=2, tag_present=False, cycles=3, interface="spi")
    present = scan_cycle_figures(readers=2, tag_present=True, cycles=3, interface="spi")
    assert present["placed_events_in_warm_up"] == 2
    assert present["chip_time_ms_per_cycle"] > empty["chip_time_ms_per_cycle"]


def test_the_wire_time_follows_the_clock():
    slow = scan_cycle_figures(readers=1, cycles=2, clock_hz=100_000)
    fast = scan_cycle_figures(readers=1, cycles=2, clock_hz=400_000)
    assert slow["bytes_per_cycle"] == fast["bytes_per_cycle"]
    assert slow["wire_time_ms_per_cycle"] == pytest.approx(4 * fast["wire_time_ms_per_cycle"])


def test_the_irq_line_saves_the_status_polls():
    polled = scan_cycle_figures(readers=1, cycles=2)
    irq = scan_cycle_figures(readers=1, cycles=2, irq=True)
    assert irq["transactions_per_cycle"] == polled["transactions_per_cycle"] - 4


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="interface must be"):
        scan_cycle_figures(interface="can")
    with pytest.raises(ValueError, match="at least 1"):
        scan_cycle_figures(readers=0)
