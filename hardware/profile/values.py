"""Reading typed values out of a profile's decoded TOML, each refusal a sentence with its
line: `Values` (the settings allowed in each section, a value of a kind and range, a GPIO
used once, an I2C address used once per bus segment). `Checker` builds on it."""

from __future__ import annotations

import math
from typing import Any

from hardware.header import GPIO_PINS
from hardware.profile.lines import Lines
from hardware.profile.messages import KIND_WORDS, expected, shown
from hardware.profile.specs import MuxSpec
from hardware.profile.web import WEB_KEYS

SECTIONS = {"table", "mux", "readers", "displays", "buttons", "buzzer", "encoder", "web"}
KEYS = {
    "table": {
        "name",
        "absence_s",
        "one_field_at_a_time",
        "hold_s",
        "description",
        "buses",
        "language",
        "digits",
    },
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
    "web": WEB_KEYS,  # hardware/profile/web.py
}


class Values:
    """The problems found so far, and what the profile has taken: pins, I2C addresses,
    serial ports (the multiplexer's address too, once `mux` is checked)."""

    def __init__(self, data: dict[str, Any], lines: Lines) -> None:
        self.data = data
        self.lines = lines
        self.problems: list[tuple[int | None, str]] = []
        # pin -> (what uses it, line), and I2C address users
        self.pins: dict[int, tuple[str, int | None]] = {}
        self.addresses: dict[tuple[int, int | None, int], tuple[str, int | None]] = {}
        self.uarts: dict[str, str] = {}
        self.seat_lines: dict[int | None, int | None] = {}  # reader header line -> seat line
        self.bad_seat = False
        self.mux: MuxSpec | None = None

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
                    f"unknown setting {key!r} in [{section}]; {expected(key, KEYS[section])}",
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
            self.problem(line, f"{key} must be a finite number, not {shown(written)}")
            return default
        if not ok:
            self.problem(line, f"{key} must be {KIND_WORDS[kind]}, not {shown(value)}")
            return default
        if choices is not None and value not in choices:
            listed = ", ".join(map(str, choices))
            self.problem(line, f"{key} {shown(value)} is not one of {listed}")
            return default
        if (low is not None and value < low) or (high is not None and value > high):
            self.problem(line, f"{key} {shown(value)} is outside {low}..{high}")
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
