"""The wiring of a table profile: which header pin each device terminal goes to, as a
list, a text table and an SVG picture.

    profile = load_profile("full-table")
    for device in wiring(profile): ...          # Device(name, part, detail, wires, notes)
    print(connection_table(profile))            # one line per wire
    Path("full-table.svg").write_text(wiring_svg(profile))

The Pi's 40-pin header is described here once (`HEADER`, `GPIO_FUNCTIONS`): physical pin
numbers, BCM GPIO numbers, 3V3/5V/GND pins, SPI0/SPI1 and I2C1. The SVG is built with string
formatting only and depends on nothing but the profile, so the same profile always gives
the same bytes (the checked-in pictures in docs/wiring are compared with a fresh rendering).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from hardware.display.spec import DisplaySpec
from hardware.profile import SPI_CE_PINS, Profile, ReaderSpec

# -- the header ---------------------------------------------------------------------------

# Physical pin -> what it is: "3V3", "5V", "GND" or "GPIOn" (BCM numbering).
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}  # fmt: skip
# The alternate functions a table uses, by BCM GPIO number.
GPIO_FUNCTIONS: dict[int, str] = {
    0: "ID_SD", 1: "ID_SC", 2: "SDA1", 3: "SCL1", 14: "TXD", 15: "RXD",
    10: "SPI0 MOSI", 9: "SPI0 MISO", 11: "SPI0 SCLK", 8: "SPI0 CE0", 7: "SPI0 CE1",
    20: "SPI1 MOSI", 19: "SPI1 MISO", 21: "SPI1 SCLK", 18: "SPI1 CE0", 17: "SPI1 CE1",
    16: "SPI1 CE2",
}  # fmt: skip
SPI_BUS_GPIOS = {0: {"SCLK": 11, "MOSI": 10, "MISO": 9}, 1: {"SCLK": 21, "MOSI": 20, "MISO": 19}}
I2C1_GPIOS = {"SDA": 2, "SCL": 3}
UART_GPIOS = {"TXD": 14, "RXD": 15}
UART_HEADER_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")


def physical_pin(gpio: int) -> int:
    """The header pin of a BCM GPIO number: `physical_pin(5) == 29`."""
    for pin, name in HEADER.items():
        if name == f"GPIO{gpio}":
            return pin
    raise ValueError(f"GPIO{gpio} is not on the 40-pin header")


def pin_label(pin: int, *, function: bool = True) -> str:
    """`"pin 29 GPIO5"`, `"pin 3 GPIO2 SDA1"`, `"pin 1 3V3"`; `function=False` leaves out
    the alternate function (GPIO17 as a button is not SPI1's CE1)."""
    name = HEADER[pin]
    alternate = GPIO_FUNCTIONS.get(int(name[4:])) if name.startswith("GPIO") else None
    return f"pin {pin} {name}" + (f" {alternate}" if alternate and function else "")


def _nearest(name: str, anchor: int) -> int:
    """The header pin called `name` (3V3, 5V, GND) nearest to pin `anchor`, lower on a tie."""
    pins = [pin for pin, what in HEADER.items() if what == name]
    return min(pins, key=lambda pin: (abs(pin - anchor), pin))


# -- what is wired to what ------------------------------------------------------------------

# Signal kinds: (legend text, colour, dash pattern or "").
KINDS: dict[str, tuple[str, str, str]] = {
    "3v3": ("3V3 power", "#f76707", ""),
    "5v": ("5V power", "#e03131", ""),
    "gnd": ("ground", "#212529", ""),
    "i2c": ("I2C1 (SDA, SCL)", "#1971c2", ""),
    "mux": ("I2C behind the multiplexer", "#15aabf", ""),
    "spi": ("SPI (SCLK, MOSI, MISO)", "#2f9e44", ""),
    "cs": ("chip-select", "#9c36b5", ""),
    "control": ("IRQ, reset, DC", "#8f5b2e", "7 3"),
    "uart": ("UART (TXD, RXD)", "#e64980", ""),
    "input": ("button, encoder", "#c29b00", ""),
    "buzzer": ("buzzer", "#5c5f66", "2 3"),
}
POWER_KINDS = {"3V3": "3v3", "5V": "5v", "GND": "gnd"}


@dataclass(frozen=True)
class Wire:
    """One terminal of a device and where it goes: a header `pin`, or `mux_terminal`
    (`"SD2"`) of the multiplexer, or nowhere on the header (`pin` and `mux_terminal` None,
    `note` says where)."""

    terminal: str
    kind: str
    pin: int | None = None
    mux_terminal: str | None = None
    note: str = ""
    bus_function: bool = False  # the pin serves as its bus function (SDA1, SPI0 MOSI, CE0)

    @property
    def to(self) -> str:
        """Where the wire goes, in an installer's words."""
        if self.pin is not None:
            return pin_label(self.pin, function=self.bus_function)
        if self.note or self.mux_terminal is None:
            return self.note
        return f"multiplexer {self.mux_terminal}"


@dataclass(frozen=True)
class Device:
    """One part on the table: `name` as the profile and selftest call it (`reader stake-0`),
    `part` (`PN532 NFC reader`), `detail` (bus and address), its wires and notes."""

    name: str
    part: str
    detail: str
    wires: tuple[Wire, ...]
    notes: tuple[str, ...] = ()
    behind_mux: bool = False
    is_mux: bool = False


def wiring(profile: Profile) -> list[Device]:
    """Every device of the profile with its wires: readers, multiplexer, displays, buttons,
    buzzer, encoder, in that order."""
    readers = [_reader(spec, profile) for spec in profile.readers]
    displays = [_display(spec, profile) for spec in profile.displays]
    mux = [_mux(profile, readers + displays)] if profile.mux is not None else []
    devices = [*readers, *mux, *displays]
    devices += [_button(spec.role, spec.pin, spec.pull_up) for spec in profile.buttons]
    if profile.buzzer is not None:
        devices.append(_buzzer(profile.buzzer.pin, profile.buzzer.active_high))
    if profile.encoder is not None:
        devices.append(_encoder(profile.encoder.a, profile.encoder.b))
    return devices


def _powered(signals: list[Wire], supply: str, *, vcc: str = "VCC") -> tuple[Wire, ...]:
    """Power and ground from the pins nearest the device's first header signal."""
    header = [w.pin for w in signals if w.pin is not None]
    anchor = min(header) if header else 1
    power = Wire(vcc, POWER_KINDS[supply], _nearest(supply, anchor))
    ground = Wire("GND", "gnd", _nearest("GND", anchor))
    return (power, ground, *signals)


def _gpio(terminal: str, kind: str, gpio: int, *, bus_function: bool = False) -> Wire:
    return Wire(terminal, kind, physical_pin(gpio), bus_function=bus_function)


def _i2c_wires(bus: int, channel: int | None) -> list[Wire]:
    if channel is not None:
        return [Wire("SDA", "mux", mux_terminal=f"SD{channel}"),
                Wire("SCL", "mux", mux_terminal=f"SC{channel}")]  # fmt: skip
    if bus == 1:
        return [_gpio(name, "i2c", gpio, bus_function=True) for name, gpio in I2C1_GPIOS.items()]
    where = f"the pins of /dev/i2c-{bus} (set by its dtoverlay)"
    return [Wire("SDA", "i2c", note=where), Wire("SCL", "i2c", note=where)]


def _reader(spec: ReaderSpec, profile: Profile) -> Device:
    modes = {"spi": "I0=0 I1=1", "i2c": "I0=1 I1=0", "uart": "I0=0 I1=0"}
    notes = [f"mode switches {spec.interface.upper()}: {modes[spec.interface]}"]
    signals: list[Wire] = []
    supply = "5V"
    if spec.interface == "spi":
        gpios = SPI_BUS_GPIOS[spec.bus]
        signals += [
            _gpio("SCK", "spi", gpios["SCLK"], bus_function=True),
            _gpio("MISO", "spi", gpios["MISO"], bus_function=True),
            _gpio("MOSI", "spi", gpios["MOSI"], bus_function=True),
            _gpio("SS", "cs", spec.cs),
        ]
        detail = f"SPI{spec.bus}, chip-select GPIO{spec.cs}, {spec.clock_hz // 1000} kHz"
    elif spec.interface == "i2c":
        # I2C lines are pulled up to the module's VCC on some boards: keep them at 3.3 V.
        supply = "3V3"
        mux = profile.mux
        if mux is not None and mux.bus == spec.bus:
            channel = spec.mux_channel
        else:  # a multiplexer channel named by its kernel bus number, or no multiplexer
            channel = _kernel_channel(spec.bus, profile)
        signals += _i2c_wires(mux.bus if mux and channel is not None else spec.bus, channel)
        place = f", multiplexer channel {channel}" if channel is not None else ""
        detail = f"I2C i2c-{spec.bus}{place}, address 0x{spec.address:02X}"
    else:
        detail = f"UART {spec.port}, {spec.baudrate} baud"
        if spec.port in UART_HEADER_PORTS:
            signals += [
                _gpio("TXD", "uart", UART_GPIOS["RXD"], bus_function=True),
                _gpio("RXD", "uart", UART_GPIOS["TXD"], bus_function=True),
            ]
        else:
            adapter = f"a USB serial adapter ({spec.port})"
            signals += [Wire("TXD", "uart", note=adapter), Wire("RXD", "uart", note=adapter)]
    if spec.irq is not None:
        signals.append(_gpio("IRQ", "control", spec.irq))
    if spec.reset is not None:
        signals.append(_gpio("RSTPDN", "control", spec.reset))
    if spec.req is not None:
        signals.append(_gpio("P32 (H_REQ)", "control", spec.req))
    return Device(
        f"reader {spec.role}",
        "PN532 NFC reader",
        detail,
        _powered(signals, supply),
        tuple(notes),
        behind_mux=any(w.mux_terminal for w in signals),
    )


def _kernel_channel(bus: int, profile: Profile) -> int | None:
    """The multiplexer channel whose kernel bus is `/dev/i2c-{bus}`, if any (a display's
    spec holds that number)."""
    mux = profile.mux
    if mux is None or bus not in mux.kernel_buses:
        return None
    return mux.kernel_buses.index(bus)


def _display(spec: DisplaySpec, profile: Profile) -> Device:
    part = f"{spec.chip.upper()} {spec.width}x{spec.height} OLED"
    notes: list[str] = []
    if spec.interface == "i2c":
        channel = spec.mux_channel
        if channel is None:
            channel = _kernel_channel(spec.bus, profile)
        signals = _i2c_wires(spec.bus, channel)
        place = f", multiplexer channel {channel}" if channel is not None else ""
        detail = f"I2C i2c-{spec.bus}{place}, address 0x{spec.address:02X}"
    else:
        gpios = SPI_BUS_GPIOS[spec.bus]
        cs = spec.cs if spec.cs is not None else SPI_CE_PINS[spec.bus][spec.device]
        signals = [
            _gpio("D0 (SCK)", "spi", gpios["SCLK"], bus_function=True),
            _gpio("D1 (MOSI)", "spi", gpios["MOSI"], bus_function=True),
            _gpio("CS", "cs", cs, bus_function=spec.cs is None),
            _gpio("DC", "control", spec.dc),
        ]
        if spec.reset is not None:
            signals.append(_gpio("RES", "control", spec.reset))
        else:
            notes.append("RES: no reset line in the profile; tie RES to 3V3")
        select = f"GPIO{spec.cs}" if spec.cs is not None else f"CE{spec.device}"
        detail = f"SPI{spec.bus}, chip-select {select}, DC GPIO{spec.dc}"
    return Device(
        f"display {spec.role}",
        part,
        detail,
        _powered(signals, "3V3"),
        tuple(notes),
        behind_mux=any(w.mux_terminal for w in signals),
    )


def _mux(profile: Profile, devices: list[Device]) -> Device:
    mux = profile.mux
    assert mux is not None
    signals = _i2c_wires(mux.bus, None)
    children: dict[str, list[str]] = {}
    for device in devices:
        for wire in device.wires:
            if wire.mux_terminal:
                children.setdefault(wire.mux_terminal, []).append(f"{device.name} {wire.terminal}")
    for terminal in sorted(children, key=lambda t: (int(t[2:]), t != f"SD{t[2:]}")):
        note = ", ".join(children[terminal])
        signals.append(Wire(terminal, "mux", mux_terminal=terminal, note=note))
    a = mux.address - 0x70
    levels = ", ".join(f"A{n} {'3V3' if a >> n & 1 else 'GND'}" for n in range(3))
    notes = (f"address 0x{mux.address:02X}: {levels}", "RST: leave open (pulled up on the board)")
    return Device(
        "multiplexer",
        "TCA9548A I2C multiplexer",
        f"I2C i2c-{mux.bus}, address 0x{mux.address:02X}",
        _powered(signals, "3V3", vcc="VIN"),
        notes,
        is_mux=True,
    )


def _button(role: str, gpio: int, pull_up: bool) -> Device:
    other = "GND" if pull_up else "3V3"
    signal = _gpio("contact 1", "input", gpio)
    back = Wire("contact 2", POWER_KINDS[other], _nearest(other, signal.pin or 1))
    pull = f"internal pull-{'up' if pull_up else 'down'}: pressed pulls it to {other}"
    return Device(f"button {role}", "push button", f"GPIO{gpio}", (signal, back), (pull,))


def _buzzer(gpio: int, active_high: bool) -> Device:
    drive = _gpio("+" if active_high else "-", "buzzer", gpio)
    other = "GND" if active_high else "3V3"
    back = Wire("-" if active_high else "+", POWER_KINDS[other], _nearest(other, drive.pin or 1))
    wires = (drive, back) if active_high else (back, drive)
    note = "over 15 mA: switch it with an NPN transistor from 5V"
    return Device("buzzer", "active buzzer", f"GPIO{gpio}", wires, (note,))


def _encoder(a: int, b: int) -> Device:
    wires = (_gpio("A", "input", a), _gpio("B", "input", b))
    common = Wire("C", "gnd", _nearest("GND", min(w.pin for w in wires if w.pin)))
    return Device("encoder", "rotary encoder", f"GPIO{a}, GPIO{b}", (*wires, common),
                  ("internal pull-ups; the common pin to GND",))  # fmt: skip


# -- the text table -------------------------------------------------------------------------


def connection_rows(profile: Profile) -> list[tuple[str, str, str, str]]:
    """(device, terminal, goes to, signal kind) for every wire, in wiring order."""
    return [
        (device.name, wire.terminal, wire.to, KINDS[wire.kind][0])
        for device in wiring(profile)
        for wire in device.wires
    ]


def pin_rows(profile: Profile) -> list[tuple[int, str, str]]:
    """(header pin, its name, what is wired to it) for every header pin in use, by pin."""
    users: dict[int, list[str]] = {}
    as_bus: set[int] = set()
    for device in wiring(profile):
        for wire in device.wires:
            if wire.pin is not None:
                users.setdefault(wire.pin, []).append(f"{device.name} {wire.terminal}")
                if wire.bus_function:
                    as_bus.add(wire.pin)
    return [
        (
            pin,
            pin_label(pin, function=pin in as_bus).removeprefix(f"pin {pin} "),
            ", ".join(users[pin]),
        )
        for pin in sorted(users)
    ]


def pin_table_markdown(profile: Profile) -> str:
    """The header pins in use as a Markdown table (the build guide's pin tables)."""
    lines = ["| pin | header name | wired to |", "|---|---|---|"]
    lines += [f"| {pin} | {name} | {users} |" for pin, name, users in pin_rows(profile)]
    return "\n".join(lines) + "\n"


def connection_table(profile: Profile) -> str:
    """The wiring as aligned text: one line per wire, then the header pins in use."""
    head = ("device", "terminal", "goes to", "signal")
    rows = [head, *connection_rows(profile)]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = [f"wiring of profile {profile.name} ({profile.source})", ""]
    lines += [
        "  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True))
        + "  "
        + row[3]
        for row in rows
    ]
    lines += ["", "header pins in use:"]
    lines += [f"  pin {pin:>2}  {name:<16}  {users}" for pin, name, users in pin_rows(profile)]
    for device in wiring(profile):
        lines += [f"note: {device.name}: {note}" for note in device.notes]
    return "\n".join(line.rstrip() for line in lines) + "\n"


# -- the picture ----------------------------------------------------------------------------

ROW = 18  # one text row of a device box; every terminal sits on a row
BOX_W = 310
PITCH = 34  # header column pitch
LANE = 10  # a pin's wire runs this far left (odd pins) or right (even pins) of the column
EVEN_Y = 246  # the header's outer row (even pins), the inner row (odd pins) below it
ODD_Y = EVEN_Y + 26
DEVICES_Y = 330
OUTER_LANE = 12
SLACK_ROWS = 8  # how much taller a column may get before a group goes to the other side


@dataclass
class _Placed:
    device: Device
    side: str  # "left" or "right" of the header
    top: int
    rows: int


def wiring_svg(profile: Profile) -> str:
    """The wiring diagram of `profile` as a self-contained SVG document."""
    devices = wiring(profile)
    header_x = 20 + BOX_W + 70
    header_w = 20 * PITCH
    right_x = header_x + header_w + 50
    placed = _place(devices)
    left_outer = any(p.side == "left" and _has_outer(p.device) for p in placed)
    if left_outer:  # room for the multiplexer's lanes on the far left
        shift = 20 + _outer_width(devices)
        header_x, right_x = header_x + shift, right_x + shift
    left_x = header_x - 70 - BOX_W
    bottom = max((p.top + p.rows * ROW for p in placed), default=DEVICES_Y) + 30
    width = max(right_x + BOX_W + (0 if left_outer else _outer_width(devices)), right_x + 400)
    width += 30
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{bottom}" '
        f'viewBox="0 0 {width} {bottom}" font-family="DejaVu Sans, Verdana, sans-serif">',
        f"<title>arcana-table wiring: profile {escape(profile.name)}</title>",
        f'<rect width="{width}" height="{bottom}" fill="#ffffff"/>',
    ]
    out += _heading(profile, left_x)
    out += _legend(devices, right_x)
    terminals = _terminal_points(placed, left_x, right_x)
    wires = [w for d in devices for w in d.wires if w.pin]
    out += _header(
        header_x, {w.pin: w.kind for w in wires}, {w.pin for w in wires if w.bus_function}
    )
    out += _header_wires(devices, terminals, header_x)
    out += _mux_wires(placed, terminals, left_x, right_x)
    for item in placed:
        out += _box(item, left_x if item.side == "left" else right_x)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _has_outer(device: Device) -> bool:
    return device.is_mux or device.behind_mux


def _outer_width(devices: list[Device]) -> int:
    lanes = sum(1 for d in devices if d.is_mux for w in d.wires if w.mux_terminal)
    return 20 + lanes * OUTER_LANE


def _rows(device: Device) -> int:
    return 2 + len(device.wires) + len(device.notes)


def _groups(devices: list[Device]) -> list[list[Device]]:
    """Devices that stay together: the readers, the multiplexer with everything behind
    it, the other displays, the buttons; the buzzer and the encoder on their own."""
    groups: dict[str, list[Device]] = {}
    for device in sorted(devices, key=lambda d: not d.is_mux):  # the multiplexer on top
        key = "mux" if _has_outer(device) else device.name.split()[0]
        groups.setdefault(key, []).append(device)
    order = [d.name for d in devices]  # groups in the order of their first device
    return sorted(groups.values(), key=lambda g: min(order.index(d.name) for d in g))


def _place(devices: list[Device]) -> list[_Placed]:
    """Stack the groups in two columns, each on the side of the header its pins are on
    unless that column is already much taller. Right-hand rows sit half a row lower, so no
    wire to the left column runs on top of one to the right."""
    height = {"left": 0, "right": 0}
    placed = []
    for group in _groups(devices):
        pins = [
            w.pin for d in group for w in d.wires if w.pin and w.kind not in ("3v3", "5v", "gnd")
        ]
        side = "left" if not pins or sum(pins) / len(pins) <= 20 else "right"
        other = "right" if side == "left" else "left"
        if height[side] > height[other] + SLACK_ROWS:
            side = other
        for device in group:
            top = DEVICES_Y + height[side] * ROW + (ROW // 2 if side == "right" else 0)
            placed.append(_Placed(device, side, top, _rows(device)))
            height[side] += _rows(device) + 1
    return placed


def _terminal_points(placed, left_x: int, right_x: int) -> dict[tuple[str, str], tuple]:
    """(device name, terminal) -> (x on the header side, x on the outer side, y)."""
    points = {}
    for item in placed:
        x = left_x if item.side == "left" else right_x
        inner, outer = (x + BOX_W, x) if item.side == "left" else (x, x + BOX_W)
        for n, wire in enumerate(item.device.wires):
            y = item.top + (2 + n) * ROW + ROW // 2
            points[(item.device.name, wire.terminal)] = (inner, outer, y, item.side)
    return points


def _text(x, y, text, *, size=12, anchor="start", weight="normal", fill="#212529", extra=""):
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}"{extra}>{escape(text)}</text>'
    )


def _heading(profile: Profile, x: int) -> list[str]:
    lines = [_text(x, 34, f"arcana-table wiring: {profile.name}", size=20, weight="bold")]
    if profile.description:
        lines.append(_text(x, 56, profile.description, size=13))
    field = "one RF field at a time" if profile.one_field_at_a_time else "all RF fields on"
    notes = [
        f"profile {profile.source}; readers polled with {field}",
        "The Pi seen from above, header along the top edge:",
        "pin 1 (square) is bottom left, even pins on the outer row.",
        "pin n = physical header pin, GPIOn = BCM number.",
        "A dot joins wires; crossing wires without a dot do not touch.",
    ]
    lines += [_text(x, 84 + 17 * n, note, size=12) for n, note in enumerate(notes)]
    return lines


def _legend(devices: list[Device], x: int) -> list[str]:
    used = [kind for kind in KINDS if any(w.kind == kind for d in devices for w in d.wires)]
    lines = [_text(x, 34, "wires", size=14, weight="bold")]
    for n, kind in enumerate(used):
        label, colour, dash = KINDS[kind]
        column, row = divmod(n, 6)
        lx, ly = x + column * 190, 52 + row * 20
        lines.append(_line(lx, ly, lx + 34, ly, colour, dash, width=4))
        lines.append(_text(lx + 42, ly + 4, label, size=12))
    return lines


def _line(x1, y1, x2, y2, colour, dash="", width=2, to=""):
    pattern = f' stroke-dasharray="{dash}"' if dash else ""
    end = f' data-to="{escape(to)}"' if to else ""
    return (
        f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
        f'stroke-width="{width}"{pattern}{end}/>'
    )


def _polyline(points, colour, dash=""):
    pattern = f' stroke-dasharray="{dash}"' if dash else ""
    coordinates = " ".join(f"{x},{y}" for x, y in points)
    return (
        f'<polyline points="{coordinates}" fill="none" stroke="{colour}" '
        f'stroke-width="2" stroke-linejoin="round"{pattern}/>'
    )


def _pin_xy(pin: int, header_x: int) -> tuple[int, int]:
    column = (pin - 1) // 2
    return header_x + column * PITCH + PITCH // 2, EVEN_Y if pin % 2 == 0 else ODD_Y


def _lane_x(pin: int, header_x: int) -> int:
    x, _ = _pin_xy(pin, header_x)
    return x + LANE if pin % 2 == 0 else x - LANE


def _header(header_x: int, used: dict[int, str], as_bus: set[int | None]) -> list[str]:
    """The 2x20 header: pins coloured by the wire on them, a label above each (a pin in
    use as a plain GPIO without its alternate function: GPIO16 as a chip-select is not
    SPI1's CE2)."""
    lines = [
        f'<rect x="{header_x}" y="{EVEN_Y - 15}" width="{20 * PITCH}" '
        f'height="{ODD_Y - EVEN_Y + 30}" rx="4" fill="#343a40"/>',
        _text(header_x - 8, EVEN_Y + 4, "Raspberry Pi", size=12, anchor="end", weight="bold"),
        _text(header_x - 8, ODD_Y + 4, "40-pin header", size=12, anchor="end", weight="bold"),
    ]  # fmt: skip
    for pin in HEADER:
        x, y = _pin_xy(pin, header_x)
        fill = KINDS[used[pin]][1] if pin in used else "#ced4da"
        if pin == 1:
            lines.append(
                f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" fill="{fill}" '
                'stroke="#ffffff" stroke-width="1.5"/>'
            )
        else:
            lines.append(
                f'<circle cx="{x}" cy="{y}" r="7" fill="{fill}" stroke="#ffffff" '
                'stroke-width="1.5"/>'
            )
        plain = pin in used and pin not in as_bus
        label = pin_label(pin, function=not plain).removeprefix("pin ")
        # Odd pins' labels left of the column, even pins' right; both read upwards.
        lx = x - 3 if pin % 2 else x + 11
        weight, colour = ("bold", "#000000") if pin in used else ("normal", "#868e96")
        lines.append(
            _text(lx, EVEN_Y - 20, label, size=11, weight=weight, fill=colour,
                  extra=f' transform="rotate(-90 {lx} {EVEN_Y - 20})"')
        )  # fmt: skip
    return lines


def _dot(x: int, y: int, colour: str) -> str:
    return f'<circle cx="{x}" cy="{y}" r="3.5" fill="{colour}"/>'


def _header_wires(devices, terminals, header_x: int) -> list[str]:
    """One lane down from each pin in use, a branch to each terminal on it."""
    lines: list[str] = []
    lanes: dict[int, list[tuple[str, Wire, tuple]]] = {}
    for device in devices:
        for wire in device.wires:
            if wire.pin is not None:
                point = terminals[(device.name, wire.terminal)]
                lanes.setdefault(wire.pin, []).append((device.name, wire, point))
    for pin in sorted(lanes):
        _, colour, dash = KINDS[lanes[pin][0][1].kind]
        x, y = _pin_xy(pin, header_x)
        lane = _lane_x(pin, header_x)
        bottom = max(point[2] for _, _, point in lanes[pin])
        lines.append(f'<g data-pin="{pin}">')
        lines.append(_polyline([(x, y), (lane, y + 8), (lane, bottom)], colour, dash))
        for name, wire, (inner, _, ty, _side) in lanes[pin]:
            kind_colour, kind_dash = KINDS[wire.kind][1:]
            to = f"{name} {wire.terminal}"
            lines.append(_line(lane, ty, inner, ty, kind_colour, kind_dash, to=to))
            lines.append(_dot(lane, ty, kind_colour))
        lines.append("</g>")
    return lines


def _mux_wires(placed, terminals, left_x: int, right_x: int) -> list[str]:
    """Multiplexer channels to the devices behind it, in lanes outside the column."""
    mux = next((p for p in placed if p.device.is_mux), None)
    if mux is None:
        return []
    lines: list[str] = []
    _, colour, dash = KINDS["mux"]
    channel_wires = [w for w in mux.device.wires if w.mux_terminal]
    for n, wire in enumerate(channel_wires):
        _, outer, my, side = terminals[(mux.device.name, wire.terminal)]
        step = OUTER_LANE * (n + 1) + 8
        lane = outer - step if side == "left" else outer + step
        ends = [
            (f"{item.device.name} {w.terminal}", terminals[(item.device.name, w.terminal)])
            for item in placed
            if not item.device.is_mux
            for w in item.device.wires
            if w.mux_terminal == wire.mux_terminal
        ]
        ys = [my] + [end[2] for _, end in ends]
        lines.append(f'<g data-mux-terminal="{wire.mux_terminal}">')
        lines.append(_polyline([(outer, my), (lane, my)], colour, dash))
        lines.append(_line(lane, min(ys), lane, max(ys), colour, dash))
        for to, (_, end_x, ey, _side) in ends:
            lines.append(_line(lane, ey, end_x, ey, colour, dash, to=to))
            lines.append(_dot(lane, ey, colour))
        lines.append("</g>")
    return lines


def _box(item: _Placed, x: int) -> list[str]:
    device = item.device
    height = item.rows * ROW
    lines = [
        f'<g data-device="{escape(device.name)}">',
        f'<rect x="{x}" y="{item.top}" width="{BOX_W}" height="{height}" rx="6" '
        'fill="#f8f9fa" stroke="#495057" stroke-width="1.5"/>',
        _text(x + 10, item.top + 14, f"{device.name}: {device.part}", size=13, weight="bold"),
        _text(x + 10, item.top + ROW + 13, device.detail, size=11, fill="#495057"),
    ]
    inner = x + BOX_W if item.side == "left" else x
    outer = x if item.side == "left" else x + BOX_W
    for n, wire in enumerate(device.wires):
        y = item.top + (2 + n) * ROW + ROW // 2
        colour = KINDS[wire.kind][1]
        edge = outer if wire.mux_terminal else inner
        if wire.pin is None and wire.mux_terminal is None:
            edge = None
        if edge is not None:
            lines.append(f'<rect x="{edge - 4}" y="{y - 4}" width="8" height="8" fill="{colour}"/>')
        lines.append(_text(x + 14, y + 4, f"{wire.terminal} \u2192 {wire.to}", size=12))
    for n, note in enumerate(device.notes):
        y = item.top + (2 + len(device.wires) + n) * ROW + 13
        lines.append(_text(x + 14, y, note, size=11, fill="#495057", extra=' font-style="italic"'))
    lines.append("</g>")
    return lines
