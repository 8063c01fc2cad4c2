"""Turn the hardware's callbacks into the companion's events.

Buttons: a short press counts when the button is released (so a hold is never also a
press); a hold counts once when the hold time is reached. Scanner events: `placed` is a
`Tap`, `conflict` is `Crowded`, reader faults and recoveries become `Trouble`/`Recovered`;
`removed` needs no action at the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from firmware.events import Crowded, Device, Event, Press, Recovered, Tap, Trouble


def wire_buttons(buttons: Mapping[str, Any], put: Callable[[Event], None]) -> None:
    """Connect every button (hardware.controls.Button) to `put`."""
    for role, button in buttons.items():
        held = {"now": False}

        def on_pressed(_: Any, held: dict[str, bool] = held) -> None:
            held["now"] = False

        def on_held(_: Any, role: str = role, held: dict[str, bool] = held) -> None:
            held["now"] = True
            put(Press(role, held=True))

        def on_released(_: Any, role: str = role, held: dict[str, bool] = held) -> None:
            if not held["now"]:
                put(Press(role))

        button.when_pressed = on_pressed
        button.when_held = on_held
        button.when_released = on_released


def from_scanner(tag_event: Any) -> Event | None:
    """The companion event for a hardware.nfc TagEvent (None when nothing is to be done)."""
    match tag_event.kind:
        case "placed":
            return Tap(tag_event.reader, tag_event.uid, tag_event.card_id)
        case "conflict":
            return Crowded(tag_event.reader)
        case "reader_fault" if getattr(tag_event, "fault", "") == "irq":  # answers; IRQ never low
            return Trouble(Device("reader", tag_event.reader), "irq_wire")
        case "reader_fault":
            return Trouble(Device("reader", tag_event.reader), "not_answering")
        case "reader_back":
            return Recovered(Device("reader", tag_event.reader))
    return None
