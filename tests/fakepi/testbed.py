"""A fake Raspberry Pi 4 or 5: umockdev device nodes whose behaviour is the project's emulators.

Runs under Debian's system python3 (only it has `gi` and UMockdev); the code under test runs
in another process with `LD_PRELOAD=<gpio shim> libumockdev-preload.so.0` and
`UMOCKDEV_DIR=<root>`. Started as

    /usr/bin/python3 tests/fakepi/testbed.py WIRING.json

it prints one JSON line `{"root": ...}` and then answers one JSON command per stdin line
(`place`, `remove`, `press`, `report`, `reset_lines`, `quit`), one JSON line each.

What it fakes, per board (`pi4`, `pi5`):
- `/proc/device-tree/{model,compatible,system/linux,revision}` and `/proc/cpuinfo`, so
  gpiozero, rpi-lgpio and Blinka's platform detection find the board by themselves;
- GPIO chips (Pi 4: gpiochip0 `pinctrl-bcm2711`; Pi 5: gpiochip0-3 `gpio-brcmstb@...` and
  gpiochip4 `pinctrl-rp1`, as Bookworm's first kernels number them) with the GPIO v2 uAPI:
  chip and line info, line requests (through the shim, see gpio_shim.c), values, config and
  edge events; lines have the SoC's power-on pulls (GPIO0-8 up, the rest down);
- `/dev/spidev0.{0,1}`: SPI_IOC_MESSAGE and write(); a PN532 listens while its chip-select
  line is low (GPIO chip-select) or while its CE node is used; an OLED takes DC into account;
- `/dev/i2c-1` (plus the board's other adapters and, with a kernel-driven TCA9548A, one
  adapter per channel, listed in `/sys/bus/i2c/devices/1-0070/channel-N`): I2C_SLAVE +
  read()/write(), I2C_RDWR, I2C_SMBUS, I2C_FUNCS; absent addresses fail with EREMOTEIO.
PN532s are `hardware.nfc.emulator.EmulatedPN532`; OLED bytes are recorded for the test to
decode with `hardware.display.chip.OledChip`. Every handler answers EIO on an exception
(an unanswered request would hang the client).
"""

from __future__ import annotations

import errno
import json
import os
import struct
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hardware.nfc.emulator import EmulatedPN532  # noqa: E402
from hardware.nfc.tags import Ntag  # noqa: E402

LOCK = threading.RLock()  # handlers run on umockdev's thread, commands on the main one


def log(text: str) -> None:
    print(f"testbed: {text}", file=sys.stderr, flush=True)


# -- boards ------------------------------------------------------------------------------

BOARDS = {
    "pi4": {
        "model": "Raspberry Pi 4 Model B Rev 1.4",
        "compatible": ["raspberrypi,4-model-b", "brcm,bcm2711"],
        "revision": 0xC03114,
        "hardware": "BCM2835",
        # (number, label, lines, of_node compatible); the header's chip is the one with GPIO2-27
        "chips": [
            (0, "pinctrl-bcm2711", 58, "brcm,bcm2711-gpio"),
            (1, "raspberrypi-exp-gpio", 8, "raspberrypi,firmware-gpio"),
        ],
        "header_chip": 0,
        "i2c_adapters": {1: "bcm2835 (i2c@7e804000)", 20: "fef04500.i2c", 21: "fef09500.i2c"},
        "first_mux_bus": 22,
    },
    "pi5": {
        "model": "Raspberry Pi 5 Model B Rev 1.0",
        "compatible": ["raspberrypi,5-model-b", "brcm,bcm2712"],
        "revision": 0xD04170,
        "hardware": None,
        "chips": [
            (0, "gpio-brcmstb@107d508500", 32, "brcm,brcmstb-gpio"),
            (1, "gpio-brcmstb@107d508520", 4, "brcm,brcmstb-gpio"),
            (2, "gpio-brcmstb@107d517c00", 17, "brcm,brcmstb-gpio"),
            (3, "gpio-brcmstb@107d517c20", 6, "brcm,brcmstb-gpio"),
            (4, "pinctrl-rp1", 54, "raspberrypi,rp1-gpio"),
        ],
        "header_chip": 4,
        "i2c_adapters": {1: "Synopsys DesignWare I2C adapter", 11: "ddc", 12: "ddc"},
        "first_mux_bus": 13,
    },
}

# -- ioctl numbers ------------------------------------------------------------------------


def _ioc_nr(request: int) -> tuple[int, int]:
    """(type, number) of an ioctl request, ignoring direction and size."""
    return (request >> 8) & 0xFF, request & 0xFF


def _ioc_size(request: int) -> int:
    return (request >> 16) & 0x3FFF


GPIO_TYPE, SPI_TYPE, I2C_TYPE = 0xB4, ord("k"), 0x07
FAKEPI_RELEASE = 0xF0  # the shim's "this line request is being closed" (0xB4, 0xF0)

# GPIO v2 flags
F_USED, F_ACTIVE_LOW, F_INPUT, F_OUTPUT = 1, 2, 4, 8
F_EDGE_RISING, F_EDGE_FALLING = 16, 32
F_OPEN_DRAIN, F_OPEN_SOURCE = 64, 128
F_PULL_UP, F_PULL_DOWN, F_BIAS_DISABLED = 256, 512, 1024
ATTR_FLAGS, ATTR_OUTPUT_VALUES, ATTR_DEBOUNCE = 1, 2, 3
EVENT_RISING, EVENT_FALLING = 1, 2

I2C_M_RD = 0x0001
I2C_FUNCS_VALUE = 0x0EFF0009  # plain I2C, SMBus emulated, no 10-bit addresses
EREMOTEIO = getattr(errno, "EREMOTEIO", 121)


# -- GPIO ---------------------------------------------------------------------------------


class Line:
    """One GPIO line: how it is requested, what drives it from outside, its history."""

    def __init__(self, chip: int, offset: int, name: str, power_on_pull: int | None) -> None:
        self.chip = chip
        self.offset = offset
        self.name = name
        self.power_on_pull = power_on_pull  # 1 up, 0 down, None floating (reads 0)
        self.request: LineRequest | None = None
        self.ever_requested = False
        self.flags = F_INPUT
        self.driven = 0  # the physical level an output drives
        self.external: int | None = None  # a button pulling it, None when nothing does
        self.source: Callable[[], int] | None = None  # a chip's output wired to it (IRQ)
        self.watcher: Callable[[int], None] | None = None  # a chip input on it (RSTPDN)
        self.changes: list[tuple[float, int]] = []  # (time, physical level) after each change

    def level(self) -> int:
        """The physical level on the wire."""
        if self.flags & F_OUTPUT:
            return self.driven
        if self.external is not None:
            return self.external
        if self.source is not None:
            return self.source()
        if self.flags & F_PULL_UP:
            return 1
        if self.flags & (F_PULL_DOWN | F_BIAS_DISABLED):
            return 0
        return self.power_on_pull or 0

    def logical(self) -> int:
        return self.level() ^ bool(self.flags & F_ACTIVE_LOW)


class LineRequest:
    """A GPIO v2 line request: its lines, the FIFO its edge events go to."""

    def __init__(self, number: int, lines: list[Line], consumer: str, fifo: Path) -> None:
        self.number = number
        self.lines = lines
        self.consumer = consumer
        self.fifo_path = fifo
        os.mkfifo(fifo)
        self.fifo = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        self.seqno = 0
        self.line_seqno = [0] * len(lines)

    def event(self, index: int, rising: bool) -> None:
        self.seqno += 1
        self.line_seqno[index] += 1
        record = struct.pack(
            "<QIIII24x",
            time.monotonic_ns(),
            EVENT_RISING if rising else EVENT_FALLING,
            self.lines[index].offset,
            self.seqno,
            self.line_seqno[index],
        )
        try:
            os.write(self.fifo, record)
        except BlockingIOError:
            log(f"event FIFO of request {self.number} is full; event dropped")

    def close(self) -> None:
        os.close(self.fifo)
        self.fifo_path.unlink(missing_ok=True)


class Gpio:
    """Every line of every GPIO chip of the board, and the line requests on them."""

    def __init__(self, board: dict, fifo_dir: Path) -> None:
        self.chips: dict[int, tuple[str, list[Line]]] = {}
        for number, label, count, _ in board["chips"]:
            header = number == board["header_chip"]
            lines = []
            for offset in range(count):
                name = f"GPIO{offset}" if header and offset < 28 else ""
                pull = (1 if offset <= 8 else 0) if header else None
                lines.append(Line(number, offset, name, pull))
            self.chips[number] = (label, lines)
        self.header = board["header_chip"]
        self.fifo_dir = fifo_dir
        self.requests: dict[int, LineRequest] = {}
        self.next_request = 1
        self.start = time.monotonic()

    def used_lines(self) -> list[tuple[str, int]]:
        """(chip label, offset) of every line that was ever requested."""
        return [
            (label, line.offset)
            for label, lines in self.chips.values()
            for line in lines
            if line.ever_requested
        ]

    def header_line(self, gpio: int) -> Line:
        return self.chips[self.header][1][gpio]

    def request(self, chip: int, offsets: list[int], consumer: str) -> LineRequest:
        label, lines = self.chips[chip]
        chosen = []
        for offset in offsets:
            if offset >= len(lines):
                raise OSError(errno.EINVAL, f"{label} has no line {offset}")
            if lines[offset].request is not None:
                raise OSError(errno.EBUSY, f"{label} line {offset} is in use")
            chosen.append(lines[offset])
        number = self.next_request
        self.next_request += 1
        request = LineRequest(number, chosen, consumer, self.fifo_dir / f"line-{number}")
        for line in chosen:
            line.request = request
            line.ever_requested = True
        self.requests[number] = request
        return request

    def release(self, request: LineRequest) -> None:
        # As on the Pi's pin controllers, a released output keeps its level and direction.
        for line in request.lines:
            line.request = None
        request.close()
        self.requests.pop(request.number, None)

    def release_all(self) -> None:
        for request in list(self.requests.values()):
            self.release(request)

    def configure(self, request: LineRequest, config: bytes) -> None:
        """Apply a gpio_v2_line_config (272 bytes) to the request's lines."""
        flags, num_attrs = struct.unpack_from("<QI", config, 0)
        per_line = [flags] * len(request.lines)
        outputs: dict[int, int] = {}
        for n in range(min(num_attrs, 10)):
            at = 32 + 24 * n
            attr_id, _, value, mask = struct.unpack_from("<IIQQ", config, at)
            for index in range(len(request.lines)):
                if not mask >> index & 1:
                    continue
                if attr_id == ATTR_FLAGS:
                    per_line[index] = value
                elif attr_id == ATTR_OUTPUT_VALUES:
                    outputs[index] = value >> index & 1
        for index, line in enumerate(request.lines):
            before = line.level()
            line.flags = per_line[index] | F_USED
            if line.flags & F_OUTPUT:
                logical = outputs.get(index, 0)
                line.driven = logical ^ bool(line.flags & F_ACTIVE_LOW)
            self._changed(line, before)

    def set_values(self, request: LineRequest, bits: int, mask: int) -> None:
        for index, line in enumerate(request.lines):
            if mask >> index & 1 and line.flags & F_OUTPUT:
                before = line.level()
                line.driven = (bits >> index & 1) ^ bool(line.flags & F_ACTIVE_LOW)
                self._changed(line, before)

    def get_values(self, request: LineRequest, mask: int) -> int:
        bits = 0
        for index, line in enumerate(request.lines):
            if mask >> index & 1:
                bits |= line.logical() << index
        return bits

    def drive(self, gpio: int, level: int | None) -> None:
        """Something outside the Pi pulls a header line (a button), or lets it go."""
        line = self.header_line(gpio)
        before = line.level()
        line.external = level
        self._changed(line, before)

    def _changed(self, line: Line, before: int) -> None:
        now = line.level()
        if now == before:
            return
        line.changes.append((time.monotonic() - self.start, now))
        if line.watcher is not None:
            line.watcher(now)
        request = line.request
        if request is None or line.flags & F_OUTPUT:
            return
        logical_now = now ^ bool(line.flags & F_ACTIVE_LOW)
        rising = bool(logical_now)
        if (rising and line.flags & F_EDGE_RISING) or (not rising and line.flags & F_EDGE_FALLING):
            request.event(request.lines.index(line), rising)


# -- devices on the buses -----------------------------------------------------------------


class OledRecorder:
    """An OLED controller's input: the command and data bytes, in order."""

    def __init__(self, role: str) -> None:
        self.role = role
        self.stream: list[tuple[str, bytes]] = []

    def take(self, kind: str, payload: bytes) -> None:
        if self.stream and self.stream[-1][0] == kind and kind == "data":
            self.stream[-1] = (kind, self.stream[-1][1] + payload)
        else:
            self.stream.append((kind, payload))

    def i2c_write(self, payload: bytes) -> None:
        if not payload:
            return
        control, body = payload[0], payload[1:]
        self.take("data" if control & 0x40 else "command", body)

    def i2c_read(self, count: int) -> bytes:
        return bytes(count)  # the SSD1306's status byte reads 0 (display on, not busy)


def _bus_fault(chip: EmulatedPN532) -> None:
    """The emulator's bus faults, as Linux reports them (see hardware.nfc.buses)."""
    if chip.fault == "io_error":
        raise OSError(errno.EIO, f"I/O error talking to {chip.name}")


class I2cPn532:
    """PN532 I2C framing (as hardware.nfc.buses.EmulatedI2C): reads start with the status."""

    def __init__(self, chip: EmulatedPN532) -> None:
        self.chip = chip

    @property
    def present(self) -> bool:
        return self.chip.plugged

    def i2c_write(self, payload: bytes) -> None:
        _bus_fault(self.chip)
        if payload:
            self.chip.host_write(payload)

    def i2c_read(self, count: int) -> bytes:
        _bus_fault(self.chip)
        ready = self.chip.ready
        out = bytearray([0x01 if ready else 0x00])
        if count > 1 and ready:
            out += self.chip.take_frame() or b""
        return bytes(out[:count].ljust(count, b"\x00"))


class Tca9548a:
    """A TCA9548A switched by the host (no kernel driver): one byte opens channels."""

    def __init__(self) -> None:
        self.mask = 0
        self.channels: list[dict[int, object]] = [{} for _ in range(8)]

    def i2c_write(self, payload: bytes) -> None:
        if payload:
            self.mask = payload[-1]

    def i2c_read(self, count: int) -> bytes:
        return bytes([self.mask]) * count


class KernelOwned:
    """An address a kernel driver has bound (the i2c-mux driver's TCA9548A): EBUSY."""


class I2cAdapter:
    """One /dev/i2c-N: devices by address, and a host-switched multiplexer's channels."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.devices: dict[int, object] = {}
        self.transfers = 0

    def find(self, address: int):
        found = [self.devices[address]] if address in self.devices else []
        for device in self.devices.values():
            if isinstance(device, Tca9548a):
                found += [
                    channel[address]
                    for n, channel in enumerate(device.channels)
                    if device.mask >> n & 1 and address in channel
                ]
        found = [device for device in found if getattr(device, "present", True)]
        if not found:
            raise OSError(EREMOTEIO, f"no device answers at 0x{address:02x} on i2c-{self.number}")
        if len(found) > 1:
            raise OSError(errno.EIO, f"two devices answer at 0x{address:02x} on i2c-{self.number}")
        return found[0]

    def write(self, address: int, payload: bytes) -> None:
        self.transfers += 1
        self.find(address).i2c_write(payload)

    def read(self, address: int, count: int) -> bytes:
        self.transfers += 1
        return self.find(address).i2c_read(count)


_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))
SPI_STATUS_READ, SPI_DATA_WRITE, SPI_DATA_READ = 0x02, 0x01, 0x03
SPI_NO_CS = 0x40


class SpiPn532:
    """PN532 SPI framing (as hardware.nfc.buses.EmulatedSPI): LSB first, a prefix byte."""

    def __init__(self, role: str, chip: EmulatedPN532) -> None:
        self.role = role
        self.chip = chip

    def transfer(self, out: bytes, lines: dict) -> bytes | None:
        _bus_fault(self.chip)
        if not self.chip.plugged:
            return None  # nobody drives MISO: the host reads zeros
        command = _REVERSED[out[0]] if out else None
        if command == SPI_STATUS_READ:
            status = 0x01 if self.chip.ready else 0x00
            return bytes([0]) + bytes([_REVERSED[status]]) * (len(out) - 1)
        if command == SPI_DATA_WRITE:
            self.chip.host_write(bytes(out[1:]).translate(_REVERSED))
            return bytes(len(out))
        if command == SPI_DATA_READ:
            frame = (self.chip.take_frame() or b"").translate(_REVERSED)
            return (b"\x00" + frame)[: len(out)].ljust(len(out), b"\x00")
        return bytes(len(out))  # a wake-up byte


class SpiOled:
    """An OLED on SPI: DC high means display data, low means commands. Drives no MISO."""

    def __init__(self, recorder: OledRecorder, dc: int, gpio: Gpio) -> None:
        self.role = recorder.role
        self.recorder = recorder
        self.dc = dc
        self.gpio = gpio

    def transfer(self, out: bytes, lines: dict) -> bytes | None:
        kind = "data" if self.gpio.header_line(self.dc).level() else "command"
        self.recorder.take(kind, out)
        return None


class SpiBus:
    """SPI0: who listens is decided by the chip-select lines at the time of each transfer."""

    LOG_LIMIT = 400

    def __init__(self, gpio: Gpio) -> None:
        self.gpio = gpio
        self.attached: list[tuple[object, int | None, int | None]] = []  # device, cs gpio, ce
        self.log: list[dict] = []
        self.transfers = 0
        self.contention = 0

    def attach(self, device, cs: int | None, ce: int | None) -> None:
        self.attached.append((device, cs, ce))

    def transfer(self, ce: int | None, out: bytes) -> bytes:
        self.transfers += 1
        selected = []
        for device, cs, device_ce in self.attached:
            if cs is not None:
                if self.gpio.header_line(cs).level() == 0:
                    selected.append(device)
            elif ce is not None and device_ce == ce:
                selected.append(device)
        if len(self.log) < self.LOG_LIMIT:
            levels = {
                str(cs): self.gpio.header_line(cs).level() for _, cs, _ in self.attached if cs
            }
            self.log.append({"ce": ce, "selected": [d.role for d in selected], "cs": levels})
        answers = [device.transfer(out, {}) for device in selected]
        answers = [answer for answer in answers if answer is not None]
        if len(answers) == 1:
            return answers[0]
        if answers:
            self.contention += 1
            return b"\xff" * len(out)  # two chips drive MISO: the host reads noise
        return bytes(len(out))


# -- ioctl handlers ------------------------------------------------------------------------


class Handler(UMockdev.IoctlBase):
    """Base: every request runs under LOCK and answers EIO if the emulation raised."""

    def do_handle_ioctl(self, client) -> bool:
        return self._guarded(client, self.ioctl)

    def do_handle_read(self, client) -> bool:
        return self._guarded(client, self.read)

    def do_handle_write(self, client) -> bool:
        return self._guarded(client, self.write)

    def _guarded(self, client, method) -> bool:
        try:
            with LOCK:
                result = method(client)
        except OSError as err:
            client.complete(-1, err.errno or errno.EIO)
            return True
        except Exception:
            log("handler failed:\n" + traceback.format_exc())
            client.complete(-1, errno.EIO)
            return True
        client.complete(result, 0)
        return True

    def ioctl(self, client) -> int:
        raise OSError(errno.ENOTTY, "no such ioctl")

    def read(self, client) -> int:
        raise OSError(errno.EINVAL, "not readable")

    def write(self, client) -> int:
        raise OSError(errno.EINVAL, "not writable")


def _pointer(client, size: int):
    """The structure the ioctl argument points to (None for a null pointer)."""
    return client.get_arg().resolve(0, size)


def _arg_value(client) -> int:
    """An ioctl argument passed by value (I2C_SLAVE's address)."""
    return int.from_bytes(bytes(client.get_arg().retrieve()), "little")


class GpioChipHandler(Handler):
    """/dev/gpiochipN: chip and line info, line requests (through the shim), line ioctls."""

    def __init__(self, gpio: Gpio, chip: int) -> None:
        super().__init__()
        self.gpio = gpio
        self.chip = chip
        self.line_clients: dict[object, LineRequest] = {}

    def ioctl(self, client) -> int:
        request = client.get_request()
        kind, number = _ioc_nr(request)
        if kind != GPIO_TYPE:
            raise OSError(errno.ENOTTY, "not a GPIO ioctl")
        if client in self.line_clients:
            return self._line_ioctl(client, self.line_clients[client], number)
        label, lines = self.gpio.chips[self.chip]
        if number == 0x01:  # GPIO_GET_CHIPINFO_IOCTL
            info = _pointer(client, 68)
            name = f"gpiochip{self.chip}".encode()
            info.update(0, list(struct.pack("<32s32sI", name, label.encode(), len(lines))))
            return 0
        if number in (0x05, 0x06):  # GPIO_V2_GET_LINEINFO(_WATCH)_IOCTL
            info = _pointer(client, 256)
            offset = struct.unpack_from("<I", bytes(info.retrieve()), 64)[0]
            if offset >= len(lines):
                raise OSError(errno.EINVAL, "no such line")
            info.update(0, list(self._line_info(lines[offset])))
            return 0
        if number == 0x02:  # GPIO_GET_LINEINFO_IOCTL (v1)
            info = _pointer(client, 72)
            offset = struct.unpack_from("<I", bytes(info.retrieve()), 0)[0]
            if offset >= len(lines):
                raise OSError(errno.EINVAL, "no such line")
            info.update(0, list(self._line_info_v1(lines[offset])))
            return 0
        if number == 0x0C:  # GPIO_GET_LINEINFO_UNWATCH_IOCTL
            return 0
        if number == 0x07:  # GPIO_V2_GET_LINE_IOCTL, re-issued by the shim on its own fd
            data = _pointer(client, 592)
            raw = bytes(data.retrieve())
            num_lines = struct.unpack_from("<I", raw, 560)[0]
            if not 0 < num_lines <= 64:
                raise OSError(errno.EINVAL, "bad number of lines")
            offsets = list(struct.unpack_from(f"<{num_lines}I", raw, 0))
            consumer = raw[256:288].split(b"\0")[0].decode(errors="replace")
            line_request = self.gpio.request(self.chip, offsets, consumer)
            self.gpio.configure(line_request, raw[288:560])
            self.line_clients[client] = line_request
            data.update(588, list(struct.pack("<i", line_request.number)))
            return 0
        raise OSError(errno.ENOTTY, f"GPIO ioctl 0x{number:02x} is not emulated")

    def _line_ioctl(self, client, line_request: LineRequest, number: int) -> int:
        if number == 0x0E:  # GPIO_V2_LINE_GET_VALUES_IOCTL
            values = _pointer(client, 16)
            _, mask = struct.unpack("<QQ", bytes(values.retrieve()))
            bits = self.gpio.get_values(line_request, mask)
            values.update(0, list(struct.pack("<Q", bits)))
            return 0
        if number == 0x0F:  # GPIO_V2_LINE_SET_VALUES_IOCTL
            bits, mask = struct.unpack("<QQ", bytes(_pointer(client, 16).retrieve()))
            self.gpio.set_values(line_request, bits, mask)
            return 0
        if number == 0x0D:  # GPIO_V2_LINE_SET_CONFIG_IOCTL
            self.gpio.configure(line_request, bytes(_pointer(client, 272).retrieve()))
            return 0
        if number == FAKEPI_RELEASE:
            self.gpio.release(line_request)
            del self.line_clients[client]
            return 0
        raise OSError(errno.ENOTTY, f"GPIO line ioctl 0x{number:02x} is not emulated")

    def release_all(self) -> None:
        self.line_clients.clear()

    @staticmethod
    def _line_info(line: Line) -> bytes:
        flags = line.flags & ~F_USED
        if line.request is not None:
            flags |= F_USED
        consumer = line.request.consumer if line.request else ""
        return struct.pack(
            "<32s32sIIQ160x16x", line.name.encode(), consumer.encode(), line.offset, 0, flags
        )

    @staticmethod
    def _line_info_v1(line: Line) -> bytes:
        flags = (1 if line.request else 0) | (2 if line.flags & F_OUTPUT else 0)
        consumer = line.request.consumer if line.request else ""
        return struct.pack("<II32s32s", line.offset, flags, line.name.encode(), consumer.encode())


class SpidevHandler(Handler):
    """/dev/spidev0.N: mode/speed settings, SPI_IOC_MESSAGE, plain write() and read()."""

    def __init__(self, bus: SpiBus, ce: int) -> None:
        super().__init__()
        self.bus = bus
        self.ce = ce
        # The kernel keeps these per spi_device: every open file of the node shares them.
        self.settings = {1: 0, 2: 0, 3: 8, 4: 500_000}

    def ioctl(self, client) -> int:
        request = client.get_request()
        kind, number = _ioc_nr(request)
        if kind != SPI_TYPE:
            raise OSError(errno.ENOTTY, "not an SPI ioctl")
        if number == 0:  # SPI_IOC_MESSAGE(n)
            count = _ioc_size(request) // 32
            transfers = _pointer(client, 32 * count)
            raw = bytes(transfers.retrieve())
            for n in range(count):
                tx, rx, length = struct.unpack_from("<QQI", raw, 32 * n)
                out = bytes(transfers.resolve(32 * n, length).retrieve()) if tx else bytes(length)
                answer = self.bus.transfer(self._ce(), out)
                if rx:
                    transfers.resolve(32 * n + 8, length).update(0, list(answer))
            return sum(struct.unpack_from("<I", raw, 32 * n + 16)[0] for n in range(count))
        if number in (1, 2, 3, 4, 5):
            size = {1: 1, 2: 1, 3: 1, 4: 4, 5: 4}[number]
            number = 1 if number == 5 else number  # SPI_IOC_*_MODE32 is the same setting
            value = _pointer(client, size)
            direction = request >> 30
            if direction == 1:  # _IOW: the host sets it
                self.settings[number] = int.from_bytes(bytes(value.retrieve()), "little")
            else:
                value.update(0, list(self.settings[number].to_bytes(size, "little")))
            return 0
        raise OSError(errno.ENOTTY, f"SPI ioctl {number} is not emulated")

    def _ce(self) -> int | None:
        """The CE line this node asserts during a transfer; none in SPI_NO_CS mode."""
        return None if self.settings[1] & SPI_NO_CS else self.ce

    def write(self, client) -> int:
        data = bytes(client.get_arg().retrieve())
        self.bus.transfer(self._ce(), data)
        return len(data)

    def read(self, client) -> int:
        buffer = client.get_arg()
        count = len(buffer.retrieve())
        buffer.update(0, list(self.bus.transfer(self._ce(), bytes(count))))
        return count


class I2cDevHandler(Handler):
    """/dev/i2c-N: the address a client chose, plain read/write, I2C_RDWR, I2C_SMBUS."""

    def __init__(self, adapter: I2cAdapter, kernel_owned: set[int]) -> None:
        super().__init__()
        self.adapter = adapter
        self.kernel_owned = kernel_owned
        self.addresses: dict[object, int] = {}

    def ioctl(self, client) -> int:
        request = client.get_request()
        if request in (0x0703, 0x0706):  # I2C_SLAVE, I2C_SLAVE_FORCE
            address = _arg_value(client)
            if request == 0x0703 and address in self.kernel_owned:
                raise OSError(errno.EBUSY, "a kernel driver owns this address")
            self.addresses[client] = address
            return 0
        if request in (0x0701, 0x0702, 0x0704, 0x0708):  # retries, timeout, tenbit, pec
            return 0
        if request == 0x0705:  # I2C_FUNCS
            _pointer(client, 8).update(0, list(struct.pack("<Q", I2C_FUNCS_VALUE)))
            return 0
        if request == 0x0707:  # I2C_RDWR
            header = _pointer(client, 16)
            _, count = struct.unpack("<QI4x", bytes(header.retrieve()))
            messages = header.resolve(0, 16 * count)
            raw = bytes(messages.retrieve())
            for n in range(count):
                address, flags, length = struct.unpack_from("<HHH", raw, 16 * n)
                buffer = messages.resolve(16 * n + 8, length)
                if flags & I2C_M_RD:
                    buffer.update(0, list(self.adapter.read(address, length)))
                else:
                    self.adapter.write(address, bytes(buffer.retrieve()) if length else b"")
            return count
        if request == 0x0720:  # I2C_SMBUS
            return self._smbus(client)
        raise OSError(errno.ENOTTY, f"I2C ioctl 0x{request:04x} is not emulated")

    def _smbus(self, client) -> int:
        args = _pointer(client, 16)  # i2c_smbus_ioctl_data: u8 read_write, u8 command, u32 size
        read_write, command, size = struct.unpack_from("<BBxxI", bytes(args.retrieve()), 0)
        address = self._address(client)
        reading = read_write == 1
        if size == 0:  # QUICK
            self.adapter.find(address)
            return 0
        data = args.resolve(8, 34)
        block = bytes(data.retrieve())
        if size == 1:  # BYTE
            if reading:
                data.update(0, list(self.adapter.read(address, 1)))
            else:
                self.adapter.write(address, bytes([command]))
        elif size == 2:  # BYTE_DATA
            if reading:
                self.adapter.write(address, bytes([command]))
                data.update(0, list(self.adapter.read(address, 1)))
            else:
                self.adapter.write(address, bytes([command, block[0]]))
        elif size in (5, 8):  # BLOCK_DATA, I2C_BLOCK_DATA
            length = block[0]
            if reading:
                self.adapter.write(address, bytes([command]))
                got = self.adapter.read(address, length)
                data.update(0, [length, *got])
            else:
                self.adapter.write(address, bytes([command]) + block[1 : 1 + length])
        else:
            raise OSError(errno.EOPNOTSUPP, f"SMBus transfer size {size} is not emulated")
        return 0

    def _address(self, client) -> int:
        if client not in self.addresses:
            raise OSError(errno.EINVAL, "no I2C_SLAVE address set")
        return self.addresses[client]

    def write(self, client) -> int:
        data = bytes(client.get_arg().retrieve())
        self.adapter.write(self._address(client), data)
        return len(data)

    def read(self, client) -> int:
        buffer = client.get_arg()
        count = len(buffer.retrieve())
        buffer.update(0, list(self.adapter.read(self._address(client), count)))
        return count


# -- the fake Pi ---------------------------------------------------------------------------


class FakePi:
    """The testbed for one board and one wiring (see tests/fakepi/conftest.py)."""

    def __init__(self, wiring: dict) -> None:
        self.wiring = wiring
        self.board = BOARDS[wiring["board"]]
        self.testbed = UMockdev.Testbed.new()
        self.root = Path(self.testbed.get_root_dir())
        fifo_dir = self.root / "fakepi"
        fifo_dir.mkdir()
        self.gpio = Gpio(self.board, fifo_dir)
        self.handlers: list[Handler] = []
        self.chips: dict[str, EmulatedPN532] = {}
        self.oleds: dict[str, OledRecorder] = {}
        self.spi = SpiBus(self.gpio)
        self.adapters: dict[int, I2cAdapter] = {}
        self._proc()
        self._gpio_chips()
        self._wire()
        if wiring.get("spi", True):
            self._spidev()
        if wiring.get("i2c", True):
            self._i2c()

    def _add_node(self, subsystem: str, name: str, majmin: str, *attributes: str) -> None:
        """A sysfs device with its /dev node (a plain file: umockdev fakes it as a char device)."""
        self.testbed.add_device(
            subsystem, name, None, ["dev", majmin, *attributes], ["DEVNAME", f"/dev/{name}"]
        )
        (self.root / "dev" / name).touch()

    def _attach(self, node: str, handler: Handler) -> None:
        self.handlers.append(handler)
        if not self.testbed.attach_ioctl(node, handler):
            raise RuntimeError(f"umockdev refused an ioctl handler for {node}")

    def _proc(self) -> None:
        tree = self.root / "proc" / "device-tree"
        (tree / "system").mkdir(parents=True)
        (tree / "model").write_bytes(self.board["model"].encode() + b"\0")
        (tree / "compatible").write_bytes(
            b"".join(c.encode() + b"\0" for c in self.board["compatible"])
        )
        (tree / "system" / "linux,revision").write_bytes(struct.pack(">I", self.board["revision"]))
        lines = [f"processor\t: {n}\nBogoMIPS\t: 108.00\nCPU part\t: 0xd08\n" for n in range(4)]
        if self.board["hardware"]:
            lines.append(f"Hardware\t: {self.board['hardware']}")
        lines.append(f"Revision\t: {self.board['revision']:06x}")
        lines.append(f"Model\t\t: {self.board['model']}")
        (self.root / "proc" / "cpuinfo").write_text("\n".join(lines) + "\n")

    def _gpio_chips(self) -> None:
        for number, _label, _count, compatible in self.board["chips"]:
            name = f"gpiochip{number}"
            self._add_node("gpio", name, f"254:{number}")
            of_node = self.root / "sys" / "devices" / name / "of_node"
            of_node.mkdir()
            (of_node / "compatible").write_bytes(compatible.encode() + b"\0")
            self._attach(f"/dev/{name}", GpioChipHandler(self.gpio, number))

    def _wire(self) -> None:
        for reader in self.wiring["readers"]:
            chip = EmulatedPN532(name=reader["role"])
            self.chips[reader["role"]] = chip
            if reader.get("irq") is not None:  # P70_IRQ: low while a frame waits for the host
                self.gpio.header_line(reader["irq"]).source = lambda c=chip: 0 if c.ready else 1
            if reader.get("reset") is not None:  # RSTPDN: the chip restarts when it goes high
                self.gpio.header_line(reader["reset"]).watcher = lambda level, c=chip: (
                    c.power_on() if level else None
                )
        for display in self.wiring["displays"]:
            self.oleds[display["role"]] = OledRecorder(display["role"])

    def _spidev(self) -> None:
        for reader in self.wiring["readers"]:
            if reader["interface"] == "spi":
                device = SpiPn532(reader["role"], self.chips[reader["role"]])
                self.spi.attach(device, reader.get("cs"), reader.get("device"))
        for display in self.wiring["displays"]:
            if display["interface"] == "spi":
                device = SpiOled(self.oleds[display["role"]], display["dc"], self.gpio)
                ce = None if display.get("cs") is not None else display.get("device", 0)
                self.spi.attach(device, display.get("cs"), ce)
        for ce in (0, 1):
            name = f"spidev0.{ce}"
            self._add_node("spidev", name, f"153:{ce}")
            self._attach(f"/dev/{name}", SpidevHandler(self.spi, ce))

    def _i2c(self) -> None:
        mux = self.wiring.get("mux")
        for number, name in self.board["i2c_adapters"].items():
            self.adapters[number] = I2cAdapter(number)
            self._add_adapter(number, name)
        main = self.adapters[1]
        kernel_owned: set[int] = set()
        channel_adapters: list[I2cAdapter] = []
        if mux is not None and mux["kernel"]:
            kernel_owned.add(mux["address"])
            mux_dir = self.root / "sys" / "devices" / f"1-{mux['address']:04x}"
            for channel in range(8):
                number = self.board["first_mux_bus"] + channel
                adapter = I2cAdapter(number)
                self.adapters[number] = adapter
                channel_adapters.append(adapter)
                self._add_adapter(number, f"i2c-1-mux (chan_id {channel})")
            mux_dir.mkdir()
            (mux_dir / "name").write_text("pca9548\n")
            for channel, adapter in enumerate(channel_adapters):
                os.symlink(f"../i2c-{adapter.number}", mux_dir / f"channel-{channel}")
            bus_dir = self.root / "sys" / "bus" / "i2c" / "devices"
            bus_dir.mkdir(parents=True, exist_ok=True)
            os.symlink(
                f"../../../devices/1-{mux['address']:04x}", bus_dir / f"1-{mux['address']:04x}"
            )
        elif mux is not None:
            main.devices[mux["address"]] = Tca9548a()

        def place(device, channel: int | None, address: int) -> None:
            if channel is None:
                target = main.devices
            elif channel_adapters:
                target = channel_adapters[channel].devices
            else:
                target = main.devices[mux["address"]].channels[channel]
            if address in target:
                raise ValueError(f"two devices at 0x{address:02x} on the same wires")
            target[address] = device

        for reader in self.wiring["readers"]:
            if reader["interface"] == "i2c":
                device = I2cPn532(self.chips[reader["role"]])
                place(device, reader.get("mux_channel"), reader["address"])
        for display in self.wiring["displays"]:
            if display["interface"] == "i2c":
                place(self.oleds[display["role"]], display.get("mux_channel"), display["address"])
        for number, adapter in self.adapters.items():
            self._attach(
                f"/dev/i2c-{number}", I2cDevHandler(adapter, kernel_owned if number == 1 else set())
            )

    def _add_adapter(self, number: int, name: str) -> None:
        self._add_node("i2c-dev", f"i2c-{number}", f"89:{number}", "name", name)
        bus_dir = self.root / "sys" / "bus" / "i2c" / "devices"
        bus_dir.mkdir(parents=True, exist_ok=True)
        os.symlink(f"../../../devices/i2c-{number}", bus_dir / f"i2c-{number}")

    # -- commands from the test ----------------------------------------------------------

    def command(self, message: dict) -> dict:
        op = message["op"]
        with LOCK:
            if op == "place":
                tag = Ntag(message["uid"], card_id=message.get("card_id"))
                self.chips[message["reader"]].place(tag)
                return {"ok": True}
            if op == "tag_memory":
                raw = bytes.fromhex(message["uid"])
                tag = next(t for t in self.chips[message["reader"]].tags if t.uid == raw)
                return {"ok": True, "memory": bytes(tag.memory).hex()}
            if op == "fail":  # EmulatedPN532.fail: unplugged, io_error, no_answer, ...
                self.chips[message["reader"]].fail(message["mode"])
                return {"ok": True}
            if op == "recover":
                self.chips[message["reader"]].recover()
                return {"ok": True}
            if op == "remove":
                self.chips[message["reader"]].remove(message["uid"])
                return {"ok": True}
            if op == "drive":
                self.gpio.drive(message["gpio"], message["level"])
                return {"ok": True}
            if op == "reset_lines":
                self.gpio.release_all()
                for handler in self.handlers:
                    if isinstance(handler, GpioChipHandler):
                        handler.release_all()
                return {"ok": True}
            if op == "report":
                return self.report()
        raise ValueError(f"unknown command {op!r}")

    def report(self) -> dict:
        lines = {}
        for gpio in range(28):
            line = self.gpio.header_line(gpio)
            if line.changes or line.request is not None:
                lines[str(gpio)] = {
                    "level": line.level(),
                    "flags": line.flags,
                    "used_by": line.request.consumer if line.request else None,
                    "changes": line.changes[:200],
                }
        return {
            "ok": True,
            "lines": lines,
            "used_lines": self.gpio.used_lines(),
            "spi_log": self.spi.log,
            "spi_transfers": self.spi.transfers,
            "spi_contention": self.spi.contention,
            "oleds": {
                role: [[k, p.hex()] for k, p in rec.stream] for role, rec in self.oleds.items()
            },
            "readers": {
                role: {"commands": [[c, p.hex()] for c, p in chip.commands], "rf": chip.rf_field}
                for role, chip in self.chips.items()
            },
            "i2c_transfers": {str(n): a.transfers for n, a in self.adapters.items()},
        }


def main() -> int:
    wiring = json.loads(Path(sys.argv[1]).read_text())
    fake = FakePi(wiring)
    print(json.dumps({"root": str(fake.root)}), flush=True)
    for text in sys.stdin:
        if not text.strip():
            continue
        message = json.loads(text)
        if message["op"] == "quit":
            break
        try:
            answer = fake.command(message)
        except Exception as err:
            answer = {"ok": False, "error": f"{type(err).__name__}: {err}"}
        print(json.dumps(answer), flush=True)
    fake.gpio.release_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
