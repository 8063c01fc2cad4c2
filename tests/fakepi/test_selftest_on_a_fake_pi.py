"""`arcana-table selftest --profile P` (real mode) on a fake Pi 4 and Pi 5: every reader,
display, button and the buzzer through Blinka, adafruit_pn532, luma and gpiozero, on the
shipped profiles and on tests/fakepi/profiles (I2C readers behind a host-switched
multiplexer, SPI OLEDs). One self-test per board and profile; the tests read its results."""

from __future__ import annotations

import pytest

from hardware.profile import load_profile
from hardware.selftest import calibration_pattern

pytestmark = pytest.mark.fakepi

BOARDS = ("pi4", "pi5")
PROFILES = ("full-table", "minimal", "mux-readers-spi-oleds")
# Every board with every profile, and the Pi 5 as its first Bookworm kernel numbered the chips.
RUNS = [(board, profile) for board in BOARDS for profile in PROFILES]
RUNS.append(("pi5-6.1", "full-table"))
HEADER_CHIP = {"pi4": "pinctrl-bcm2711", "pi5": "pinctrl-rp1", "pi5-6.1": "pinctrl-rp1"}


@pytest.mark.parametrize("board, profile", RUNS)
def test_every_part_passes(selftest_on, board, profile):
    run = selftest_on(board, profile)
    assert run.done.returncode == 0, run.done.stdout + run.done.stderr + run.testbed_log
    spec = load_profile(run.profile)
    checks = [line for line in run.done.stdout.splitlines() if line.startswith(("PASS", "FAIL"))]
    expected = (
        len(spec.readers) + len(spec.displays) + len(spec.buttons) + (spec.buzzer is not None)
    )
    assert len(checks) == expected and all(line.startswith("PASS") for line in checks)
    assert "(real hardware)" in run.done.stdout


@pytest.mark.parametrize("board, profile", RUNS)
def test_each_reader_answers_and_the_tag_on_the_first_is_seen(selftest_on, board, profile):
    run = selftest_on(board, profile)
    spec = load_profile(run.profile)
    for reader in spec.readers:
        tags = "1 tag" if reader.role == run.tagged else "0 tags"
        assert f"PASS  {reader.name}: PN532 firmware 1.6, {tags} on the pad" in run.done.stdout


@pytest.mark.parametrize("board, profile", RUNS)
def test_each_oled_controller_received_the_test_pattern(selftest_on, board, profile):
    run = selftest_on(board, profile)
    for display in load_profile(run.profile).displays:
        pattern = calibration_pattern((display.width, display.height), display.role).tobytes()
        assert pattern in run.frames[display.role], display.name


@pytest.mark.parametrize("board", ("pi4", "pi5", "pi5-6.1"))
def test_chip_selects_are_all_high_before_the_first_reader_speaks(selftest_on, board):
    run = selftest_on(board, "full-table")
    spec = load_profile(run.profile)
    cs_pins = {str(reader.cs) for reader in spec.readers}
    log = run.report["spi_log"]["0"]
    first = log[0]
    assert set(first["cs"]) == cs_pins
    assert sorted(first["cs"].values()) == [0] + [1] * (len(cs_pins) - 1), first
    assert all(len(transfer["selected"]) <= 1 for transfer in log)
    assert run.report["spi_contention"] == 0


@pytest.mark.parametrize("board, profile", RUNS)
def test_the_lines_used_are_the_header_chips(selftest_on, board, profile):
    run = selftest_on(board, profile)
    spec = load_profile(run.profile)
    used = run.report["used_lines"]
    assert {chip for chip, _ in used} == {HEADER_CHIP[board]}
    pins = {b.pin for b in spec.buttons}
    pins |= {p for r in spec.readers for p in (r.cs, r.irq, r.reset, r.req) if p is not None}
    if spec.buzzer is not None:
        pins.add(spec.buzzer.pin)
    assert pins <= {offset for _, offset in used}


@pytest.mark.parametrize("board, profile", RUNS)
def test_every_line_is_released_when_the_command_ends(selftest_on, board, profile):
    held = {gpio: line["used_by"] for gpio, line in selftest_on(board, profile).at_exit.items()}
    assert {gpio: user for gpio, user in held.items() if user} == {}
