"""The wiring diagram as SVG, built with string formatting only: the same profile always
gives the same bytes (the checked-in pictures in docs/wiring are compared with a fresh
rendering)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from hardware.header import HEADER, pin_label
from hardware.profile import Profile
from hardware.wiring.wires import KINDS, Device, Wire, wiring

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
