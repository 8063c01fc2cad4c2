"""`arcana-table bench hardware`: bus and CPU figures of the table's readers and displays.

All figures come from emulated buses running the real drivers (adafruit_pn532, luma.oled):
bytes and transactions are counted, time is modelled (wire time at the clock, the PN532's own
time, the driver's waits for it; see docs/nfc.md), CPU time is the process clock (the median of
`--repeat` runs). Scan cycles: 1 and 5 readers, tag absent and present, with and without IRQ
lines, on I2C at 10 kHz (docs/pi-setup.md's cure for a PN532 on a Pi 1-4), 100 kHz (a Pi 1-4
at best), 400 kHz (a Pi 5 only) and SPI at the profile's reader clock. The profile's own
readers give its scan cycle and, by the rule in `hardware.nfc.scanner.absence_for`, the
shortest safe `absence_s`. Display updates: a full frame and a one-digit change, SSD1306 and
SH1106, 128x64 and 128x32, I2C at 100 and 400 kHz and SPI.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

TARGET_SCAN_MS = 60.0  # 5 readers on SPI with IRQ lines, tag or none, modelled
TARGET_CPU_MS_PER_POLL = 1.0
TARGET_ONE_DIGIT_SHARE = 0.05  # of a full 128x64 frame's bytes
# Where each reader bus runs: a Pi 1-4's I2C controller mishandles the PN532's clock
# stretching (docs/pi-setup.md, step 2); the Pi 5's RP1 copes. Blinka ignores the clock a
# program asks for: the bus runs at config.txt's i2c_arm_baudrate.
SCAN_BUSES = (
    ("i2c", 10_000, "Pi 1-4"),
    ("i2c", 100_000, "Pi 1-4 at best"),
    ("i2c", 400_000, "Pi 5 only"),
    ("spi", None, "any Pi"),
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cycles", type=int, default=200, help="scan cycles per figure")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per scan figure; CPU time is their median"
    )
    parser.add_argument(
        "--profile",
        default="full-table",
        help="the profile whose readers are measured (default full-table)",
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    return measure(args.cycles, args.profile, repeat=args.repeat)


def measure(cycles: int = 200, profile_name: str = "full-table", repeat: int = 1) -> dict:
    """Every figure, and whether the issue's targets are met."""
    # Imported here: `arcana-table --help` builds this parser, and the drivers import Blinka.
    from hardware.display.bench import update_figures
    from hardware.nfc.scanner import absence_for
    from hardware.profile import load_profile

    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    profile = load_profile(profile_name)
    spi_clock = next((r.clock_hz for r in profile.readers if r.interface == "spi"), 1_000_000)
    scans = [
        _scan(interface, clock or spi_clock, count, present, irq, cycles, repeat) | {"board": board}
        for interface, clock, board in SCAN_BUSES
        for count in (1, 5)
        for present in (False, True)
        for irq in (False, True)
    ]
    displays = [
        update_figures(chip, height, interface, clock)
        for chip in ("ssd1306", "sh1106")
        for height in (64, 32)
        for interface, clock in (("i2c", 100_000), ("i2c", 400_000), ("spi", 8_000_000))
    ]
    spi_irq = [
        s["modelled_time_ms_per_cycle"]
        for s in scans
        if (s["interface"], s["readers"], s["irq"]) == ("spi", 5, True)
    ]
    own = _profile_cycle(profile, cycles, repeat)
    shortest_absence = absence_for(own["modelled_time_ms_per_cycle"] / 1000)
    cpu = max(s["cpu_ms_per_poll"] for s in scans)
    share = max(d["one_digit_share_of_full"] for d in displays if d["size"] == "128x64")
    return {
        "benchmark": "hardware",
        "profile": profile_name,
        "profile_spi_reader_clock_hz": spi_clock,
        "scan_cycles": scans,
        "profile_scan_cycle": own,
        "display_updates": displays,
        "targets": {
            "scan_5_readers_spi_irq_modelled_ms": max(spi_irq),
            "scan_target_ms": TARGET_SCAN_MS,
            "scan_met": max(spi_irq) <= TARGET_SCAN_MS,
            "profile_absence_s": profile.absence_s,
            "shortest_safe_absence_s": shortest_absence,
            "absence_met": profile.absence_s >= shortest_absence,
            "worst_cpu_ms_per_poll": cpu,
            "cpu_target_ms": TARGET_CPU_MS_PER_POLL,
            "cpu_met": cpu < TARGET_CPU_MS_PER_POLL,
            "worst_one_digit_share_128x64": share,
            "one_digit_target_share": TARGET_ONE_DIGIT_SHARE,
            "one_digit_met": share <= TARGET_ONE_DIGIT_SHARE,
        },
    }


def _profile_cycle(profile, cycles: int, repeat: int) -> dict[str, Any]:
    """The slowest scan cycle of the profile's readers (one scanner per bus), tag or none."""
    groups: dict[tuple[str, object], list] = {}
    for spec in profile.readers:
        key = (spec.interface, spec.port if spec.interface == "uart" else spec.bus)
        groups.setdefault(key, []).append(spec)
    worst: dict[str, Any] = {}
    for specs in groups.values():
        first = specs[0]
        clock = first.baudrate if first.interface == "uart" else first.clock_hz
        irq = all(spec.irq is not None for spec in specs)
        for present in (False, True):
            figure = _scan(first.interface, clock, len(specs), present, irq, cycles, repeat)
            if figure["modelled_time_ms_per_cycle"] > worst.get("modelled_time_ms_per_cycle", -1):
                worst = figure
    return worst


def _scan(
    interface: str, clock: int, readers: int, present: bool, irq: bool, cycles: int, repeat: int
) -> dict[str, Any]:
    from hardware.nfc.bench import scan_cycle_figures

    runs = [
        scan_cycle_figures(readers, present, interface, clock, irq=irq, cycles=cycles)
        for _ in range(repeat)
    ]
    keep = (
        "interface",
        "clock_hz",
        "readers",
        "tag_present",
        "irq",
        "bytes_per_cycle",
        "transactions_per_cycle",
        "wire_time_ms_per_cycle",
        "chip_time_ms_per_cycle",
        "modelled_time_ms_per_cycle",
        "reader_states",
    )
    figures = {key: runs[0][key] for key in keep}
    figures["cpu_ms_per_poll"] = statistics.median(run["cpu_ms_per_poll"] for run in runs)
    return figures
