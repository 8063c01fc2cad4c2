"""The Raspberry Pi's own buses: Blinka for the PN532s, pyserial, luma's interfaces, lgpio.

Nothing here is imported before a device is opened: Blinka's `board` detects the Pi and loads
its GPIO library (gpiod) on import, which must not happen for `arcana-table --help`.
Before opening a bus the factory checks that its device node exists, so a bus switched off
in the Pi's configuration is one sentence with the command that switches it on.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.buses.base import Buses, BusUnavailable, ReaderWires, i2c_route
from hardware.buses.fixes import REBOOT, i2c_off, spi_off, uart_off
from hardware.display.spec import DisplaySpec
from hardware.profile.specs import MuxSpec, ReaderSpec

log = logging.getLogger(__name__)
# Blinka offers to pip-install its platform libraries when `board` is imported from a
# terminal; the table declares them (pyproject) and must never install at run time.
SKIP_DEPENDENCY_CHECK = "BLINKA_SKIP_DEPENDENCY_CHECK"
SPI_PINS = {0: ("SCK", "MOSI", "MISO"), 1: ("SCK_1", "MOSI_1", "MISO_1")}


class PiBuses(Buses):
    """The Pi's buses. `dev` and `sysfs` are where device nodes and /sys are looked up."""

    kind = "real"

    def __init__(
        self, *, dev: Path = Path("/dev"), sysfs: Path = Path("/sys"), pin_factory: Any = None
    ) -> None:
        os.environ.setdefault(SKIP_DEPENDENCY_CHECK, "1")
        self.dev = dev
        self.sysfs = sysfs
        self.pin_factory = pin_factory  # None: gpiozero's default ($GPIOZERO_PIN_FACTORY, lgpio)
        self._spi: dict[int, Any] = {}
        self._i2c: dict[int, Any] = {}
        self._releases: list[Callable[[], Any]] = []  # what close() calls, in order
        self.closed = False

    # -- readers ------------------------------------------------------------------------

    def reader_wires(self, spec: ReaderSpec, mux: MuxSpec | None) -> ReaderWires:
        # The bus first: a bus switched off is the first thing to tell.
        if spec.interface == "spi":
            port = self._spi_port(spec.bus)
            cs = self._line(spec.cs, value=True)  # claimed high: this PN532 does not listen yet
            irq, reset = self._irq_line(spec.irq), self._line(spec.reset)
            return ReaderWires(port, cs=cs, irq=irq, reset=reset)
        if spec.interface == "uart":
            return ReaderWires(self._uart(spec), reset=self._line(spec.reset))
        number, channel = i2c_route(spec, mux, self)
        bus = self._i2c_bus(number)
        irq, reset = self._irq_line(spec.irq), self._line(spec.reset)
        return ReaderWires(
            bus,
            irq=irq,
            reset=reset,
            req=self._line(spec.req, value=True),
            channel=channel,
            mux_address=mux.address if mux else 0x70,
        )

    def _line(self, number: int | None, *, value: bool | None = None) -> Any:
        """A Blinka DigitalInOut on GPIO `number` (an input, or an output at `value`)."""
        if number is None:
            return None
        import board
        import digitalio

        line = digitalio.DigitalInOut(getattr(board, f"D{number}"))
        self._releases.append(line.deinit)
        if value is not None:
            line.switch_to_output(value=value)
        return line

    def _irq_line(self, number: int | None) -> Any:
        """The PN532's IRQ input, pulled up: the chip drives it (low = a frame is ready), and a
        pin the wire is not on reads high, "never ready", which the driver reports, instead of
        floating and passing for "ready" at random."""
        line = self._line(number)
        if line is not None:
            import digitalio

            line.switch_to_input(pull=digitalio.Pull.UP)
        return line

    def _spi_port(self, port: int) -> Any:
        if port not in self._spi:
            node = self.dev / f"spidev{port}.0"  # Blinka opens the port's first device
            if not node.exists():
                raise BusUnavailable(spi_off(port, str(node)))
            import board
            import busio

            clock, mosi, miso = (getattr(board, name) for name in SPI_PINS[port])
            self._spi[port] = busio.SPI(clock, mosi, miso)
            self._releases.append(self._spi[port].deinit)
        return self._spi[port]

    def _i2c_bus(self, number: int) -> Any:
        if number not in self._i2c:
            node = self.dev / f"i2c-{number}"
            if not node.exists():
                raise BusUnavailable(i2c_off(number, str(node)))
            self._i2c[number] = _numbered_i2c(number)
            self._releases.append(self._i2c[number].deinit)
        return self._i2c[number]

    def _uart(self, spec: ReaderSpec) -> Any:
        if not Path(spec.port).exists():
            raise BusUnavailable(uart_off(spec.port))
        import serial

        # The driver reads whole frames (TablePN532_UART), so the timeout is only a bound.
        port = serial.Serial(spec.port, baudrate=spec.baudrate, timeout=1.0)
        self._releases.append(port.close)
        return port

    def mux_channel_bus(self, mux: MuxSpec, channel: int) -> int:
        """The kernel's bus number of `channel`, read from the i2c-mux driver's sysfs link
        (`/sys/bus/i2c/devices/1-0070/channel-2 -> ../i2c-24`): the numbers differ by model."""
        if mux.kernel_buses:
            return mux.kernel_buses[channel]
        device = self.sysfs / "bus/i2c/devices" / f"{mux.bus}-{mux.address:04x}"
        link = device / f"channel-{channel}"
        try:
            name = Path(os.readlink(link)).name
        except OSError:
            raise BusUnavailable(
                f"{link} does not exist: the multiplexer at 0x{mux.address:02X} on "
                f"i2c-{mux.bus} has no kernel driver; add `dtoverlay=i2c-mux,pca9548,"
                f"addr=0x{mux.address:02x}` to /boot/firmware/config.txt, {REBOOT}"
            ) from None
        if not name.startswith("i2c-") or not name[4:].isdigit():
            raise BusUnavailable(f"{link} points to {name!r}, not to an i2c-N bus")
        return int(name[4:])

    # -- displays -----------------------------------------------------------------------

    def display(self, spec: DisplaySpec, clock: Callable[[], float]):
        from hardware.display import open_display

        return open_display(spec, None, clock=clock, dev=self.dev)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for release in self._releases:
            try:
                release()
            except Exception:  # releasing the rest matters more
                log.exception("releasing %r failed", release)


def _numbered_i2c(number: int) -> Any:
    """A busio.I2C on /dev/i2c-N. busio's own constructor takes board pins and so reaches
    only the header's bus; Blinka's Linux I2C class takes a number."""
    import busio
    from adafruit_blinka.microcontroller.generic_linux.i2c import I2C as LinuxI2C

    class NumberedI2C(busio.I2C):
        def __init__(self) -> None:  # busio.I2C's __init__ insists on board pins
            self._i2c = LinuxI2C(number, mode=LinuxI2C.MASTER)
            self._lock = threading.RLock()

    return NumberedI2C()
