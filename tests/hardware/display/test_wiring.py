"""luma's own I2C and SPI interfaces over the emulated buses, and the real buses' errors."""

from __future__ import annotations

import sys
import types

import fake_rpi
import pytest
from luma.core.interface.serial import spi

from hardware.display import (
    DisplaySpec,
    EmulatedSpiDev,
    EmulatedWiring,
    GpioLines,
    OledChip,
    PartialSSD1306,
    open_display,
)

SPI_DISPLAY = DisplaySpec("status", chip="sh1106", interface="spi", bus=0, dc=24, reset=25,
                          cs=5, clock_hz=8_000_000)  # fmt: skip


def test_a_full_frame_is_one_i2c_transfer_as_luma_sends_from_its_own_port(score_image):
    wiring = EmulatedWiring()
    display = open_display(DisplaySpec("stake-0"), wiring)
    display.chip.unknown.clear()
    before = display.meter.snapshot()
    display.invalidate()
    display.show(score_image(9))
    sent = display.meter.since(before)
    assert sent["transactions"] == 2  # the window commands, then 1,024 bytes at once
    assert sent["wire_bytes"] == (1 + 1 + 6) + (1 + 1 + 1024)


def test_displays_on_one_bus_and_on_multiplexer_channels_stay_apart(score_image):
    wiring = EmulatedWiring()
    first = open_display(DisplaySpec("stake-0", bus=1, address=0x3C), wiring)
    second = open_display(DisplaySpec("stake-1", bus=1, address=0x3D), wiring)
    behind_mux = open_display(DisplaySpec("stake-2", bus=23, address=0x3C), wiring)
    first.show(score_image(1))
    second.show(score_image(2))
    behind_mux.show(score_image(3))
    assert [d.frame().tobytes() for d in (first, second, behind_mux)] == [
        score_image(n).tobytes() for n in (1, 2, 3)
    ]
    assert sorted(wiring.i2c_buses) == [1, 23]


def test_spi_lines_reset_the_chip_and_tell_commands_from_data(score_image):
    wiring = EmulatedWiring()
    display = open_display(SPI_DISPLAY, wiring)
    lines = wiring.lines.changes
    reset = [level for pin, level in lines if pin == 25]
    assert reset == [0, 1]  # held low, then released before the init sequence
    assert lines.index((25, 1)) < lines.index((24, 1))
    # DC: low from set-up through the init commands, high for a page's data, low again
    assert [level for pin, level in lines if pin == 24][:3] == [0, 1, 0]
    assert display.chip.is_on  # the init commands arrived as commands
    assert wiring.lines.level(5) == 1  # deselected between transfers
    assert display.show(score_image(8))
    assert display.frame().tobytes() == score_image(8).tobytes()


def test_a_deselected_spi_chip_ignores_the_bytes():
    lines = GpioLines()
    lines.setup(5, GpioLines.OUT, initial=GpioLines.HIGH)
    port = EmulatedSpiDev(OledChip("ssd1306"), lines, dc=24, cs=5)
    lines.output(24, 1)
    port.writebytes([0xFF] * 4)
    assert port.chip.frame().getbbox() is None
    assert port.meter.wire_bytes == 4  # the bytes still went over the wire


def test_luma_drives_its_lines_through_fake_rpi_in_place_of_rpi_gpio(monkeypatch, score_image):
    fake_rpi.toggle_print(False)
    lines = GpioLines(fake_rpi.RPi.GPIO)  # records, and passes every call to fake-rpi
    monkeypatch.setitem(sys.modules, "RPi", types.SimpleNamespace(GPIO=lines))
    monkeypatch.setitem(sys.modules, "RPi.GPIO", lines)
    chip = OledChip("ssd1306")
    port = EmulatedSpiDev(chip, lines, dc=24)
    device = PartialSSD1306(spi(spi=port, gpio=None, gpio_DC=24, gpio_RST=25))
    device.display(score_image(11))
    assert port.opened == (0, 0)
    assert port.max_speed_hz == 8_000_000
    assert [level for pin, level in lines.changes if pin == 25] == [0, 1]
    assert chip.frame().tobytes() == score_image(11).tobytes()
    assert chip.is_on


def test_a_real_bus_that_does_not_exist_makes_a_failing_display_with_a_sentence(score_image):
    display = open_display(DisplaySpec("stake-0", bus=99))
    assert not display.health.ok
    assert "/dev/i2c-99 does not exist" in display.health.last_error
    assert display.show(score_image(1)) is False


@pytest.mark.parametrize("chip", ["ssd1309", "st7735"])
def test_an_unknown_chip_is_refused(chip):
    with pytest.raises(ValueError, match="unknown chip"):
        open_display(DisplaySpec("stake-0", chip=chip), EmulatedWiring())


def test_a_display_says_where_it_is_wired_in_an_installer_s_words():
    assert DisplaySpec("stake-1", address=0x3D).where == "i2c-1 0x3D"
    assert DisplaySpec("stake-2", bus=3, mux_channel=5).where == "i2c-3 channel 5 0x3C"
    assert DisplaySpec("stake-3", interface="spi", bus=0, device=1, dc=25).where == (
        "spi0 CE1 dc GPIO25"
    )
    spi = DisplaySpec("status", chip="sh1106", height=32, interface="spi", cs=5)
    assert spi.where == "spi1 cs GPIO5 dc GPIO24"
    assert spi.name == "display status (sh1106 128x32, spi1 cs GPIO5 dc GPIO24)"


def test_an_emulated_i2c_bus_has_its_number_and_the_display_s_clock():
    wiring = EmulatedWiring()
    open_display(DisplaySpec("stake-0", bus=3, clock_hz=100_000), wiring)
    bus = wiring.i2c_buses[3]
    assert (bus.number, bus.meter.clock_hz) == (3, 100_000)
    assert wiring.i2c_bus(4).meter.clock_hz == 400_000  # a bus at the usual fast mode


def test_an_spi_display_uses_its_own_dc_reset_and_clock(score_image):
    wiring = EmulatedWiring()
    spec = DisplaySpec("stake-1", interface="spi", bus=0, dc=23, reset=27, clock_hz=4_000_000)
    display = open_display(spec, wiring)
    pins = {pin for pin, _ in wiring.lines.changes}
    assert {23, 27} <= pins and not {24, 25} & pins  # not luma's default lines
    assert [level for pin, level in wiring.lines.changes if pin == 27] == [0, 1]
    assert display.show(score_image(3))
    assert display.meter.clock_hz == 4_000_000
    assert display.frame().tobytes() == score_image(3).tobytes()


def test_a_short_display_and_a_turned_one_show_their_images(score_image):
    wiring = EmulatedWiring()
    short = open_display(DisplaySpec("status", height=32), wiring)
    assert short.show(score_image(4, size=(128, 32)))
    assert short.frame().size == (128, 32)
    assert short.frame().tobytes() == score_image(4, size=(128, 32)).tobytes()
    turned = open_display(DisplaySpec("stake-2", address=0x3D, rotate=2), wiring)
    assert turned.show(score_image(5))
    assert turned.frame().tobytes() == score_image(5).rotate(180).tobytes()


def test_a_real_display_has_no_counters_and_no_pixels_to_read(tmp_path):
    display = open_display(DisplaySpec("stake-0"), dev=tmp_path)  # no /dev/i2c-1 here
    assert not display.health.ok and "i2c-1" in display.health.last_error
    assert display.counters == {}
    with pytest.raises(ValueError, match="real display"):
        display.frame()


@pytest.mark.parametrize(("bus", "device", "cs"), [(0, 1, None), (1, 2, 5), (0, 0, 6)])
def test_luma_opens_the_spidev_port_and_device_of_the_profile(bus, device, cs):
    """luma opens `/dev/spidevB.D` itself from the port and device it is given; with a GPIO
    chip-select it still opens that port (and tells spidev to leave its CE line alone)."""
    wiring = EmulatedWiring()
    spec = DisplaySpec(
        "stake-3", interface="spi", bus=bus, device=device, dc=25, cs=cs, clock_hz=8_000_000
    )
    display = open_display(spec, wiring)
    assert display.health.ok, display.health.last_error
    port = wiring.spi_ports["stake-3"]
    assert port.opened == (bus, device)
    assert port.no_cs is (cs is not None)
    assert port.max_speed_hz == spec.clock_hz
