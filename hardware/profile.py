"""Table profiles: one TOML file describes a table's readers, displays, buttons and options.

`load_profile("full-table")` (a shipped profile) or `load_profile("my-table.toml")` returns a
checked `Profile`; anything wrong raises `ProfileError`, whose message names the file, the
line and the problem for every mistake found (duplicate pin, unknown role, two devices on
one address, bad values). The format is described in docs/hardware.md.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.buses import KINDS
from hardware.display.spec import SPI_CLOCKS_HZ, DisplaySpec
from hardware.profile_web import WEB_KEYS, WebSpec, check_web

PROFILES = Path(__file__).resolve().parent / "profiles"

PAD_ROLES = (*(f"stake-{n}" for n in range(5)), *(f"seat-{n}" for n in range(4)), "main")
DISPLAY_ROLES = (*PAD_ROLES, "status")
BUTTON_ROLES = ("undo", "select", "ok", "pass", "back", "menu")
SEATS = range(1, 5)  # Res Arcana's seats 1..4: `seat = N` on a pad's [[readers]] entry
MIN_SEATS = 2
GPIO_PINS = range(2, 28)  # GPIO0/1 are the HAT EEPROM's ID lines
# Pins a bus takes over when it is in use.
I2C_PINS = {1: {2: "I2C1 SDA", 3: "I2C1 SCL"}}
SPI_PINS = {
    0: {9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"},
    1: {19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK"},
}
SPI_CE_PINS = {0: (8, 7), 1: (18, 17)}
UART_PINS = {14: "UART TXD", 15: "UART RXD"}

SECTIONS = {"table", "mux", "readers", "displays", "buttons", "buzzer", "encoder", "web"}
KEYS = {
    "table": {"name", "absence_s", "one_field_at_a_time", "hold_s", "description", "buses"},
    "mux": {"bus", "address", "kernel", "kernel_buses"},
    "readers": {
        "role",
        "interface",
        "bus",
        "address",
        "mux_channel",
        "cs",
        "irq",
        "reset",
        "req",
        "port",
        "baudrate",
        "clock_hz",
        "seat",
    },
    "displays": {
        "role",
        "chip",
        "width",
        "height",
        "interface",
        "bus",
        "address",
        "mux_channel",
        "device",
        "dc",
        "reset",
        "cs",
        "clock_hz",
        "rotate",
    },
    "buttons": {"role", "pin", "pull_up", "hold_s"},
    "buzzer": {"pin", "active_high"},
    "encoder": {"a", "b"},
    "web": WEB_KEYS,  # hardware/profile_web.py
}


class ProfileError(ValueError):
    """A profile that cannot be used; `problems` lists `(line, sentence)` pairs."""

    def __init__(self, source: str, problems: list[tuple[int | None, str]]) -> None:
        self.source = source
        self.problems = sorted(problems, key=lambda p: (p[0] or 0, p[1]))
        lines = [
            f"{source} line {line}: {text}" if line else f"{source}: {text}"
            for line, text in self.problems
        ]
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class MuxSpec:
    """A TCA9548A. With `kernel` the kernel's i2c-mux driver owns it and each channel is its
    own `/dev/i2c-N`: N is read from sysfs when the table starts, or given per channel in
    `kernel_buses` (which implies `kernel`); without, our code switches channels over `bus`."""

    bus: int = 1
    address: int = 0x70
    kernel_buses: tuple[int, ...] = ()
    kernel: bool = False


@dataclass(frozen=True)
class ReaderSpec:
    """One PN532. SPI: `bus` is the port, `cs` its GPIO chip-select. I2C: `bus` as wired
    (see `MuxSpec`), `address`, `mux_channel`, `req` the GPIO to its P32 (H_REQ) wake-up
    line. UART: `port`, `baudrate`."""

    role: str
    interface: str = "spi"
    bus: int = 0
    address: int = 0x24
    mux_channel: int | None = None
    cs: int | None = None
    irq: int | None = None
    reset: int | None = None
    req: int | None = None
    port: str = "/dev/serial0"
    baudrate: int = 115_200
    clock_hz: int = 1_000_000
    line: int | None = None
    seat: int | None = None

    @property
    def where(self) -> str:
        if self.interface == "spi":
            return f"spi{self.bus} cs GPIO{self.cs}"
        if self.interface == "uart":
            return f"uart {self.port}"
        channel = f" channel {self.mux_channel}" if self.mux_channel is not None else ""
        return f"i2c-{self.bus}{channel} 0x{self.address:02X}"

    @property
    def name(self) -> str:
        return f"reader {self.role} ({self.where})"


@dataclass(frozen=True)
class ButtonSpec:
    role: str
    pin: int
    pull_up: bool = True
    hold_s: float = 1.0
    line: int | None = None


@dataclass(frozen=True)
class BuzzerSpec:
    pin: int
    active_high: bool = True
    line: int | None = None


@dataclass(frozen=True)
class EncoderSpec:
    a: int
    b: int
    line: int | None = None


@dataclass(frozen=True)
class Profile:
    """A checked table profile. `displays` hold the kernel bus each display is on (or the
    multiplexer channel whose bus is looked up at start). `buses` is the bus factory the
    profile asks for ("real", "emulated"; None: real unless $ARCANA_TABLE_BUSES says).
    `seats` are the reader roles of Res Arcana's seats 1, 2, ... (empty when the profile
    gives none: the games then seat players in pad order)."""

    name: str
    source: str
    buses: str | None = None
    absence_s: float = 0.3
    one_field_at_a_time: bool = True
    description: str = ""
    readers: tuple[ReaderSpec, ...] = ()
    displays: tuple[DisplaySpec, ...] = ()
    buttons: tuple[ButtonSpec, ...] = ()
    buzzer: BuzzerSpec | None = None
    encoder: EncoderSpec | None = None
    mux: MuxSpec | None = None
    seats: tuple[str, ...] = ()
    web: WebSpec = field(default_factory=WebSpec)  # [web]: hardware/profile_web.py
    display_lines: dict[str, int] = field(default_factory=dict, compare=False)

    def missing(self) -> list[str]:
        """What a table cannot play without and this profile lacks, one sentence each."""
        lacks = []
        if not self.readers:
            lacks.append(f"{self.source} has no [[readers]]: a table needs at least one pad")
        if not self.displays:
            lacks.append(f"{self.source} has no [[displays]]: a table needs at least one screen")
        return lacks


def profile_names() -> list[str]:
    """The profiles shipped with the package."""
    return sorted(path.stem for path in PROFILES.glob("*.toml"))


def load_profile(name_or_path: str | Path) -> Profile:
    """Load a shipped profile by name (`"full-table"`, `"minimal"`) or a TOML file by path."""
    path = Path(name_or_path)
    if path.suffix != ".toml" and path.parent == Path(".") and not path.exists():
        path = PROFILES / f"{name_or_path}.toml"
        if not path.exists():
            known = ", ".join(profile_names())
            raise ProfileError(str(name_or_path), [(None, f"no such profile; shipped: {known}")])
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ProfileError(str(path), [(None, f"cannot read it: {err}")]) from err
    return parse_profile(text, source=path.name, name=path.stem)


def parse_profile(text: str, *, source: str = "profile", name: str = "profile") -> Profile:
    """Check a profile's TOML text; raise `ProfileError` listing every problem found."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        found = re.search(r"at line (\d+)", str(err))
        raise ProfileError(
            source, [(int(found[1]) if found else None, f"not TOML: {err}")]
        ) from None
    except RecursionError:
        raise ProfileError(source, [(None, "not TOML: nested too deeply")]) from None
    except ValueError:  # tomllib's only other refusal: an integer of over 4,300 digits
        raise ProfileError(source, [(None, "not TOML: a number far too long")]) from None
    deep = _too_deep(data)
    if deep is not None:
        raise ProfileError(source, [(None, f"{deep}: nested deeper than {MAX_DEPTH} levels")])
    checker = _Checker(data, _Lines(text))
    profile = checker.profile(name, source)
    if checker.problems:
        raise ProfileError(source, checker.problems)
    return profile


class _Lines:
    """Where things are in the TOML text: tomllib gives no positions, so we find headers
    (`[table]`, the n-th `[[readers]]`) and `key =` lines inside them."""

    HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?")

    def __init__(self, text: str) -> None:
        self.blocks: dict[tuple[str, int], tuple[int, dict[str, int]]] = {}
        counts: dict[str, int] = {}
        keys: dict[str, int] = {}
        self.blocks[("", 0)] = (1, keys)
        for number, line in enumerate(text.split("\n"), start=1):  # TOML's only line end
            header = self.HEADER.match(line)
            if header:
                section = header[1]
                index = counts.get(section, 0)
                counts[section] = index + 1
                keys = {}
                self.blocks[(section, index)] = (number, keys)
                continue
            key = re.match(r"^\s*([A-Za-z0-9_-]+)\s*=", line)
            if key and key[1] not in keys:
                keys[key[1]] = number

    def of(self, section: str, index: int = 0, key: str | None = None) -> int | None:
        block = self.blocks.get((section, index))
        if block is None:
            top = self.blocks[("", 0)][1]
            return top.get(section)
        return block[1].get(key, block[0]) if key else block[0]


class _Checker:
    def __init__(self, data: dict[str, Any], lines: _Lines) -> None:
        self.data = data
        self.lines = lines
        self.problems: list[tuple[int | None, str]] = []
        # pin -> (what uses it, line), and I2C address users
        self.pins: dict[int, tuple[str, int | None]] = {}
        self.addresses: dict[tuple[int, int | None, int], tuple[str, int | None]] = {}
        self.uarts: dict[str, str] = {}
        self.seat_lines: dict[int | None, int | None] = {}  # reader header line -> seat line
        self.bad_seat = False

    def problem(self, line: int | None, text: str) -> None:
        self.problems.append((line, text))

    # -- values ---------------------------------------------------------------------------

    def entries(self, section: str, *, many: bool) -> list[tuple[int, dict[str, Any]]]:
        value = self.data.get(section)
        if value is None:
            return []
        if many:
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                self.problem(
                    self.lines.of(section), f"write each of the {section} as [[{section}]]"
                )
                return []
            found = list(enumerate(value))
        elif not isinstance(value, dict):
            self.problem(self.lines.of(section), f"write {section} as a [{section}] table")
            return []
        else:
            found = [(0, value)]
        for index, entry in found:
            for key in sorted(set(entry) - KEYS[section]):
                if section == "displays" and key == "seat":
                    self.problem(
                        self.lines.of(section, index, key),
                        "seat goes on the pad's [[readers]] entry: the display of the same "
                        "role shows it",
                    )
                    continue
                self.problem(
                    self.lines.of(section, index, key),
                    f"unknown setting {key!r} in [{section}]; {_expected(key, KEYS[section])}",
                )
        return found

    def value(
        self,
        section,
        index,
        entry,
        key,
        kind,
        default=None,
        *,
        required=False,
        choices=None,
        low=None,
        high=None,
    ):
        line = self.lines.of(section, index, key)
        if key not in entry:
            if required:
                self.problem(self.lines.of(section, index), f"[{section}] needs {key!r}")
            return default
        value = written = entry[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            # an integer past float's range is as unusable as inf
            value, ok = (float(value) if abs(value) < 2**1000 else math.inf), True
        if ok and kind is float and not math.isfinite(value):
            # nan would pass every range check below
            self.problem(line, f"{key} must be a finite number, not {_shown(written)}")
            return default
        if not ok:
            self.problem(line, f"{key} must be {_KIND_WORDS[kind]}, not {_shown(value)}")
            return default
        if choices is not None and value not in choices:
            shown = ", ".join(map(str, choices))
            self.problem(line, f"{key} {_shown(value)} is not one of {shown}")
            return default
        if (low is not None and value < low) or (high is not None and value > high):
            self.problem(line, f"{key} {_shown(value)} is outside {low}..{high}")
            return default
        return value

    def pin(self, section, index, entry, key, user, *, required=False, shared_as=None):
        pin = self.value(section, index, entry, key, int, required=required)
        if pin is None:
            return None
        line = self.lines.of(section, index, key)
        if pin not in GPIO_PINS:
            self.problem(line, f"{key} GPIO{pin} is not a usable GPIO (2..27)")
            return None
        label = f"{user} {key}"
        if pin in self.pins:
            other, other_line = self.pins[pin]
            if not (shared_as and other.endswith(shared_as)):
                where = f" at line {other_line}" if other_line else ""
                self.problem(line, f"duplicate pin GPIO{pin}: {label} and {other}{where}")
        else:
            self.pins[pin] = (label, line)
        return pin

    def address(self, bus: int, channel: int | None, address: int, user: str, line) -> None:
        mux = self.mux
        for (other_bus, other_channel, other_address), (
            other,
            other_line,
        ) in self.addresses.items():
            same_segment = other_bus == bus and (
                other_channel == channel or other_channel is None or channel is None
            )
            if same_segment and other_address == address:
                where = f" at line {other_line}" if other_line else ""
                self.problem(
                    line,
                    f"two devices on one address: {user} and {other}{where} "
                    f"are both at 0x{address:02X} on i2c-{bus}",
                )
                return
        if mux is not None and bus == mux.bus and address == mux.address:
            self.problem(line, f"{user} is at 0x{address:02X}, the multiplexer's own address")
        self.addresses[(bus, channel, address)] = (user, line)

    # -- the profile ----------------------------------------------------------------------

    def profile(self, name: str, source: str) -> Profile:
        for section in sorted(set(self.data) - SECTIONS):
            self.problem(
                self.lines.of(section),
                f"unknown section {section!r}; {_expected(section, SECTIONS)}",
            )
        table = dict(self.entries("table", many=False) or [(0, {})])[0]
        options = dict(
            name=self.value("table", 0, table, "name", str, name),
            description=self.value("table", 0, table, "description", str, ""),
            absence_s=self.value("table", 0, table, "absence_s", float, 0.3, low=0.0, high=10.0),
            one_field_at_a_time=self.value("table", 0, table, "one_field_at_a_time", bool, True),
            buses=self.value("table", 0, table, "buses", str, None, choices=KINDS),
        )
        self.hold_s = self.value("table", 0, table, "hold_s", float, 1.0, low=0.05, high=10.0)
        self.mux = self.check_mux()
        readers = [r for i, e in self.entries("readers", many=True) if (r := self.reader(i, e))]
        displays = [d for i, e in self.entries("displays", many=True) if (d := self.display(i, e))]
        buttons = [b for i, e in self.entries("buttons", many=True) if (b := self.button(i, e))]
        self.unique_roles("readers", [(r.role, r.line) for r in readers])
        self.unique_roles("displays", [(d.role, line) for d, line in displays])
        self.unique_roles("buttons", [(b.role, b.line) for b in buttons])
        buzzer = encoder = None
        for index, entry in self.entries("buzzer", many=False):
            pin = self.pin("buzzer", index, entry, "pin", "buzzer", required=True)
            high = self.value("buzzer", index, entry, "active_high", bool, True)
            buzzer = BuzzerSpec(pin, high, self.lines.of("buzzer")) if pin is not None else None
        for index, entry in self.entries("encoder", many=False):
            a = self.pin("encoder", index, entry, "a", "encoder", required=True)
            b = self.pin("encoder", index, entry, "b", "encoder", required=True)
            encoder = EncoderSpec(a, b, self.lines.of("encoder")) if None not in (a, b) else None
        self.bus_pins(readers, [d for d, _ in displays], {d.role: line for d, line in displays})
        seats = self.seats(readers, {d.role for d, _ in displays})
        return Profile(
            source=source,
            readers=tuple(readers),
            displays=tuple(d for d, _ in displays),
            buttons=tuple(buttons),
            buzzer=buzzer,
            encoder=encoder,
            mux=self.mux,
            seats=seats,
            web=check_web(self),
            display_lines={d.role: line for d, line in displays},
            **options,
        )

    def check_mux(self) -> MuxSpec | None:
        found = self.entries("mux", many=False)
        if not found:
            return None
        index, entry = found[0]
        bus = self.value("mux", index, entry, "bus", int, 1, low=0, high=255)
        address = self.value("mux", index, entry, "address", int, 0x70, low=0x70, high=0x77)
        kernel = self.value("mux", index, entry, "kernel_buses", list, [])
        driver = self.value("mux", index, entry, "kernel", bool, False)
        line = self.lines.of("mux", index, "kernel_buses")
        if kernel and (
            len(kernel) != 8
            or not all(isinstance(n, int) and n >= 0 for n in kernel)
            or len(set(kernel)) != 8
            or bus in kernel
        ):
            self.problem(
                line,
                "kernel_buses must list 8 different bus numbers, one per channel, "
                "other than the multiplexer's own bus",
            )
            kernel = []
        return MuxSpec(bus, address, tuple(kernel), kernel=driver or bool(kernel))

    def i2c_place(self, section, index, entry, user) -> tuple[int, int | None, int | None] | None:
        """(bus as wired, mux channel, kernel bus) of an I2C device; None if misplaced."""
        bus = self.value(section, index, entry, "bus", int, 1, low=0, high=255)
        channel = self.value(section, index, entry, "mux_channel", int, None, low=0, high=7)
        if channel is None:
            return bus, None, bus
        line = self.lines.of(section, index, "mux_channel")
        if self.mux is None or self.mux.bus != bus:
            self.problem(
                line, f"{user} is on multiplexer channel {channel}, but no [mux] is on i2c-{bus}"
            )
            return None
        kernel = self.mux.kernel_buses[channel] if self.mux.kernel_buses else None
        return bus, channel, kernel

    def req_pin(self, index: int, entry: dict[str, Any], user: str, interface: str):
        if "req" in entry and interface != "i2c":
            self.problem(
                self.lines.of("readers", index, "req"),
                f"{user} is on {interface}; req (the PN532's H_REQ wake-up line) is for I2C",
            )
            return None
        return self.pin("readers", index, entry, "req", user)

    def reader(self, index: int, entry: dict[str, Any]) -> ReaderSpec | None:
        role = self.value("readers", index, entry, "role", str, required=True, choices=PAD_ROLES)
        user = f"reader {entry.get('role', index + 1)}"
        interface = self.value(
            "readers", index, entry, "interface", str, "spi", choices=("spi", "i2c", "uart")
        )
        irq = self.pin("readers", index, entry, "irq", user)
        reset = self.pin("readers", index, entry, "reset", user)
        spec: dict[str, Any] = dict(
            role=role,
            interface=interface,
            irq=irq,
            reset=reset,
            req=self.req_pin(index, entry, user, interface),
            line=self.lines.of("readers", index),
            seat=self.value(
                "readers", index, entry, "seat", int, None, low=min(SEATS), high=max(SEATS)
            ),
        )
        self.seat_lines[spec["line"]] = self.lines.of("readers", index, "seat")
        # already said why (a bad seat, or a misspelt one): a gap it would fill is no news
        self.bad_seat |= ("seat" in entry and spec["seat"] is None) or any(
            difflib.get_close_matches(key, ["seat"], cutoff=0.6)
            for key in set(entry) - KEYS["readers"]
        )
        if interface == "spi":
            spec["bus"] = self.value("readers", index, entry, "bus", int, 0, choices=(0, 1))
            spec["cs"] = self.pin("readers", index, entry, "cs", user, required=True)
            spec["clock_hz"] = self.value(
                "readers", index, entry, "clock_hz", int, 1_000_000, low=100_000, high=5_000_000
            )
        elif interface == "i2c":
            bus, channel, _ = self.i2c_place("readers", index, entry, user) or (None, None, None)
            address = self.value("readers", index, entry, "address", int, 0x24, low=0x03, high=0x77)
            spec.update(bus=bus, mux_channel=channel, address=address)
            spec["clock_hz"] = self.value(
                "readers", index, entry, "clock_hz", int, 400_000, choices=(100_000, 400_000)
            )
            if None not in (bus, address):
                line = self.lines.of("readers", index, "address")
                self.address(bus, channel, address, user, line)
        else:
            spec["port"] = self.value("readers", index, entry, "port", str, "/dev/serial0")
            line = self.lines.of("readers", index, "port")
            if spec["port"] in self.uarts:
                self.problem(line, f"{user} and {self.uarts[spec['port']]} share {spec['port']}")
            self.uarts.setdefault(spec["port"], user)
            spec["baudrate"] = self.value(
                "readers",
                index,
                entry,
                "baudrate",
                int,
                115_200,
                choices=(9600, 19200, 38400, 57600, 115200, 230400),
            )
        return ReaderSpec(**spec) if role and interface else None

    def display(self, index: int, entry: dict[str, Any]) -> tuple[DisplaySpec, int | None] | None:
        role = self.value(
            "displays", index, entry, "role", str, required=True, choices=DISPLAY_ROLES
        )
        user = f"display {entry.get('role', index + 1)}"

        def v(key, kind, default, **kw):
            return self.value("displays", index, entry, key, kind, default, **kw)

        spec: dict[str, Any] = dict(
            role=role,
            chip=v("chip", str, "ssd1306", choices=("ssd1306", "sh1106")),
            width=v("width", int, 128, choices=(128,)),
            height=v("height", int, 64, choices=(64, 32)),
            interface=v("interface", str, "i2c", choices=("i2c", "spi")),
            rotate=v("rotate", int, 0, choices=(0, 1, 2, 3)),
        )
        if spec["rotate"] in (1, 3):
            self.problem(
                self.lines.of("displays", index, "rotate"),
                "rotate 1 or 3 would make the screen 64 wide; use 0 or 2",
            )
        if spec["interface"] == "i2c":
            place = self.i2c_place("displays", index, entry, user)
            bus, channel, kernel = place or (None, None, None)
            address = v("address", int, 0x3C, choices=(0x3C, 0x3D))
            if None not in (bus, address):
                line = self.lines.of("displays", index, "address")
                self.address(bus, channel, address, user, line)
            if channel is not None and self.mux is not None and not self.mux.kernel:
                self.problem(
                    self.lines.of("displays", index, "mux_channel"),
                    f"{user} is behind the multiplexer, which needs kernel = true in [mux]: "
                    "luma reaches a channel as its own /dev/i2c-N",
                )
            spec.update(
                mux_channel=channel if kernel is None else None,
                bus=kernel if kernel is not None else bus,
                address=address,
                clock_hz=v("clock_hz", int, 400_000, choices=(100_000, 400_000)),
            )
        else:
            spec["bus"] = v("bus", int, 0, choices=(0, 1))
            spec["device"] = v("device", int, 0, choices=(0, 1))
            spec["dc"] = self.pin(
                "displays", index, entry, "dc", user, required=True, shared_as=" dc"
            )
            spec["reset"] = self.pin("displays", index, entry, "reset", user)
            spec["cs"] = self.pin("displays", index, entry, "cs", user)
            spec["clock_hz"] = v("clock_hz", int, 8_000_000, choices=SPI_CLOCKS_HZ)
        if not role or None in (spec.get("dc", 0), spec["chip"], spec["height"]):
            return None
        return DisplaySpec(**spec), self.lines.of("displays", index)

    def button(self, index: int, entry: dict[str, Any]) -> ButtonSpec | None:
        role = self.value("buttons", index, entry, "role", str, required=True, choices=BUTTON_ROLES)
        pin = self.pin("buttons", index, entry, "pin", f"button {role}", required=True)
        pull_up = self.value("buttons", index, entry, "pull_up", bool, True)
        hold_s = self.value(
            "buttons", index, entry, "hold_s", float, self.hold_s, low=0.05, high=10.0
        )
        if role is None or pin is None:
            return None
        return ButtonSpec(role, pin, pull_up, hold_s, self.lines.of("buttons", index))

    def seats(self, readers: list[ReaderSpec], display_roles: set[str]) -> tuple[str, ...]:
        """The pads' roles in seat order; every seat once, from 1 without a gap, each a pad
        of the table's own with a screen of the same role to show "Seat N"."""
        seated: dict[int, ReaderSpec] = {}
        for reader in readers:
            seat, line = reader.seat, self.lines_of_seat(reader)
            if seat is None:
                continue
            if reader.role == "main":
                self.problem(
                    line,
                    "seat is for a pad of its own: the minimal table's main pad stands in "
                    "for every seat in turn",
                )
            elif seat in seated:
                first = seated[seat]
                self.problem(
                    line,
                    f"two readers are seat {seat}: {reader.role} and {first.role} "
                    f"(line {self.lines_of_seat(first)})",
                )
            elif reader.role not in display_roles:
                self.problem(
                    line,
                    f"reader {reader.role} is seat {seat} but no display has role "
                    f"{reader.role!r}: a seat needs its own screen",
                )
            else:
                seated[seat] = reader
        if not seated or self.bad_seat:
            return tuple(seated[n].role for n in sorted(seated))
        missing = next((n for n in SEATS if n not in seated), None)
        if missing is not None and missing < max(seated):
            above = min(n for n in seated if n > missing)
            self.problem(
                self.lines_of_seat(seated[above]),
                f"seats count from 1 without a gap: seat {missing} is missing "
                f"before seat {above}",
            )
        elif len(seated) < MIN_SEATS:
            self.problem(
                self.lines_of_seat(seated[1]),
                f"only seat 1 is given: seats are for {MIN_SEATS} to {max(SEATS)} players",
            )
        return tuple(seated[n].role for n in sorted(seated))

    def lines_of_seat(self, reader: ReaderSpec) -> int | None:
        """The line of a reader's `seat =` (its header's if that is not found)."""
        return self.seat_lines.get(reader.line, reader.line)

    def unique_roles(self, section: str, roles: list[tuple[str, int | None]]) -> None:
        seen: dict[str, int | None] = {}
        for role, line in roles:
            if role in seen:
                self.problem(line, f"two {section} have role {role!r} (first at line {seen[role]})")
            seen.setdefault(role, line)

    def bus_pins(
        self,
        readers: list[ReaderSpec],
        displays: list[DisplaySpec],
        display_lines: dict[str, int | None],
    ) -> None:
        """Pins that a bus in use has taken may not be buttons or chip-selects."""
        taken: dict[int, str] = {}
        if (
            any(r.interface == "i2c" and r.bus in I2C_PINS for r in readers)
            or any(d.interface == "i2c" for d in displays)
            or (self.mux and self.mux.bus in I2C_PINS)
        ):
            taken.update(I2C_PINS[1])
        reader_ports = {r.bus for r in readers if r.interface == "spi"}
        for port in reader_ports | {d.bus for d in displays if d.interface == "spi"}:
            taken.update(SPI_PINS[port])
            # The kernel holds the chip-enables as GPIOs while the bus is on (cs-gpios):
            # SPI0's two with dtparam=spi=on, SPI1's first with dtoverlay=spi1-1cs.
            for device, pin in enumerate(SPI_CE_PINS[port][: 2 if port == 0 else 1]):
                taken[pin] = f"SPI{port} CE{device}, held by the kernel while SPI{port} is on"
        for d in displays:
            if d.interface == "spi" and d.cs is None:
                taken[SPI_CE_PINS[d.bus][d.device]] = f"SPI{d.bus} CE{d.device}"
            if d.interface == "spi" and d.cs is None and d.device == 0 and d.bus in reader_ports:
                # Blinka's SPI for the readers is /dev/spidevN.0: every reader transfer
                # selects CE0 too, and an OLED there takes the PN532 frames as pixels.
                self.problem(
                    display_lines.get(d.role),
                    f"display {d.role} is on SPI{d.bus}'s CE0, which every reader transfer "
                    f"on SPI{d.bus} selects too: give it a GPIO chip-select (cs = N), put it "
                    f"on device = 1, or put the readers on the other SPI bus",
                )
        if any(
            r.interface == "uart" and r.port in ("/dev/serial0", "/dev/ttyAMA0") for r in readers
        ):
            taken.update(UART_PINS)
        for pin, (user, line) in sorted(self.pins.items()):
            if pin in taken:
                self.problem(line, f"duplicate pin GPIO{pin}: {user} and {taken[pin]}")


MAX_DEPTH = 4  # [[readers]] -> reader -> kernel_buses -> number is 3 levels


def _expected(key: str, known: set[str]) -> str:
    """ "did you mean absence_s?" for a typo, else every key that may be there."""
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else f"expected one of {', '.join(sorted(known))}"


def _shown(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _too_deep(data: Any) -> str | None:
    """The first place nested deeper than MAX_DEPTH levels (`readers[0].cs`), or None."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, place, depth = stack.pop()
        if depth > MAX_DEPTH:
            return place
        if isinstance(value, dict):
            stack.extend((v, f"{place}.{k}".lstrip("."), depth + 1) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{place}[{i}]", depth + 1) for i, v in enumerate(value))
    return None


_KIND_WORDS = {
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    str: "text",
    list: "a list",
}
