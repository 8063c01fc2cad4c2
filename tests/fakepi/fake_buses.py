"""What the fake Pi's buses have on them: PN532s (the project's `EmulatedPN532` behind I2C and
SPI framing as in hardware.nfc.buses), OLED controllers (their byte stream recorded), a
host-switched TCA9548A; an I2C adapter and the SPI bus that route transfers to them."""

from __future__ import annotations

import errno
from collections.abc import Callable

from fake_gpio import Gpio

from hardware.nfc.emulator import EmulatedPN532

EREMOTEIO = getattr(errno, "EREMOTEIO", 121)


class OledRecorder:
    """An OLED controller's input: the command and data bytes, in order."""

    def __init__(self, role: str) -> None:
        self.role = role
        self.stream: list[tuple[str, bytes]] = []
        self.present = True  # False: pulled off the bus, its address is not acknowledged
        self.refused = 0  # transfers to it while it was away

    def take(self, kind: str, payload: bytes) -> None:
        self.stream.append((kind, payload))  # append only: the test decodes it as it grows

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


class Pn532Traffic:
    """What a host did to one PN532: frames written and read, status-only reads, and frame
    reads while the chip had nothing ready (a host that did not wait). `after_write` is
    called after each host frame (the testbed's IRQ ticker)."""

    def __init__(self, chip: EmulatedPN532, after_write: Callable[[], None] | None) -> None:
        self.chip = chip
        self.after_write = after_write
        self.written = 0
        self.frames_read = 0
        self.status_reads = 0
        self.early_reads = 0

    def host_write(self, frame: bytes) -> None:
        self.written += 1
        self.chip.host_write(frame)
        if self.after_write is not None:
            self.after_write()

    def take_frame(self) -> bytes | None:
        frame = self.chip.take_frame()
        if frame is None:
            self.early_reads += 1
        else:
            self.frames_read += 1
        return frame

    def report(self) -> dict:
        return {
            "written": self.written,
            "frames_read": self.frames_read,
            "status_reads": self.status_reads,
            "early_reads": self.early_reads,
        }


class I2cPn532:
    """PN532 I2C framing (as hardware.nfc.buses.EmulatedI2C): reads start with the status."""

    def __init__(self, chip: EmulatedPN532, traffic: Pn532Traffic) -> None:
        self.chip = chip
        self.traffic = traffic

    @property
    def present(self) -> bool:
        return self.chip.plugged

    def i2c_write(self, payload: bytes) -> None:
        _bus_fault(self.chip)
        if payload:
            self.traffic.host_write(payload)

    def i2c_read(self, count: int) -> bytes:
        _bus_fault(self.chip)
        ready = self.chip.ready
        out = bytearray([0x01 if ready else 0x00])
        if count == 1:
            self.traffic.status_reads += 1
        elif ready:
            out += self.traffic.take_frame() or b""
        else:
            self.traffic.early_reads += 1
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
        for device in found:
            if not getattr(device, "present", True) and hasattr(device, "refused"):
                device.refused += 1
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

    def __init__(self, role: str, chip: EmulatedPN532, traffic: Pn532Traffic) -> None:
        self.role = role
        self.chip = chip
        self.traffic = traffic

    def transfer(self, out: bytes, lines: dict) -> bytes | None:
        _bus_fault(self.chip)
        if not self.chip.plugged:
            return None  # nobody drives MISO: the host reads zeros
        command = _REVERSED[out[0]] if out else None
        if command == SPI_STATUS_READ:
            self.traffic.status_reads += 1
            status = 0x01 if self.chip.ready else 0x00
            return bytes([0]) + bytes([_REVERSED[status]]) * (len(out) - 1)
        if command == SPI_DATA_WRITE:
            self.traffic.host_write(bytes(out[1:]).translate(_REVERSED))
            return bytes(len(out))
        if command == SPI_DATA_READ:
            frame = (self.traffic.take_frame() or b"").translate(_REVERSED)
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
