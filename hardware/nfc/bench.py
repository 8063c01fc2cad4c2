"""Figures for `arcana-table bench hardware`: what one scan cycle costs on the bus and the CPU.

The table is built on emulated buses and the real driver, all on one `ModelledClock`: the chips
are busy for their modelled time, the driver waits for them as it does on a Pi (IRQ pin, or a
status read every 10 ms), and nothing sleeps for real. Figures: the clock's advance per cycle
(what the host spends), the wire time and the chips' own time within it, bytes and
transactions on the wire, and CPU time from `time.process_time`.

    >>> figures = scan_cycle_figures(readers=1, tag_present=False, cycles=5)
    >>> figures["readers"], figures["interface"]
    (1, 'i2c')
"""

from __future__ import annotations

import time

from hardware.nfc.buses import (
    EmulatedI2C,
    EmulatedPin,
    EmulatedSPI,
    EmulatedTCA9548A,
    EmulatedUART,
)
from hardware.nfc.emulator import EmulatedPN532, ModelledClock
from hardware.nfc.reader import Reader
from hardware.nfc.scanner import Scanner
from hardware.nfc.tags import Ntag

DEFAULT_CLOCKS = {"i2c": 100_000, "spi": 1_000_000, "uart": 115_200}


def _table(readers: int, interface: str, clock_hz: int, irq: bool, clock: ModelledClock):
    chips = [EmulatedPN532(name=f"stake-{n}") for n in range(readers)]
    if interface == "i2c":
        bus = EmulatedI2C(frequency=clock_hz, clock=clock)
        if readers == 1:
            bus.attach(chips[0])
            channels = [None]
        else:
            mux = EmulatedTCA9548A(bus)
            for n, chip in enumerate(chips):
                mux.attach(n, chip)
            channels = list(range(readers))
        built = [
            Reader.over_i2c(
                bus, name=chip.name, channel=ch, irq=chip.irq if irq else None, clock=clock
            )
            for ch, chip in zip(channels, chips, strict=True)
        ]
        return chips, [bus], built
    if interface == "spi":
        bus = EmulatedSPI(clock=clock)
        built = []
        for chip in chips:
            cs = EmulatedPin(f"cs-{chip.name}")
            bus.attach(chip, cs)
            irq_line = chip.irq if irq else None
            built.append(
                Reader.over_spi(
                    bus, cs, name=chip.name, baudrate=clock_hz, irq=irq_line, clock=clock
                )
            )
        return chips, [bus], built
    if interface == "uart":
        buses = [EmulatedUART(chip, baudrate=clock_hz, clock=clock) for chip in chips]
        built = [
            Reader.over_uart(u, name=c.name, clock=clock) for u, c in zip(buses, chips, strict=True)
        ]
        return chips, buses, built
    raise ValueError(f"interface must be i2c, spi or uart, not {interface!r}")


def scan_cycle_figures(
    readers: int = 5,
    tag_present: bool = False,
    interface: str = "i2c",
    clock_hz: int | None = None,
    *,
    irq: bool = False,
    cycles: int = 200,
    one_field_at_a_time: bool = True,
) -> dict:
    """Modelled time, bus bytes and transactions per scan cycle, and CPU time per reader poll.

    With `tag_present`, an NTAG with a card id lies on every pad; the cycle that places it
    (and reads its NDEF) is left out, so the figures are the steady state of a pad in play.
    """
    if readers < 1 or cycles < 1:
        raise ValueError("readers and cycles must be at least 1")
    clock_hz = clock_hz or DEFAULT_CLOCKS.get(interface, 0)
    clock = ModelledClock()
    chips, buses, built = _table(readers, interface, clock_hz, irq, clock)
    try:
        if tag_present:
            for n, chip in enumerate(chips):
                chip.place(Ntag(bytes([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, n]), card_id=f"c{n}"))
        scanner = Scanner(built, one_field_at_a_time=one_field_at_a_time, clock=lambda: 0.0)
        warm = scanner.cycle()
        for thing in [*chips, *buses]:
            thing.reset_counters()
        started = clock.monotonic()
        cpu_started = time.process_time()
        for _ in range(cycles):
            scanner.cycle()
        cpu_s = time.process_time() - cpu_started
        host_s = (clock.monotonic() - started) / cycles
        wire_s = sum(bus.modelled_time_s for bus in buses) / cycles
        chip_s = sum(chip.busy_time_s for chip in chips) / cycles
        return {
            "interface": interface,
            "clock_hz": clock_hz,
            "readers": readers,
            "tag_present": tag_present,
            "irq": irq,
            "one_field_at_a_time": one_field_at_a_time,
            "cycles": cycles,
            "placed_events_in_warm_up": sum(e.kind == "placed" for e in warm),
            "bytes_per_cycle": sum(bus.bytes_total for bus in buses) / cycles,
            "transactions_per_cycle": sum(bus.transactions for bus in buses) / cycles,
            "wire_time_ms_per_cycle": round(wire_s * 1000, 3),
            "chip_time_ms_per_cycle": round(chip_s * 1000, 3),
            "modelled_time_ms_per_cycle": round(host_s * 1000, 3),
            "cpu_ms_per_poll": round(cpu_s * 1000 / (cycles * readers), 4),
            "reader_states": sorted({h.state for h in scanner.health().values()}),
        }
    finally:
        for reader in built:
            reader.close()


if __name__ == "__main__":  # a quick look: python -m hardware.nfc.bench
    import json

    for interface in ("i2c", "spi"):
        for count in (1, 5):
            for present in (False, True):
                for with_irq in (False, True):
                    print(json.dumps(scan_cycle_figures(count, present, interface, irq=with_irq)))
