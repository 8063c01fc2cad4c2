"""Bus factories: where a table's readers, displays and buttons get their buses and pins.

    buses = open_buses("emulated")        # or "real"; None: $ARCANA_TABLE_BUSES, the
                                          # profile's [table] buses, then real
    table = build_table(profile, buses)   # one build loop, whatever the buses are

Like gpiozero's pin factories (`GPIOZERO_PIN_FACTORY`): the table's code is the same on every
machine, and only the factory knows whether a bus is the Pi's or emulated.

- `PiBuses` ("real"): Blinka's `busio`/`digitalio` for the PN532s, pyserial for UART readers,
  luma's I2C (smbus2) and SPI (spidev + rpi-lgpio's RPi.GPIO API) interfaces for the OLEDs,
  gpiozero's default pin factory (lgpio) for buttons. The libraries are imported when a
  device is opened, never at import time: commands that need no hardware start anywhere.
- `EmulatedBuses` ("emulated"): the project's PN532 and OLED emulators on emulated buses and
  gpiozero's `MockFactory`; it also keeps the emulated chips (`pads`) for tests and the demo.

A bus that the Pi does not have (SPI or I2C switched off, no UART) raises `BusUnavailable`,
whose message is the fix (`sudo raspi-config nonint do_spi 0`).
"""

from __future__ import annotations

import os
from typing import Any

from hardware.buses.base import KINDS, Buses, BusUnavailable, ReaderWires, i2c_route

__all__ = [
    "BUSES_ENV",
    "KINDS",
    "BusUnavailable",
    "Buses",
    "ReaderWires",
    "buses_kind",
    "i2c_route",
    "open_buses",
]

BUSES_ENV = "ARCANA_TABLE_BUSES"


def buses_kind(kind: str | None = None, profile_choice: str | None = None) -> str:
    """`kind`, else $ARCANA_TABLE_BUSES, else the profile's `[table] buses`, else "real".

    ValueError with a sentence if the name is unknown.
    """
    env = os.environ.get(BUSES_ENV) or None
    chosen = kind or env or profile_choice or "real"
    if chosen not in KINDS:
        source = "" if kind else f" (from ${BUSES_ENV})" if env else " (from the profile)"
        raise ValueError(f"unknown buses {chosen!r}{source}; expected one of {', '.join(KINDS)}")
    return chosen


def open_buses(kind: str | None = None, profile_choice: str | None = None, **options: Any) -> Buses:
    """The bus factory named `kind` ("real" or "emulated"; None: see `buses_kind`)."""
    if buses_kind(kind, profile_choice) == "emulated":
        from hardware.buses.emulated import EmulatedBuses

        return EmulatedBuses(**options)
    from hardware.buses.pi import PiBuses

    return PiBuses(**options)
