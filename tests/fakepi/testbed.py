"""A fake Raspberry Pi 4 or 5: umockdev device nodes whose behaviour is the project's emulators.

Runs under Debian's system python3 (only it has `gi` and UMockdev); the code under test runs
in another process with `LD_PRELOAD=<gpio shim> libumockdev-preload.so.0` and
`UMOCKDEV_DIR=<root>`. Started as

    /usr/bin/python3 tests/fakepi/testbed.py WIRING.json

it prints one JSON line `{"root": ...}` and then answers one JSON command per stdin line
(`place`, `remove`, `tag_memory`, `fail`, `recover`, `oled_present`, `drive`, `report`,
`reset_lines`, `quit`), one JSON line each.

What it fakes, per board (`pi4`, `pi5`):
- `/proc/device-tree/{model,compatible,system/linux,revision}` and `/proc/cpuinfo`, so
  gpiozero, rpi-lgpio and Blinka's platform detection find the board by themselves;
- GPIO chips (Pi 4: gpiochip0 `pinctrl-bcm2711`; Pi 5: gpiochip0 `pinctrl-rp1` with its
  /dev/gpiochip4 alias, as kernels since 6.6 have it, or (`pi5-6.1`) gpiochip4 `pinctrl-rp1`
  after the SoC's gpiochip0-3, as Bookworm's first kernel had it) with the GPIO v2 uAPI:
  chip and line info, line requests (through the shim, see gpio_shim.c), values, config and
  edge events; lines have the SoC's power-on pulls (GPIO0-8 up, the rest down);
- `/dev/spidev0.{0,1}` (and `/dev/spidev1.0` when the wiring uses SPI1), their CE lines held
  by the kernel (GPIO8/7; GPIO18), so requesting one from userspace gets EBUSY:
  SPI_IOC_MESSAGE, read(), write() and the mode/speed ioctls (per node, as the kernel keeps
  them; SPI_NO_CS leaves CE alone); a device listens while its GPIO chip-select is low or
  its CE is asserted (an OLED on CE0 hears every transfer through spidev0.0); an OLED takes
  DC into account; two PN532s selected at once make MISO read 0xFF (counted as contention);
- `/dev/ttyAMA0` (and `/dev/serial0`) for a UART reader: a pty (fake_uart.py);
- `/dev/i2c-1` (plus the board's other adapters and, with a kernel-driven TCA9548A, one
  adapter per channel, listed in `/sys/bus/i2c/devices/1-0070/channel-N`): I2C_SLAVE +
  read()/write(), I2C_RDWR, I2C_SMBUS, I2C_FUNCS; absent addresses fail with EREMOTEIO.
PN532s are `hardware.nfc.emulator.EmulatedPN532` (RSTPDN restarts it). Those on I2C and SPI
run on real time (`chip.clock = time`), so each is busy for its modelled time (`ChipTiming`:
ACK, field guard, activation) before a frame is ready, and its P70_IRQ output drives the
header line the wiring names: high while it is busy or has nothing to send, low while a
frame waits, with edge events; an `IrqTicker` thread makes the fall happen when the frame
becomes ready even if nobody looks; the host's first look after the line rose reads it
high (busy), as it does on a Pi, however late a loaded test machine lets it look. A UART
chip answers at once (HSU has no IRQ). OLED bytes are recorded for the test to decode with
`hardware.display.chip.OledChip`. The lines live in fake_gpio.py, the bus devices in
fake_buses.py, the ioctl handlers in fake_ioctls.py.
"""

from __future__ import annotations

import json
import os
import struct
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]  # fake_* modules, the project's hardware/

from fake_buses import (  # noqa: E402
    I2cAdapter,
    I2cPn532,
    OledRecorder,
    Pn532Traffic,
    SpiBus,
    SpiOled,
    SpiPn532,
    Tca9548a,
)
from fake_gpio import Gpio  # noqa: E402
from fake_ioctls import (  # noqa: E402
    LOCK,
    GpioChipHandler,
    Handler,
    I2cDevHandler,
    SpidevHandler,
    TtyHandler,
    UMockdev,
)
from fake_uart import UartPn532  # noqa: E402

from hardware.nfc.emulator import EmulatedPN532  # noqa: E402
from hardware.nfc.tags import Ntag  # noqa: E402

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
    # Raspberry Pi OS's kernels since 6.6: RP1 is gpiochip0, /dev/gpiochip4 a udev alias of it.
    "pi5": {
        "model": "Raspberry Pi 5 Model B Rev 1.0",
        "compatible": ["raspberrypi,5-model-b", "brcm,bcm2712"],
        "revision": 0xD04170,
        "hardware": None,
        "chips": [
            (0, "pinctrl-rp1", 54, "raspberrypi,rp1-gpio"),
            (10, "gpio-brcmstb@107d508500", 32, "brcm,brcmstb-gpio"),
            (11, "gpio-brcmstb@107d508520", 4, "brcm,brcmstb-gpio"),
            (12, "gpio-brcmstb@107d517c00", 17, "brcm,brcmstb-gpio"),
            (13, "gpio-brcmstb@107d517c20", 6, "brcm,brcmstb-gpio"),
        ],
        "aliases": {4: 0},
        "header_chip": 0,
        "i2c_adapters": {1: "Synopsys DesignWare I2C adapter", 11: "ddc", 12: "ddc"},
        "first_mux_bus": 13,
    },
}
# Bookworm's first Pi 5 kernel (6.1): RP1 is gpiochip4 itself, gpiochip0-3 the SoC's own.
BOARDS["pi5-6.1"] = dict(
    BOARDS["pi5"],
    chips=[
        (0, "gpio-brcmstb@107d508500", 32, "brcm,brcmstb-gpio"),
        (1, "gpio-brcmstb@107d508520", 4, "brcm,brcmstb-gpio"),
        (2, "gpio-brcmstb@107d517c00", 17, "brcm,brcmstb-gpio"),
        (3, "gpio-brcmstb@107d517c20", 6, "brcm,brcmstb-gpio"),
        (4, "pinctrl-rp1", 54, "raspberrypi,rp1-gpio"),
    ],
    aliases={},
    header_chip=4,
)


# The chip-enable lines of dtparam=spi=on (spi0-2cs) and dtoverlay=spi1-1cs.
SPI_CE_GPIOS = {0: (8, 7), 1: (18,)}


# -- the fake Pi ---------------------------------------------------------------------------


class IrqTicker(threading.Thread):
    """Lets each PN532's IRQ line fall when its frame becomes ready, looked at or not."""

    IDLE_S = 0.5

    def __init__(self, chips: list[EmulatedPN532]) -> None:
        super().__init__(daemon=True, name="irq-ticker")
        self.chips = chips
        self.wake = threading.Event()
        self.stopped = False

    def poke(self) -> None:
        """A host frame was written: a new frame may be pending."""
        self.wake.set()

    def run(self) -> None:
        while not self.stopped:
            self.wake.clear()
            with LOCK:
                for chip in self.chips:
                    chip.irq.drive()
                pending = [at for chip in self.chips if (at := chip.pending_at()) is not None]
            wait = min(pending) - time.monotonic() if pending else self.IDLE_S
            if wait > 0:
                self.wake.wait(wait)

    def stop(self) -> None:
        self.stopped = True
        self.wake.set()


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
        self.spi_buses: dict[int, SpiBus] = {}
        self.uarts: list[UartPn532] = []
        self.adapters: dict[int, I2cAdapter] = {}
        self.traffic: dict[str, Pn532Traffic] = {}
        self.irq_gpio: dict[str, int] = {}
        self.ticker = IrqTicker([])
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

    def _attach_tty(self, node: str) -> None:
        handler = TtyHandler()
        self.handlers.append(handler)
        self.testbed.attach_ioctl(node, handler)

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
        for alias, number in self.board.get("aliases", {}).items():
            os.symlink(f"gpiochip{number}", self.root / "dev" / f"gpiochip{alias}")
            os.symlink(f"254:{number}", self.root / "dev" / ".node" / f"gpiochip{alias}")
            self._attach(f"/dev/gpiochip{alias}", GpioChipHandler(self.gpio, number))

    def _wire(self) -> None:
        for reader in self.wiring["readers"]:
            chip = EmulatedPN532(name=reader["role"])
            self.chips[reader["role"]] = chip
            if reader["interface"] != "uart":
                chip.clock = time  # busy for its modelled time, in real time
                self.ticker.chips.append(chip)
                self.traffic[reader["role"]] = Pn532Traffic(chip, self.ticker.poke)
            # P70_IRQ, where the maker soldered it (`irq_wire`; the profile's `irq` by default)
            wire = reader.get("irq_wire", reader.get("irq"))
            if wire is not None:
                self.irq_gpio[reader["role"]] = wire
                self.gpio.follow(wire, chip.irq)
            if reader.get("reset") is not None:  # RSTPDN: the chip restarts when it goes high
                self.gpio.header_line(reader["reset"]).watcher = lambda level, c=chip: (
                    c.power_on() if level else None
                )
            if reader["interface"] == "uart":
                self._uart(chip, reader["port"])
        for display in self.wiring["displays"]:
            self.oleds[display["role"]] = OledRecorder(display["role"])

    def _uart(self, chip: EmulatedPN532, port: str) -> None:
        """The header's UART (GPIO14/15) as /dev/ttyAMA0, /dev/serial0 linking to it."""
        name = "ttyAMA0" if port in ("/dev/serial0", "/dev/ttyAMA0") else Path(port).name
        self.testbed.add_from_string(
            f"P: /devices/platform/soc/serial/tty/{name}\nN: {name}\n"
            f"E: SUBSYSTEM=tty\nE: DEVNAME=/dev/{name}\nA: dev=204:64\n"
        )
        self._attach_tty(f"/dev/{name}")
        if port == "/dev/serial0":
            os.symlink(name, self.root / "dev" / "serial0")
            self._attach_tty("/dev/serial0")
        fd = self.testbed.get_dev_fd(f"/dev/{name}")
        self.uarts.append(UartPn532(chip, fd, LOCK))

    def _spidev(self) -> None:
        """SPI0 (spidev0.0-0.1) always; SPI1 (spidev1.0, the spi1-1cs overlay) when used."""
        for reader in self.wiring["readers"]:
            if reader["interface"] == "spi":
                role = reader["role"]
                device = SpiPn532(role, self.chips[role], self.traffic[role])
                self._spi_bus(reader.get("bus", 0)).attach(device, reader.get("cs"), None)
        for display in self.wiring["displays"]:
            if display["interface"] == "spi":
                device = SpiOled(self.oleds[display["role"]], display["dc"], self.gpio)
                ce = None if display.get("cs") is not None else display.get("device", 0)
                self._spi_bus(display.get("bus", 0)).attach(device, display.get("cs"), ce)
        self._spi_bus(0)
        for number, bus in sorted(self.spi_buses.items()):
            for ce, gpio in enumerate(SPI_CE_GPIOS[number]):
                # The SPI driver holds its chip-enable lines (cs-gpios), as `gpioinfo` shows.
                self.gpio.claim_for_kernel(gpio, f"spi{number} CS{ce}")
                name = f"spidev{number}.{ce}"
                self._add_node("spidev", name, f"153:{number * 8 + ce}")
                self._attach(f"/dev/{name}", SpidevHandler(bus, ce))

    def _spi_bus(self, number: int) -> SpiBus:
        if number not in self.spi_buses:
            self.spi_buses[number] = SpiBus(self.gpio)
        return self.spi_buses[number]

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
                device = I2cPn532(self.chips[reader["role"]], self.traffic[reader["role"]])
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
            if op == "oled_present":  # an I2C OLED pulled off its bus (False) or put back
                self.oleds[message["role"]].present = message["present"]
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
            "spi_log": {str(n): bus.log for n, bus in self.spi_buses.items()},
            "spi_transfers": sum(bus.transfers for bus in self.spi_buses.values()),
            "spi_contention": sum(bus.contention for bus in self.spi_buses.values()),
            "oled_refused": {role: rec.refused for role, rec in self.oleds.items()},
            "oleds": {
                role: [[k, p.hex()] for k, p in rec.stream] for role, rec in self.oleds.items()
            },
            "readers": {
                role: {"commands": [[c, p.hex()] for c, p in chip.commands], "rf": chip.rf_field}
                for role, chip in self.chips.items()
            },
            "i2c_transfers": {str(n): a.transfers for n, a in self.adapters.items()},
            "pn532": {role: traffic.report() for role, traffic in self.traffic.items()},
            "irq": {role: self._irq_report(role, gpio) for role, gpio in self.irq_gpio.items()},
        }

    def _irq_report(self, role: str, gpio: int) -> dict:
        """A reader's IRQ wire: its falls and rises on the header line, the host's looks."""
        line = self.gpio.header_line(gpio)
        levels = [level for _, level in line.changes]
        return {
            "gpio": gpio,
            "falls": levels.count(0),
            "rises": levels.count(1),
            "looks_low": line.looks[0],
            "looks_high": line.looks[1],
            "level": line.level(),
        }


def main() -> int:
    wiring = json.loads(Path(sys.argv[1]).read_text())
    fake = FakePi(wiring)
    fake.ticker.start()
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
    fake.ticker.stop()
    fake.gpio.release_all()
    for uart in fake.uarts:
        uart.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
