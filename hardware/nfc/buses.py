"""Emulated I2C, SPI and UART buses that the real adafruit PN532 driver accepts, plus GPIO pins.

They follow Blinka's `busio` and `digitalio` interfaces closely enough for adafruit_bus_device
and adafruit_pn532: locking, `writeto`/`readfrom_into` on I2C, `configure`/`write`/
`write_readinto` on SPI with a DigitalInOut chip-select per chip, `write`/`read`/`in_waiting`
on UART. Each bus models its wire time and adds it to the chip's counters and its own:

- I2C: start + (address byte + data bytes) x 9 bits + stop, at `frequency` Hz; the PN532's
  first byte of every read is its status byte (0x01 ready). A TCA9548A at 0x70 opens channels.
- SPI: 8 bits a byte at the clock the driver configures; bytes travel LSB first, so the chip
  reverses them; prefix bytes 0x02 status read, 0x01 data write, 0x03 data read.
- UART: 10 bits a byte at `baudrate`; the chip ignores the 0x55 wake-up preamble.

Built with `clock=` (a `ModelledClock` shared with the host's driver), a bus lets each transfer's
wire time pass on that clock and hands the clock to the chips attached to it, which are then
busy until their modelled time has passed. On I2C the PN532 also stretches the clock after
every byte (`ChipTiming.i2c_stretch_s`).

An absent or unplugged I2C device raises OSError(EREMOTEIO) like Linux does; `io_error`
raises OSError(EIO) on any bus.
"""

from __future__ import annotations

import errno
import threading

from digitalio import Direction

from hardware.nfc.emulator import EmulatedPN532, ModelledClock

SPI_STATUS_READ = 0x02
SPI_DATA_WRITE = 0x01
SPI_DATA_READ = 0x03
TCA9548A_ADDRESS = 0x70


def reverse_bits(byte: int) -> int:
    """The byte with its bit order reversed (SPI PN532 frames travel LSB first)."""
    return int(f"{byte:08b}"[::-1], 2)


_REVERSED = bytes(reverse_bits(b) for b in range(256))


def _bus_error(chip: EmulatedPN532) -> OSError | None:
    """The error a transfer to `chip` ends in under the `io_error` fault. An unplugged chip is
    each bus's own: no acknowledgement on I2C (EREMOTEIO), silence on SPI and UART."""
    if chip.fault == "io_error":
        return OSError(errno.EIO, f"I/O error talking to {chip.name}")
    return None


def _share_clock(clock: ModelledClock | None, chip: EmulatedPN532) -> None:
    """Give `chip` the bus's clock; a chip cannot live on two clocks."""
    if clock is None:
        return
    if chip.clock is not None and chip.clock is not clock:
        raise ValueError(f"{chip.name} already runs on another bus's clock")
    chip.clock = clock


class EmulatedPin:
    """A DigitalInOut-like GPIO line (chip-select, reset, request) that records its changes."""

    def __init__(self, name: str = "pin", value: bool = True) -> None:
        self.name = name
        self._value = value
        self.direction = Direction.INPUT
        self.pull = None
        self.history: list[bool] = []

    @property
    def value(self) -> bool:
        return self._value

    @value.setter
    def value(self, value: bool) -> None:
        self._value = bool(value)
        if len(self.history) < 10_000:
            self.history.append(self._value)

    def switch_to_output(self, value: bool = False, drive_mode=None) -> None:
        self.direction = Direction.OUTPUT
        self.value = value

    def switch_to_input(self, pull=None) -> None:
        self.direction = Direction.INPUT
        self.pull = pull

    def deinit(self) -> None:
        """Nothing to release."""


class _Lockable:
    """busio's lock protocol: try_lock/unlock, and a context manager that deinits."""

    def __init__(self, clock: ModelledClock | None = None) -> None:
        self._lock = threading.Lock()
        self.clock = clock
        self.transactions = 0
        self.bytes_total = 0
        self.modelled_time_s = 0.0

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        if self._lock.locked():
            self._lock.release()

    def deinit(self) -> None:
        """Nothing to release."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.deinit()

    def reset_counters(self) -> None:
        """Zero this bus's traffic counters."""
        self.transactions = 0
        self.bytes_total = 0
        self.modelled_time_s = 0.0

    def _count(self, nbytes: int, seconds: float) -> None:
        self.transactions += 1
        self.bytes_total += nbytes
        self.modelled_time_s += seconds
        if self.clock is not None:
            self.clock.sleep(seconds)  # the host is busy on the wire meanwhile


class EmulatedTCA9548A:
    """A TCA9548A I2C multiplexer: writing a byte opens the channels whose bits are set."""

    def __init__(self, i2c: EmulatedI2C, address: int = TCA9548A_ADDRESS) -> None:
        self.address = address
        self.mask = 0
        self.channels: list[dict[int, EmulatedPN532]] = [{} for _ in range(8)]
        self._i2c = i2c
        i2c._attach_mux(self)

    def attach(self, channel: int, chip: EmulatedPN532, address: int = 0x24) -> EmulatedPN532:
        """Wire `chip` at `address` on downstream `channel` (0..7)."""
        if not 0 <= channel < 8:
            raise ValueError(f"a TCA9548A has channels 0..7, not {channel}")
        if address in self.channels[channel]:
            raise ValueError(f"channel {channel} already has a device at 0x{address:02x}")
        _share_clock(self._i2c.clock, chip)
        self.channels[channel][address] = chip
        return chip

    def open_chips(self, address: int) -> list[EmulatedPN532]:
        """Chips at `address` on the channels open now."""
        return [
            self.channels[ch][address]
            for ch in range(8)
            if self.mask >> ch & 1 and address in self.channels[ch]
        ]


class EmulatedI2C(_Lockable):
    """An I2C bus with PN532s at their addresses and optional TCA9548A multiplexers."""

    def __init__(self, frequency: int = 400_000, *, clock: ModelledClock | None = None) -> None:
        super().__init__(clock)
        self.frequency = frequency
        self._chips: dict[int, EmulatedPN532] = {}
        self._muxes: dict[int, EmulatedTCA9548A] = {}

    def attach(self, chip: EmulatedPN532, address: int = 0x24) -> EmulatedPN532:
        """Wire `chip` directly on this bus at `address`."""
        if address in self._chips or address in self._muxes:
            raise ValueError(f"the bus already has a device at 0x{address:02x}")
        _share_clock(self.clock, chip)
        self._chips[address] = chip
        return chip

    def _attach_mux(self, mux: EmulatedTCA9548A) -> None:
        if mux.address in self._chips or mux.address in self._muxes:
            raise ValueError(f"the bus already has a device at 0x{mux.address:02x}")
        self._muxes[mux.address] = mux

    def _wire_time(self, nbytes: int, target: object = None) -> float:
        seconds = (2 + 9 * (1 + nbytes)) / self.frequency
        if isinstance(target, EmulatedPN532):  # the PN532 stretches SCL after every byte
            seconds += (1 + nbytes) * target.timing.i2c_stretch_s
        return seconds

    def _target(self, address: int) -> EmulatedPN532 | EmulatedTCA9548A:
        if address in self._muxes:
            return self._muxes[address]
        found = [self._chips[address]] if address in self._chips else []
        for mux in self._muxes.values():
            found += mux.open_chips(address)
        found = [chip for chip in found if chip.plugged]
        if not found:  # the address byte went out; nobody acknowledged it
            self._count(1, self._wire_time(0))
            raise OSError(errno.EREMOTEIO, f"no device answers at 0x{address:02x}")
        if len(found) > 1:
            raise OSError(errno.EIO, f"two devices answer at 0x{address:02x} at once")
        return found[0]

    def scan(self) -> list[int]:
        """Addresses that answer now."""
        out = []
        for address in range(0x08, 0x78):
            try:
                self._target(address)
            except OSError:
                continue
            out.append(address)
        return out

    def writeto(self, address: int, buffer, *, start: int = 0, end: int | None = None) -> None:
        data = bytes(buffer[start:end])
        target = self._target(address)
        seconds = self._wire_time(len(data), target)
        self._count(1 + len(data), seconds)
        if isinstance(target, EmulatedTCA9548A):
            if data:
                target.mask = data[-1]
            return
        error = _bus_error(target)
        if error:
            raise error
        target.count(1 + len(data), 0, seconds)
        if data:
            target.host_write(data)

    def readfrom_into(self, address: int, buffer, *, start: int = 0, end: int | None = None):
        end = len(buffer) if end is None else end
        count = end - start
        target = self._target(address)
        seconds = self._wire_time(count, target)
        # Every PN532 I2C read starts with the status byte (sampled as the read begins); a
        # longer read takes the frame.
        ready = isinstance(target, EmulatedPN532) and target.ready
        self._count(1 + count, seconds)
        if isinstance(target, EmulatedTCA9548A):
            buffer[start:end] = bytes([target.mask]) * count
            return
        error = _bus_error(target)
        if error:
            raise error
        target.count(1, count, seconds)
        out = bytearray([0x01 if ready else 0x00])
        if count > 1 and ready:
            out += target.take_frame() or b""
        out = out[:count].ljust(count, b"\x00")
        buffer[start:end] = out

    def writeto_then_readfrom(
        self,
        address: int,
        buffer_out,
        buffer_in,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        self.writeto(address, buffer_out, start=out_start, end=out_end)
        self.readfrom_into(address, buffer_in, start=in_start, end=in_end)


class EmulatedSPI(_Lockable):
    """An SPI bus; each PN532 listens while its chip-select pin is low."""

    def __init__(self, baudrate: int = 1_000_000, *, clock: ModelledClock | None = None) -> None:
        super().__init__(clock)
        self.baudrate = baudrate
        self.polarity = 0
        self.phase = 0
        self.bits = 8
        self._chips: list[tuple[EmulatedPN532, EmulatedPin]] = []

    def attach(self, chip: EmulatedPN532, cs: EmulatedPin) -> EmulatedPN532:
        """Wire `chip` with its own chip-select line `cs`."""
        if any(pin is cs for _, pin in self._chips):
            raise ValueError(f"chip-select {cs.name} already serves another chip")
        _share_clock(self.clock, chip)
        self._chips.append((chip, cs))
        return chip

    def configure(self, *, baudrate: int = 100_000, polarity: int = 0, phase: int = 0, bits=8):
        self.baudrate, self.polarity, self.phase, self.bits = baudrate, polarity, phase, bits

    @property
    def frequency(self) -> int:
        return self.baudrate

    def _selected(self) -> list[EmulatedPN532]:
        return [chip for chip, cs in self._chips if not cs.value]

    def _transfer(self, out: bytes) -> bytes:
        seconds = 8 * len(out) / self.baudrate
        selected = self._selected()
        ready = len(selected) == 1 and selected[0].ready  # as the transfer begins
        self._count(len(out), seconds)
        if len(selected) != 1:
            # Nobody (or two chips at once) drives MISO: the host reads noise.
            return (b"\x00" if not selected else b"\xff") * len(out)
        chip = selected[0]
        error = _bus_error(chip)
        if error:
            raise error
        if not chip.plugged:
            return b"\x00" * len(out)
        chip.count(len(out), len(out), seconds)
        command = _REVERSED[out[0]] if out else None
        if command == SPI_STATUS_READ:
            status = 0x01 if ready else 0x00
            return bytes([0]) + bytes([_REVERSED[status]]) * (len(out) - 1)
        if command == SPI_DATA_WRITE:
            chip.host_write(bytes(out[1:]).translate(_REVERSED))
            return b"\x00" * len(out)
        if command == SPI_DATA_READ:
            frame = ((chip.take_frame() if ready else None) or b"").translate(_REVERSED)
            return (b"\x00" + frame)[: len(out)].ljust(len(out), b"\x00")
        return b"\x00" * len(out)  # a wake-up byte

    def write(self, buffer, *, start: int = 0, end: int | None = None) -> None:
        self._transfer(bytes(buffer[start:end]))

    def readinto(self, buffer, *, start: int = 0, end: int | None = None, write_value: int = 0):
        end = len(buffer) if end is None else end
        buffer[start:end] = self._transfer(bytes([write_value]) * (end - start))

    def write_readinto(
        self,
        buffer_out,
        buffer_in,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        out_end = len(buffer_out) if out_end is None else out_end
        in_end = len(buffer_in) if in_end is None else in_end
        if out_end - out_start != in_end - in_start:  # as Blinka's SPI refuses them
            raise RuntimeError("Buffer slices must be of equal length.")
        buffer_in[in_start:in_end] = self._transfer(bytes(buffer_out[out_start:out_end]))


class EmulatedUART:
    """A UART wired to one PN532 (HSU), 8N1 at `baudrate`."""

    def __init__(
        self,
        chip: EmulatedPN532,
        baudrate: int = 115_200,
        *,
        clock: ModelledClock | None = None,
    ) -> None:
        _share_clock(clock, chip)
        self.chip = chip
        self.clock = clock
        self.baudrate = baudrate
        self.transactions = 0
        self.bytes_total = 0
        self.modelled_time_s = 0.0

    def _count(self, nbytes: int) -> float:
        seconds = 10 * nbytes / self.baudrate
        self.transactions += 1
        self.bytes_total += nbytes
        self.modelled_time_s += seconds
        if self.clock is not None:
            self.clock.sleep(seconds)
        return seconds

    def reset_counters(self) -> None:
        """Zero this bus's traffic counters."""
        self.transactions = 0
        self.bytes_total = 0
        self.modelled_time_s = 0.0

    def write(self, buffer) -> int:
        data = bytes(buffer)
        error = _bus_error(self.chip)
        if error:
            raise error
        seconds = self._count(len(data))
        if self.chip.plugged:
            self.chip.count(len(data), 0, seconds)
            self.chip.host_write(data)
        return len(data)

    def read(self, nbytes: int | None = None) -> bytes | None:
        if not self.chip.plugged:
            return None
        data = self.chip.read_stream(nbytes if nbytes is not None else 1 << 16)
        if not data:
            return None
        self.chip.count(0, len(data), self._count(len(data)))
        return data

    def readinto(self, buffer) -> int | None:
        data = self.read(len(buffer))
        if not data:
            return None
        buffer[: len(data)] = data
        return len(data)

    @property
    def in_waiting(self) -> int:
        return self.chip.waiting_bytes() if self.chip.plugged else 0

    def reset_input_buffer(self) -> None:
        self.chip.discard_waiting()

    def deinit(self) -> None:
        """Nothing to release."""
