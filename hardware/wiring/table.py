"""The wiring as text: one row per wire, the header pins in use, the build guide's tables."""

from __future__ import annotations

from hardware.header import pin_label
from hardware.profile import Profile
from hardware.wiring.wires import KINDS, wiring


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
