"""`arcana-table bench hardware`: bus and CPU figures of the table's readers and displays.

All figures come from emulated buses running the real drivers (adafruit_pn532, luma.oled):
bytes and transactions are counted, bus time is modelled from them at the clock, CPU time
is the process clock. Scan cycles: 1 and 5 readers, tag absent and present, I2C at 100 and
400 kHz and SPI at the profile's reader clock. Display updates: a full frame and a one-digit
change, SSD1306 and SH1106, 128x64 and 128x32, I2C at 100 and 400 kHz and SPI.
"""

from __future__ import annotations

import argparse
from typing import Any

TARGET_SCAN_MS = 50.0  # 5 readers, no tag, I2C at 400 kHz, modelled bus time
TARGET_CPU_MS_PER_POLL = 1.0
TARGET_ONE_DIGIT_SHARE = 0.05  # of a full 128x64 frame's bytes


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cycles", type=int, default=200, help="scan cycles per figure")
    parser.add_argument(
        "--profile",
        default="full-table",
        help="the profile whose SPI reader clock is measured (default full-table)",
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    return measure(args.cycles, args.profile)


def measure(cycles: int = 200, profile_name: str = "full-table") -> dict[str, Any]:
    """Every figure, and whether the issue's targets are met."""
    # Imported here, not at the top: `arcana-table --help` builds this target's parser, and
    # the drivers import Blinka, which on a Pi loads the GPIO libraries.
    from hardware.display.bench import update_figures
    from hardware.nfc.bench import scan_cycle_figures
    from hardware.profile import load_profile

    profile = load_profile(profile_name)
    spi_clock = next((r.clock_hz for r in profile.readers if r.interface == "spi"), 1_000_000)
    buses = [("i2c", 100_000), ("i2c", 400_000), ("spi", spi_clock)]
    scans = [
        _scan(scan_cycle_figures(count, present, interface, clock, cycles=cycles))
        for interface, clock in buses
        for count in (1, 5)
        for present in (False, True)
    ]
    displays = [
        update_figures(chip, height, interface, clock)
        for chip in ("ssd1306", "sh1106")
        for height in (64, 32)
        for interface, clock in (("i2c", 100_000), ("i2c", 400_000), ("spi", 8_000_000))
    ]
    five_empty = next(
        s
        for s in scans
        if (s["interface"], s["clock_hz"], s["readers"], s["tag_present"])
        == ("i2c", 400_000, 5, False)
    )
    cpu = max(s["cpu_ms_per_poll"] for s in scans)
    share = max(d["one_digit_share_of_full"] for d in displays if d["size"] == "128x64")
    return {
        "benchmark": "hardware",
        "profile_spi_reader_clock_hz": spi_clock,
        "scan_cycles": scans,
        "display_updates": displays,
        "targets": {
            "scan_5_readers_no_tag_i2c_400k_modelled_ms": five_empty["modelled_time_ms_per_cycle"],
            "scan_target_ms": TARGET_SCAN_MS,
            "scan_met": five_empty["modelled_time_ms_per_cycle"] <= TARGET_SCAN_MS,
            "worst_cpu_ms_per_poll": cpu,
            "cpu_target_ms": TARGET_CPU_MS_PER_POLL,
            "cpu_met": cpu < TARGET_CPU_MS_PER_POLL,
            "worst_one_digit_share_128x64": share,
            "one_digit_target_share": TARGET_ONE_DIGIT_SHARE,
            "one_digit_met": share <= TARGET_ONE_DIGIT_SHARE,
        },
    }


def _scan(figures: dict[str, Any]) -> dict[str, Any]:
    keep = (
        "interface",
        "clock_hz",
        "readers",
        "tag_present",
        "bytes_per_cycle",
        "transactions_per_cycle",
        "wire_time_ms_per_cycle",
        "chip_time_ms_per_cycle",
        "modelled_time_ms_per_cycle",
        "cpu_ms_per_poll",
        "reader_states",
    )
    return {key: figures[key] for key in keep}
