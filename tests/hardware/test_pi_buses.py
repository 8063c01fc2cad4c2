"""The Pi's bus factory without a Pi: what it finds (or misses) in /dev and /sys, and how the
real libraries under it fail. The whole real path on fake device nodes: tests/fakepi."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import fake_rpi
import pytest

from hardware.buses import BusUnavailable, buses_kind, open_buses
from hardware.buses.emulated import EmulatedBuses
from hardware.buses.pi import PiBuses
from hardware.display import DisplaySpec
from hardware.profile import MuxSpec, ReaderSpec


def mux_sysfs(root: Path, numbers: list[int], device: str = "1-0070") -> Path:
    """/sys/bus/i2c/devices/1-0070/channel-N -> ../i2c-M, as the i2c-mux driver makes it."""
    folder = root / "bus/i2c/devices" / device
    folder.mkdir(parents=True)
    for channel, number in enumerate(numbers):
        os.symlink(f"../i2c-{number}", folder / f"channel-{channel}")
    return root


@pytest.mark.parametrize("first", [22, 13, 11])  # a Pi 4; a Pi 5; a Pi 3 (no HDMI buses)
def test_kernel_multiplexer_channels_are_numbered_from_sysfs(tmp_path, first):
    buses = PiBuses(sysfs=mux_sysfs(tmp_path, list(range(first, first + 8))))
    mux = MuxSpec(kernel=True)
    assert [buses.mux_channel_bus(mux, channel) for channel in range(8)] == [
        *range(first, first + 8)
    ]


def test_given_kernel_bus_numbers_win_over_sysfs(tmp_path):
    buses = PiBuses(sysfs=mux_sysfs(tmp_path, list(range(22, 30))))
    mux = MuxSpec(kernel=True, kernel_buses=tuple(range(40, 48)))
    assert buses.mux_channel_bus(mux, 3) == 43


def test_a_multiplexer_at_another_address_is_found_under_its_own_name(tmp_path):
    buses = PiBuses(sysfs=mux_sysfs(tmp_path, list(range(30, 38)), device="3-0074"))
    assert buses.mux_channel_bus(MuxSpec(bus=3, address=0x74, kernel=True), 7) == 37


def test_a_multiplexer_without_its_kernel_driver_names_the_overlay(tmp_path):
    buses = PiBuses(sysfs=tmp_path)
    with pytest.raises(BusUnavailable) as raised:
        buses.mux_channel_bus(MuxSpec(kernel=True), 2)
    assert str(raised.value) == (
        f"{tmp_path}/bus/i2c/devices/1-0070/channel-2 does not exist: the multiplexer at 0x70 "
        "on i2c-1 has no kernel driver; add `dtoverlay=i2c-mux,pca9548,addr=0x70` to "
        "/boot/firmware/config.txt, then reboot"
    )


@pytest.mark.parametrize(
    ("spec", "fix"),
    [
        (ReaderSpec("stake-0", cs=5), "SPI0 is off; switch SPI on with `sudo raspi-config "
                                      "nonint do_spi 0`, then reboot"),
        (ReaderSpec("stake-0", cs=5, bus=1), "SPI1 is off; add `dtoverlay=spi1-1cs` to "
                                             "/boot/firmware/config.txt, then reboot"),
        (ReaderSpec("main", interface="i2c", bus=1), "switch I2C on with `sudo raspi-config "
                                                     "nonint do_i2c 0`, then reboot"),
    ],
)  # fmt: skip
def test_a_bus_that_is_switched_off_is_one_sentence_with_the_fix(tmp_path, spec, fix):
    buses = PiBuses(dev=tmp_path)
    with pytest.raises(BusUnavailable, match="does not exist: ") as raised:
        buses.reader_wires(spec, None)
    assert str(raised.value).endswith(fix)
    assert str(raised.value).startswith(str(tmp_path))


def test_a_missing_serial_port_names_the_uart_and_console_settings(tmp_path):
    port = str(tmp_path / "serial0")
    with pytest.raises(BusUnavailable) as raised:
        PiBuses().reader_wires(ReaderSpec("main", interface="uart", port=port), None)
    assert str(raised.value) == (
        f"{port} does not exist: switch the UART on and the serial console off with "
        "`sudo raspi-config nonint do_serial_hw 0` and `sudo raspi-config nonint "
        "do_serial_cons 1`, then reboot"
    )


def test_the_factory_never_lets_blinka_install_packages(monkeypatch):
    monkeypatch.delenv("BLINKA_SKIP_DEPENDENCY_CHECK", raising=False)
    PiBuses()
    assert os.environ["BLINKA_SKIP_DEPENDENCY_CHECK"] == "1"


def test_an_i2c_display_without_its_bus_is_failing_with_the_fix(tmp_path):
    display = PiBuses(dev=tmp_path).display(DisplaySpec("status", bus=1), clock=lambda: 0.0)
    assert not display.health.ok
    assert display.health.last_error.endswith(
        "i2c-1 does not exist: switch I2C on with `sudo raspi-config nonint do_i2c 0`, then reboot"
    )


SPI_DISPLAY = DisplaySpec(
    "status", interface="spi", bus=0, device=0, dc=24, reset=25, clock_hz=8_000_000
)


def test_an_spi_display_without_spidev_is_failing_with_the_fix(tmp_path):
    display = PiBuses(dev=tmp_path).display(SPI_DISPLAY, clock=lambda: 0.0)
    assert not display.health.ok
    assert "spidev0.0 does not exist: SPI0 is off" in display.health.last_error


@pytest.mark.parametrize(
    ("revision", "raised"),
    [(None, "UnsupportedPlatform"), ("d04170", "error")],  # not a Pi; a Pi 5 without its chip
)
def test_an_spi_display_whose_gpio_library_fails_is_a_failing_display(
    tmp_path, monkeypatch, revision, raised
):
    # rpi-lgpio (the real one) under luma's SPI interface: on this machine it cannot work,
    # as RPi.GPIO cannot on a Pi 5. The display fails; nothing is raised to the table.
    monkeypatch.delitem(sys.modules, "RPi", raising=False)
    monkeypatch.delitem(sys.modules, "RPi.GPIO", raising=False)
    if revision:
        monkeypatch.setenv("RPI_LGPIO_REVISION", revision)
    (tmp_path / "spidev0.0").touch()
    display = PiBuses(dev=tmp_path).display(SPI_DISPLAY, clock=lambda: 0.0)
    assert not display.health.ok
    assert display.health.last_error.startswith(
        f"DisplayWiringError: display status (ssd1306 128x64, spi0 CE0 dc GPIO24): the GPIO "
        f"library cannot drive the DC/RESET lines ({raised}: "
    )
    assert display.health.last_error.endswith(
        "it must be rpi-lgpio, not RPi.GPIO (which fails on a Pi 5): pip uninstall RPi.GPIO, "
        "then pip install --force-reinstall rpi-lgpio"
    )


def test_an_spi_display_without_the_spidev_module_says_what_to_install(tmp_path, monkeypatch):
    fake_rpi.toggle_print(False)
    monkeypatch.setitem(sys.modules, "RPi", fake_rpi.RPi)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", fake_rpi.RPi.GPIO)
    monkeypatch.setitem(sys.modules, "spidev", None)  # `import spidev` fails
    (tmp_path / "spidev0.0").touch()
    display = PiBuses(dev=tmp_path).display(SPI_DISPLAY, clock=lambda: 0.0)
    assert display.health.last_error == (
        "DisplayWiringError: display status (ssd1306 128x64, spi0 CE0 dc GPIO24): spidev is not "
        "installed; SPI displays need spidev and the RPi.GPIO API of rpi-lgpio "
        "(pip install spidev rpi-lgpio)"
    )


def test_the_kind_of_buses_comes_from_the_argument_then_the_environment_then_the_profile(
    monkeypatch,
):
    monkeypatch.delenv("ARCANA_TABLE_BUSES", raising=False)
    assert buses_kind() == "real"
    assert buses_kind(None, "emulated") == "emulated"
    monkeypatch.setenv("ARCANA_TABLE_BUSES", "emulated")
    assert buses_kind(None, "real") == "emulated"
    assert buses_kind("real", "emulated") == "real"
    assert isinstance(open_buses(), EmulatedBuses)
    monkeypatch.setenv("ARCANA_TABLE_BUSES", "fake")
    with pytest.raises(ValueError, match=r"unknown buses 'fake' \(from \$ARCANA_TABLE_BUSES\)"):
        buses_kind()


def test_a_profile_may_ask_for_emulated_buses(monkeypatch):
    from hardware.profile import parse_profile
    from hardware.table import build_table

    monkeypatch.delenv("ARCANA_TABLE_BUSES", raising=False)
    text = '[table]\nbuses = "emulated"\n\n[[readers]]\nrole = "main"\ninterface = "i2c"\n'
    with build_table(parse_profile(text)) as table:
        assert table.emulated and table.readers["main"].health.state == "ok"


def test_the_device_classes_example_runs_as_written():
    import doctest

    import hardware.buses.devices

    result = doctest.testmod(hardware.buses.devices)
    assert result.attempted > 0 and result.failed == 0
