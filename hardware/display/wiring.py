"""Open a display from its `DisplaySpec`: luma's serial interfaces on real or emulated buses.

Real and emulated displays run the same luma interface and driver code; only the bus under
them differs. On the Pi: `smbus2.SMBus(N)` for `/dev/i2c-N` (a TCA9548A channel is its own
`/dev/i2c-N` once the kernel's i2c-mux overlay is loaded), spidev plus RPi.GPIO for the DC,
RESET and chip-select lines. Emulated: `EmulatedI2CBus` per bus number and one `GpioLines`.
"""

from __future__ import annotations

from pathlib import Path

import luma.core.error
import smbus2
from luma.core.interface.serial import gpio_cs_spi, i2c, spi

from hardware.buses.fixes import i2c_off, spi_off
from hardware.display.bus import EmulatedI2CBus, EmulatedSpiDev, GpioLines
from hardware.display.chip import OledChip
from hardware.display.devices import DRIVERS
from hardware.display.screen import Display
from hardware.display.spec import DisplaySpec
from hardware.errors import HardwareError


class DisplayWiringError(HardwareError, luma.core.error.DeviceNotFoundError):
    """A display cannot be opened as described; the message says what to check.

    A luma error, so a `Display` marks itself failing (and retries) instead of crashing.
    """


class WholeTransferI2C(i2c):
    """luma's I2C interface on a bus we opened, sending each data block in one transfer.

    luma does this (through `i2c_rdwr`, up to 4 KiB) only for a port it opens itself; on a
    bus handed in it falls back to 32-byte SMBus blocks, 1 control byte and 1 address byte
    each. We open the bus ourselves so that real and emulated displays share this code.
    """

    def __init__(self, bus, address: int) -> None:
        super().__init__(bus=bus, address=address)
        self._managed = True
        self._i2c_msg_write = smbus2.i2c_msg.write


class EmulatedWiring:
    """The emulated buses of one table: I2C buses by number, the GPIO lines, and each SPI
    display's port by role (`opened` tells which spidev port and device luma opened)."""

    def __init__(self) -> None:
        self.i2c_buses: dict[int, EmulatedI2CBus] = {}
        self.lines = GpioLines()
        self.spi_ports: dict[str, EmulatedSpiDev] = {}

    def i2c_bus(self, number: int, clock_hz: int = 400_000) -> EmulatedI2CBus:
        if number not in self.i2c_buses:
            self.i2c_buses[number] = EmulatedI2CBus(number, clock_hz)
        return self.i2c_buses[number]


def open_display(
    spec: DisplaySpec,
    wiring: EmulatedWiring | None = None,
    *,
    dev: Path = Path("/dev"),
    **options,
) -> Display:
    """A `Display` for `spec`: on real buses (device nodes under `dev`), or on `wiring`'s
    emulated ones when given.

    `options` go to `Display` (e.g. `clock=` for the retry back-off).
    """
    driver = DRIVERS.get(spec.chip)
    if driver is None:
        raise ValueError(f"{spec.name}: unknown chip {spec.chip!r}; expected ssd1306 or sh1106")
    chip = meter = None
    if wiring is None:
        open_serial = _real_serial(spec, dev)
    else:
        chip = OledChip(spec.chip, spec.width, spec.height)
        open_serial, meter = _emulated_serial(spec, wiring, chip)

    def open_device():
        return driver(open_serial(), width=spec.width, height=spec.height, rotate=spec.rotate)

    return Display(
        open_device,
        role=spec.role,
        name=spec.name,
        size=(spec.width, spec.height),
        chip=chip,
        meter=meter,
        **options,
    )


def _real_serial(spec: DisplaySpec, dev: Path):
    if spec.interface == "i2c":
        node = dev / f"i2c-{spec.bus}"

        def open_i2c():
            if not node.exists():
                raise DisplayWiringError(f"{spec.name}: {i2c_off(spec.bus, str(node))}")
            return WholeTransferI2C(smbus2.SMBus(spec.bus), spec.address)

        return open_i2c
    node = dev / f"spidev{spec.bus}.{spec.device}"

    def open_spi():
        if not node.exists():
            raise DisplayWiringError(f"{spec.name}: {spi_off(spec.bus, str(node))}")
        return _luma_spi(spec)

    return open_spi


def _luma_spi(spec: DisplaySpec, **buses):
    """luma's SPI interface; with no `buses` it opens spidev and imports RPi.GPIO itself."""
    wires = dict(
        port=spec.bus,
        device=spec.device,
        gpio_DC=spec.dc,
        gpio_RST=spec.reset,
        bus_speed_hz=spec.clock_hz,
        **buses,
    )
    try:
        if spec.cs is not None:
            return gpio_cs_spi(gpio_CS=spec.cs, **wires)
        return spi(**wires)
    except ImportError as err:
        raise DisplayWiringError(
            f"{spec.name}: {err.name} is not installed; SPI displays need spidev and the "
            "RPi.GPIO API of rpi-lgpio (pip install spidev rpi-lgpio)"
        ) from err
    except OSError:
        raise  # the bus's own error (spidev), told as it is
    except Exception as err:  # the GPIO library under luma: RPi.GPIO on a Pi 5's RP1 raises
        # RuntimeError at setup, rpi-lgpio raises lgpio.error when the chip or line is taken
        raise DisplayWiringError(
            f"{spec.name}: the GPIO library cannot drive the DC/RESET lines "
            f"({type(err).__name__}: {err}); it must be rpi-lgpio, not RPi.GPIO (which fails "
            "on a Pi 5): pip uninstall RPi.GPIO, then pip install --force-reinstall rpi-lgpio"
        ) from err


def _emulated_serial(spec: DisplaySpec, wiring: EmulatedWiring, chip: OledChip):
    if spec.interface == "i2c":
        bus = wiring.i2c_bus(spec.bus, spec.clock_hz)
        meter = bus.attach(spec.address, chip)
        return (lambda: WholeTransferI2C(bus, spec.address)), meter
    port = EmulatedSpiDev(chip, wiring.lines, dc=spec.dc, cs=spec.cs, clock_hz=spec.clock_hz)
    wiring.spi_ports[spec.role] = port
    return (lambda: _luma_spi(spec, spi=port, gpio=wiring.lines)), port.meter
