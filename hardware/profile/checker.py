"""The rules of a table, checked over a profile's decoded TOML: each device's settings, roles
used once, the seats, and the pins a bus in use takes over. `Checker(data, lines).profile()`
returns the `Profile` and leaves every problem found in `problems`."""

from __future__ import annotations

from typing import Any

from hardware.buses.base import KINDS
from hardware.display.spec import SPI_CLOCKS_HZ, DisplaySpec
from hardware.header import I2C_PINS, SPI_CE_PINS, SPI_PINS, UART_PINS
from hardware.profile.messages import closest, expected
from hardware.profile.specs import (
    BUTTON_ROLES,
    DIGITS,
    DISPLAY_ROLES,
    LANGUAGES,
    MIN_SEATS,
    PAD_ROLES,
    SEATS,
    ButtonSpec,
    BuzzerSpec,
    EncoderSpec,
    MuxSpec,
    Profile,
    ReaderSpec,
)
from hardware.profile.values import KEYS, SECTIONS, Values
from hardware.profile.web import check_web


class Checker(Values):
    # -- the profile ----------------------------------------------------------------------

    def profile(self, name: str, source: str) -> Profile:
        for section in sorted(set(self.data) - SECTIONS):
            self.problem(
                self.lines.of(section),
                f"unknown section {section!r}; {expected(section, SECTIONS)}",
            )
        table = dict(self.entries("table", many=False) or [(0, {})])[0]
        options = dict(
            name=self.value("table", 0, table, "name", str, name),
            description=self.value("table", 0, table, "description", str, ""),
            absence_s=self.value("table", 0, table, "absence_s", float, 0.3, low=0.0, high=10.0),
            one_field_at_a_time=self.value("table", 0, table, "one_field_at_a_time", bool, True),
            buses=self.value("table", 0, table, "buses", str, None, choices=KINDS),
            language=self.value("table", 0, table, "language", str, "en", choices=LANGUAGES),
            digits=self.value("table", 0, table, "digits", str, "latin", choices=DIGITS),
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
            closest(key, ["seat"]) for key in set(entry) - KEYS["readers"]
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
                f"seats count from 1 without a gap: seat {missing} is missing before seat {above}",
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
