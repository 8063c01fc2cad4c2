"""The PN532s' IRQ lines on a fake Pi 4 and Pi 5: each emulated chip is busy for its modelled
time and drives its header line (high while busy or with nothing to send, low while a frame
waits); the real path (Blinka's DigitalInOut, the table's driver) must wait on it, never read
the bus early, and report a reader whose IRQ wire is on another pin than the profile says."""

from __future__ import annotations

import re

import pytest

from firmware.drawing import trouble_screen
from firmware.events import Device
from firmware.screens import render
from hardware.profile import load_profile

pytestmark = pytest.mark.fakepi

BOARDS = ("pi4", "pi5")
# A header pin the full table leaves free: stake-2's IRQ wire soldered there, not to GPIO24.
STRAY_PIN = 21


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("profile", ("full-table", "mux-readers-spi-oleds", "minimal"))
def test_every_reader_waits_for_its_chip_and_reads_nothing_early(selftest_on, board, profile):
    run = selftest_on(board, profile)  # the self-test the other fake-Pi tests read too
    assert run.done.returncode == 0, run.done.stdout + run.done.stderr + run.testbed_log
    spec = load_profile(run.profile)
    if profile == "full-table":
        assert all(reader.irq is not None for reader in spec.readers)
    for reader in (r for r in spec.readers if r.interface != "uart"):
        traffic = run.report["pn532"][reader.role]
        # No frame read before the chip had it ready, and every ACK and response was read.
        assert traffic["early_reads"] == 0, (reader.role, traffic)
        assert traffic["frames_read"] == 2 * traffic["written"] > 0, (reader.role, traffic)
        if reader.irq is None:
            assert traffic["status_reads"] > 0, (reader.role, traffic)  # it polls the bus
            continue
        irq = run.report["irq"][reader.role]
        assert irq["gpio"] == reader.irq
        # With IRQ it waits on the pin, never on the bus: no status read on SPI; on I2C only
        # the one the stock driver's framing reads just before each frame (`_read_data`).
        framing = traffic["frames_read"] if reader.interface == "i2c" else 0
        assert traffic["status_reads"] == framing, (reader.role, traffic)
        # Each frame read (every ACK, every response) is one fall of the line, and each read
        # let it rise again: the line is high now, with nothing to send.
        assert irq["falls"] == irq["rises"] == traffic["frames_read"], (reader.role, irq)
        assert irq["level"] == 1
        # Before each frame the host looked while the chip was busy (the field guard alone
        # is 5.1 ms a poll; the fake Pi shows the first look after a rise high, however late
        # a loaded machine lets it come) and saw the line low before reading it.
        assert irq["looks_high"] >= traffic["frames_read"], (reader.role, irq)
        assert irq["looks_low"] >= traffic["frames_read"], (reader.role, irq)


@pytest.mark.parametrize("board", BOARDS)
def test_a_reader_whose_irq_wire_is_on_another_pin_is_a_trouble_with_a_sentence(
    fake_pi, profile_file, board
):
    path = str(profile_file("full-table"))
    spec = load_profile(path)
    stake = next(reader for reader in spec.readers if reader.role == "stake-2")
    pi = fake_pi(board, "full-table", irq_wires={"stake-2": STRAY_PIN})
    done = pi.run("selftest", "--profile", path, on_stderr=_finger(pi))  # fails if it hangs
    assert done.returncode == 1, done.stdout + done.stderr
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 1, done.stdout
    assert failed[0].startswith(f"FAIL  {stake.name}: check its IRQ wire"), failed[0]
    assert "its IRQ line never went low" in failed[0]
    assert "the profile's `irq`" in failed[0]
    for reader in spec.readers:
        if reader.role != "stake-2":
            assert f"PASS  {reader.name}: PN532 firmware 1.6" in done.stdout
    report = pi.report()
    traffic = report["pn532"]["stake-2"]
    # The chip answered: the host found it ready by its status byte, read nothing early,
    # and the pin the profile names (pulled up by the host) never went low.
    assert traffic["status_reads"] > 0 and traffic["early_reads"] == 0, traffic
    profile_pin = report["lines"].get(str(stake.irq), {"changes": []})
    assert all(level == 1 for _, level in profile_pin["changes"]), profile_pin
    assert report["irq"]["stake-2"]["gpio"] == STRAY_PIN


def _finger(pi):
    def on_stderr(line: str) -> None:
        asked = re.search(r"press the \w+ button \(GPIO(\d+)\)", line)
        if asked:
            pi.press(int(asked[1]))

    return on_stderr


def test_the_table_running_shows_a_stray_irq_wire_as_trouble_and_logs_why(
    fake_pi, profile_file, wait_for
):
    path = str(profile_file("full-table"))
    spec = load_profile(path)
    display = next(d for d in spec.displays if d.role == "stake-2")
    size = (display.width, display.height)
    trouble = render(trouble_screen(Device("reader", "stake-2"), "irq_wire"), size)
    pi = fake_pi("pi5", "full-table", irq_wires={"stake-2": STRAY_PIN})
    table = pi.start("run", "--profile", path)
    try:
        wait_for(
            lambda: pi.screens()["stake-2"] == trouble.tobytes(),
            "stake-2's screen saying to check its IRQ wire",
            table,
        )
        shown = pi.screens()
    finally:
        done = pi.stop(table)
    assert done.returncode == 0, done.stderr + pi.testbed_log()
    assert "reader stake-2" in done.stderr and "IRQ line never went low" in done.stderr
    # Only stake-2 is in trouble: no other screen shows it, and no other reader was reported.
    others = [d for d in spec.displays if d.role != "stake-2"]
    assert all(shown[d.role] != trouble.tobytes() for d in others)
    assert all(f"reader {r.role}:" not in done.stderr for r in spec.readers if r.role != "stake-2")
