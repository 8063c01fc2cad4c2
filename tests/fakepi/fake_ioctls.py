"""umockdev ioctl handlers of the fake Pi's device nodes: /dev/gpiochipN, /dev/spidev0.N,
/dev/i2c-N. Every request runs under LOCK (handlers run on umockdev's thread, the test's
commands on the main one) and answers EIO if the emulation raised: an unanswered request
would hang the client."""

from __future__ import annotations

import errno
import struct
import sys
import threading
import traceback

import gi

gi.require_version("UMockdev", "1.0")
from fake_buses import SPI_NO_CS, I2cAdapter, SpiBus  # noqa: E402
from fake_gpio import F_OUTPUT, F_USED, Gpio, Line, LineRequest  # noqa: E402
from gi.repository import UMockdev  # noqa: E402

LOCK = threading.RLock()


def log(text: str) -> None:
    print(f"testbed: {text}", file=sys.stderr, flush=True)


def _ioc_nr(request: int) -> tuple[int, int]:
    """(type, number) of an ioctl request, ignoring direction and size."""
    return (request >> 8) & 0xFF, request & 0xFF


def _ioc_size(request: int) -> int:
    return (request >> 16) & 0x3FFF


GPIO_TYPE, SPI_TYPE, I2C_TYPE = 0xB4, ord("k"), 0x07
FAKEPI_RELEASE = 0xF0  # the shim's "this line request is being closed" (0xB4, 0xF0)


I2C_M_RD = 0x0001
I2C_FUNCS_VALUE = 0x0EFF0009  # plain I2C, SMBus emulated, no 10-bit addresses
EREMOTEIO = getattr(errno, "EREMOTEIO", 121)


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
        if line.request is not None or line.kernel_user:
            flags |= F_USED
        consumer = line.request.consumer if line.request else line.kernel_user
        return struct.pack(
            "<32s32sIIQ160x16x", line.name.encode(), consumer.encode(), line.offset, 0, flags
        )

    @staticmethod
    def _line_info_v1(line: Line) -> bytes:
        flags = (1 if line.request or line.kernel_user else 0) | (2 if line.flags & F_OUTPUT else 0)
        consumer = line.request.consumer if line.request else line.kernel_user
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


class TtyHandler(UMockdev.IoctlBase):
    """A tty that umockdev backs with a pty: every ioctl runs on the real pty in the client
    (umockdev 0.17 passes on only the termios ones; pyserial also flushes and asks
    TIOCINQ), reads and writes are left to the pty itself."""

    def do_handle_ioctl(self, client) -> bool:
        try:
            result, error = client.execute()
        except Exception:
            log("tty ioctl failed:\n" + traceback.format_exc())
            client.complete(-1, errno.EIO)
            return True
        client.complete(result, error if result == -1 else 0)
        return True

    def do_handle_read(self, client) -> bool:
        return False

    def do_handle_write(self, client) -> bool:
        return False
