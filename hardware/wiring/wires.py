"""What is wired to what: every device of a profile with its terminals, each to a header pin,
a multiplexer terminal or a place off the header (`wiring(profile)` -> `Device`s)."""

from __future__ import annotations

from dataclasses import dataclass

from hardware.display.spec import DisplaySpec
from hardware.header import (
    I2C1_GPIOS,
    SPI_BUS_GPIOS,
    SPI_CE_PINS,
    UART_GPIOS,
    UART_HEADER_PORTS,
    nearest,
    physical_pin,
    pin_label,
)
from hardware.profile import Profile, ReaderSpec

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
    power = Wire(vcc, POWER_KINDS[supply], nearest(supply, anchor))
    ground = Wire("GND", "gnd", nearest("GND", anchor))
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
    back = Wire("contact 2", POWER_KINDS[other], nearest(other, signal.pin or 1))
    pull = f"internal pull-{'up' if pull_up else 'down'}: pressed pulls it to {other}"
    return Device(f"button {role}", "push button", f"GPIO{gpio}", (signal, back), (pull,))


def _buzzer(gpio: int, active_high: bool) -> Device:
    drive = _gpio("+" if active_high else "-", "buzzer", gpio)
    other = "GND" if active_high else "3V3"
    back = Wire("-" if active_high else "+", POWER_KINDS[other], nearest(other, drive.pin or 1))
    wires = (drive, back) if active_high else (back, drive)
    note = "over 15 mA: switch it with an NPN transistor from 5V"
    return Device("buzzer", "active buzzer", f"GPIO{gpio}", wires, (note,))


def _encoder(a: int, b: int) -> Device:
    wires = (_gpio("A", "input", a), _gpio("B", "input", b))
    common = Wire("C", "gnd", nearest("GND", min(w.pin for w in wires if w.pin)))
    return Device("encoder", "rotary encoder", f"GPIO{a}, GPIO{b}", (*wires, common),
                  ("internal pull-ups; the common pin to GND",))  # fmt: skip
