"""The bench's scan-cycle figures: consistent with the emulator's counters and its clock.

The figures are modelled time (deterministic), so they may be asserted; CPU time never is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.nfc.bench import scan_cycle_figures
from hardware.nfc.driver import IRQ_POLL_S, STATUS_POLL_S
from hardware.nfc.emulator import ChipTiming

DOCS = Path(__file__).resolve().parents[3] / "docs/nfc.md"
TIMING = ChipTiming()
# An empty poll: ACK, command, the field's guard time, two activation attempts; then the
# field-off command: ACK and command.
EMPTY_POLL_S = 2 * (TIMING.ack_s + TIMING.command_s) + TIMING.field_guard_s
EMPTY_POLL_S += 2 * TIMING.empty_attempt_s


def test_five_readers_cost_five_times_one_and_the_host_waits_out_the_chip():
    one = scan_cycle_figures(readers=1, tag_present=False, cycles=3, irq=True)
    five = scan_cycle_figures(readers=5, tag_present=False, cycles=3, irq=True)
    assert one["chip_time_ms_per_cycle"] == pytest.approx(EMPTY_POLL_S * 1000)
    assert five["chip_time_ms_per_cycle"] == pytest.approx(5 * EMPTY_POLL_S * 1000)
    # five readers sit behind a multiplexer: its channel selects add bytes
    assert five["bytes_per_cycle"] > 5 * one["bytes_per_cycle"]
    # with IRQ lines the host waits out each chip (which works on while its ACK is read) and
    # sends no status reads: at least the chip's time, at most the wire's plus the chip's plus
    # one IRQ look per wait (ACK and answer of two commands)
    for figures, readers in ((one, 1), (five, 5)):
        chip, wire = figures["chip_time_ms_per_cycle"], figures["wire_time_ms_per_cycle"]
        assert chip <= figures["modelled_time_ms_per_cycle"]
        looks = readers * 4 * IRQ_POLL_S * 1000
        assert figures["modelled_time_ms_per_cycle"] <= wire + chip + looks
        assert figures["reader_states"] == ["ok"]


def test_a_present_tag_is_placed_in_the_warm_up_and_costs_an_activation():
    empty = scan_cycle_figures(readers=2, tag_present=False, cycles=3, interface="spi")
    present = scan_cycle_figures(readers=2, tag_present=True, cycles=3, interface="spi")
    assert present["placed_events_in_warm_up"] == 2
    extra = TIMING.activation_s + TIMING.empty_attempt_s - 2 * TIMING.empty_attempt_s
    assert present["chip_time_ms_per_cycle"] == pytest.approx(
        empty["chip_time_ms_per_cycle"] + 2 * extra * 1000
    )


@pytest.mark.parametrize("hz", [100_000, 400_000])
def test_the_i2c_wire_time_is_the_bits_at_the_clock_plus_the_pn532s_stretching(hz):
    figures = scan_cycle_figures(readers=1, cycles=2, clock_hz=hz)
    transactions, nbytes = figures["transactions_per_cycle"], figures["bytes_per_cycle"]
    wire_s = (2 * transactions + 9 * nbytes) / hz + nbytes * TIMING.i2c_stretch_s
    assert figures["wire_time_ms_per_cycle"] == pytest.approx(wire_s * 1000, abs=0.001)


def test_without_irq_each_command_costs_at_least_one_status_poll_pause():
    polled = scan_cycle_figures(readers=1, cycles=2, interface="spi")
    irq = scan_cycle_figures(readers=1, cycles=2, interface="spi", irq=True)
    # the ACK is not ready at the first status read, so each of the two commands sleeps
    assert polled["modelled_time_ms_per_cycle"] >= 2 * STATUS_POLL_S * 1000
    assert irq["modelled_time_ms_per_cycle"] < STATUS_POLL_S * 1000 + EMPTY_POLL_S * 1000
    assert irq["transactions_per_cycle"] < polled["transactions_per_cycle"]  # no status reads


@pytest.mark.parametrize("present", [False, True])
def test_five_spi_readers_with_irq_lines_scan_within_60_ms(present):
    with_irq = scan_cycle_figures(5, present, "spi", irq=True, cycles=3)
    without = scan_cycle_figures(5, present, "spi", cycles=3)
    assert with_irq["modelled_time_ms_per_cycle"] <= 60.0
    assert without["modelled_time_ms_per_cycle"] >= 100.0  # 10 ms pauses, two a reader or more


def test_one_field_at_a_time_pays_the_guard_time_on_every_poll():
    each = scan_cycle_figures(3, False, "spi", irq=True, cycles=4)
    kept_on = scan_cycle_figures(3, False, "spi", irq=True, cycles=4, one_field_at_a_time=False)
    # with the fields left on there is no field-off command and no guard time after the first
    saved = 3 * (TIMING.field_guard_s + TIMING.ack_s + TIMING.command_s)
    assert kept_on["chip_time_ms_per_cycle"] == pytest.approx(
        each["chip_time_ms_per_cycle"] - saved * 1000
    )


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match=r"^interface must be i2c, spi or uart, not 'can'$"):
        scan_cycle_figures(interface="can")
    for readers, cycles in ((0, 1), (1, 0)):
        with pytest.raises(ValueError, match=r"^readers and cycles must be at least 1$"):
            scan_cycle_figures(readers=readers, cycles=cycles)


def test_one_reader_and_one_cycle_are_enough_to_measure():
    one = scan_cycle_figures(readers=1, cycles=1, interface="spi", irq=True)
    three = scan_cycle_figures(readers=1, cycles=3, interface="spi", irq=True)
    assert (one["readers"], one["cycles"]) == (1, 1)
    assert one["bytes_per_cycle"] == three["bytes_per_cycle"]  # every cycle alike


def documented() -> list[list[str]]:
    """docs/nfc.md's "Figures" table: bus, clock, board, readers, tag, IRQ, bytes,
    transactions, wire ms, chip ms, modelled ms, CPU ms/poll."""
    rows = []
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 12 and cells[0] in ("i2c", "spi", "uart"):
            rows.append(cells)
    return rows


def test_the_docs_give_a_figure_for_every_bus_reader_count_tag_and_irq():
    keys = {(r[0], r[1], r[3], r[4], r[5]) for r in documented()}
    wired = [(bus, hz) for bus in ("i2c",) for hz in ("10000", "100000", "400000")]
    wired.append(("spi", "1000000"))
    yes_no = ("no", "yes")
    expected = {(b, hz, n, t, q) for b, hz in wired for n in "15" for t in yes_no for q in yes_no}
    expected |= {("uart", "115200", n, t, "no") for n in "15" for t in yes_no}  # no IRQ wired
    assert keys == expected


def test_the_bench_measures_the_modelled_figures_the_docs_give():
    """The modelled figures are exact: the docs' rows (taken with 200 cycles) come out the same
    in 3; only CPU time differs from run to run, and it is never compared."""
    for bus, hz, _board, readers, tag, irq, *numbers, _cpu in documented():
        f = scan_cycle_figures(int(readers), tag == "yes", bus, int(hz), irq=irq == "yes", cycles=3)
        echo = (f["interface"], f["clock_hz"], f["readers"], f["tag_present"], f["irq"])
        assert echo == (bus, int(hz), int(readers), tag == "yes", irq == "yes")
        assert (f["cycles"], f["one_field_at_a_time"], f["reader_states"]) == (3, True, ["ok"])
        got = [
            f"{f['bytes_per_cycle']:g}",
            f"{f['transactions_per_cycle']:g}",
            *(f"{f[key]:.2f}" for key in ("wire_time_ms_per_cycle", "chip_time_ms_per_cycle")),
            f"{f['modelled_time_ms_per_cycle']:.2f}",
        ]
        assert got == numbers, (bus, hz, readers, tag, irq)
        assert isinstance(f["cpu_ms_per_poll"], float) and f["cpu_ms_per_poll"] >= 0


def test_by_default_five_readers_on_i2c_at_100_khz_without_irq_or_tags_for_200_cycles():
    f = scan_cycle_figures()
    settings = ("interface", "clock_hz", "readers", "tag_present", "irq", "cycles")
    assert tuple(f[key] for key in settings) == ("i2c", 100_000, 5, False, False, 200)
    assert f["one_field_at_a_time"] is True


@pytest.mark.parametrize(("interface", "hz", "bits"), [("spi", 2_000_000, 8), ("uart", 57_600, 10)])
def test_spi_and_uart_wire_time_is_the_bytes_at_the_clock(interface, hz, bits):
    """SPI 8 bits a byte at the clock the reader is given; a UART 10 (8N1) at its baud rate,
    each reader on a port of its own: two readers send twice the bytes of one."""
    one = scan_cycle_figures(1, False, interface, hz, cycles=2)
    two = scan_cycle_figures(2, False, interface, hz, cycles=2)
    for figures in (one, two):
        wire_ms = figures["bytes_per_cycle"] * bits / hz * 1000
        assert figures["wire_time_ms_per_cycle"] == pytest.approx(wire_ms, abs=0.001)
    assert two["bytes_per_cycle"] == 2 * one["bytes_per_cycle"]
