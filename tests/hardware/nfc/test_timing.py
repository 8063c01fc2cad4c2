"""The PN532's time on a modelled clock: busy until its work is done, IRQ, guard, stacked tags.

Everything runs on a `ModelledClock` shared by the buses, the chips and the real driver's
waits, so these assert modelled instants, never the wall clock.
"""

from __future__ import annotations

import pytest

from hardware.nfc.buses import EmulatedI2C, EmulatedPin, EmulatedSPI, EmulatedUART
from hardware.nfc.driver import STATUS_POLL_S
from hardware.nfc.emulator import ChipTiming, EmulatedPN532, ModelledClock, build_frame
from hardware.nfc.reader import Reader, ReaderFault
from hardware.nfc.scanner import Scanner, absence_for
from hardware.nfc.tags import Ntag

TIMING = ChipTiming()
A = "04a1b2c3d4e5f6"
B = "04112233445566"
LIST_TWO = build_frame(bytes([0xD4, 0x4A, 0x02, 0x00]))  # InListPassiveTarget, two targets
RETRY_ONCE = build_frame(bytes([0xD4, 0x32, 0x05, 0xFF, 0x01, 0x01]))  # MaxRetries FF 01 01


def status(i2c: EmulatedI2C) -> int:
    byte = bytearray(1)
    i2c.readfrom_into(0x24, byte)
    return byte[0]


def read(i2c: EmulatedI2C, count: int) -> bytes:
    frame = bytearray(1 + count)
    i2c.readfrom_into(0x24, frame)
    return bytes(frame[1:])


@pytest.fixture
def i2c_chip():
    i2c = EmulatedI2C(clock=ModelledClock())
    return i2c, i2c.attach(EmulatedPN532())


def test_the_chip_is_busy_until_its_modelled_time_has_passed(i2c_chip):
    i2c, chip = i2c_chip
    clock = i2c.clock
    chip.place(Ntag(A))
    i2c.writeto(0x24, RETRY_ONCE)
    clock.sleep(0.01)
    read(i2c, 6), read(i2c, 9)  # ACK and answer of the RF configuration
    i2c.writeto(0x24, LIST_TWO)
    sent = clock.monotonic()
    assert status(i2c) == 0x00  # the ACK takes the chip a moment
    clock.sleep(TIMING.ack_s)
    assert status(i2c) == 0x01 and read(i2c, 6) == bytes([0, 0, 0xFF, 0, 0xFF, 0])
    # the answer: command, the field's guard time (it was off), one tag, one look for a second
    work = TIMING.command_s + TIMING.field_guard_s + TIMING.activation_s + TIMING.empty_attempt_s
    answered = sent + TIMING.ack_s + work
    clock.sleep(answered - clock.monotonic() - 1e-6)
    assert read(i2c, 20) == bytes(20)  # not ready: the status byte says 0 and no frame comes
    assert read(i2c, 20)[5:8] == bytes([0xD5, 0x4B, 0x01])  # TFI, answer code, NbTg=1


def test_the_irq_line_falls_when_a_frame_is_ready_and_rises_once_it_is_read(i2c_chip):
    i2c, chip = i2c_chip
    clock, irq = i2c.clock, chip.irq
    i2c.writeto(0x24, build_frame(bytes([0xD4, 0x02])))  # GetFirmwareVersion
    clock.sleep(0.01)
    assert irq.value is False
    read(i2c, 6)  # the ACK; the answer has long been ready: the line pulses high
    assert irq.history == [False, True, False] and irq.value is False
    read(i2c, 13)
    i2c.writeto(0x24, RETRY_ONCE)
    clock.sleep(0.01)
    read(i2c, 6), read(i2c, 9)
    before = len(irq.history)
    i2c.writeto(0x24, LIST_TWO)  # an empty field: guard time and two attempts
    sent = clock.monotonic()
    clock.sleep(TIMING.ack_s)
    assert irq.value is False
    read(i2c, 6)
    assert irq.value is True  # the chip is still looking for tags
    clock.sleep(0.02)
    assert irq.value is False
    read(i2c, 12)
    assert irq.value is True
    assert irq.history[before:] == [False, True, False, True]
    falls = [at for at, level in irq.changes[before:] if not level]
    # dated when each frame became ready, not when someone looked
    work = TIMING.command_s + TIMING.field_guard_s + 2 * TIMING.empty_attempt_s
    assert falls == pytest.approx([sent + TIMING.ack_s, sent + TIMING.ack_s + work])


def spi_reader(irq: bool, **options):
    spi = EmulatedSPI(clock=ModelledClock())
    cs = EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(), cs)
    line = chip.irq if irq else None
    reader = Reader.over_spi(spi, cs, name="stake-0", irq=line, clock=spi.clock, **options)
    return spi.clock, chip, reader


def test_with_irq_a_poll_costs_the_chips_time_and_without_it_the_10_ms_pauses():
    clock, chip, reader = spi_reader(irq=True)
    started = clock.monotonic()
    assert reader.poll().uids == ()
    reader.field_off()
    with_irq = clock.monotonic() - started
    assert chip.irq.history[-4:] == [False, True, False, True]  # the field-off's two frames
    clock, chip, reader = spi_reader(irq=False)
    started = clock.monotonic()
    assert reader.poll().uids == ()
    reader.field_off()
    polled = clock.monotonic() - started
    work = 2 * (TIMING.ack_s + TIMING.command_s) + TIMING.field_guard_s
    work += 2 * TIMING.empty_attempt_s
    assert work <= with_irq < work + 0.002
    # the ACK is never ready at the first status read: each command sleeps at least once
    assert polled >= 2 * STATUS_POLL_S


def test_the_field_guard_is_paid_whenever_the_field_was_just_switched_on():
    _, chip, reader = spi_reader(irq=True)
    reader.poll()
    chip.reset_counters()
    reader.poll()  # the field stayed on: no guard time
    assert chip.busy_time_s == pytest.approx(
        TIMING.ack_s + TIMING.command_s + 2 * TIMING.empty_attempt_s
    )
    reader.field_off()
    chip.reset_counters()
    reader.poll()  # switched on by the poll itself: the whole guard time
    assert chip.busy_time_s == pytest.approx(
        TIMING.ack_s + TIMING.command_s + TIMING.field_guard_s + 2 * TIMING.empty_attempt_s
    )


def test_a_poll_soon_after_the_host_switched_the_field_on_waits_out_the_rest_of_the_guard(
    i2c_chip,
):
    i2c, chip = i2c_chip
    clock = i2c.clock
    i2c.writeto(0x24, RETRY_ONCE)
    clock.sleep(0.01)
    read(i2c, 6), read(i2c, 9)
    i2c.writeto(0x24, build_frame(bytes([0xD4, 0x32, 0x01, 0x01])))  # RF field on
    field_on = clock.monotonic() + TIMING.ack_s  # a command runs once its ACK is out
    clock.sleep(TIMING.ack_s + TIMING.command_s)
    read(i2c, 6), read(i2c, 9)
    chip.reset_counters()
    i2c.writeto(0x24, LIST_TWO)  # at once
    polled = clock.monotonic() + TIMING.ack_s
    clock.sleep(0.02)
    read(i2c, 6), read(i2c, 12)
    rest = field_on + TIMING.field_guard_s - polled
    assert 0.003 < rest < TIMING.field_guard_s
    expected = TIMING.ack_s + TIMING.command_s + rest + 2 * TIMING.empty_attempt_s
    assert chip.busy_time_s == pytest.approx(expected)


def test_a_timeout_passes_on_the_modelled_clock():
    clock, chip, reader = spi_reader(irq=True, timeout_s=0.05)
    chip.fail("busy")
    started = clock.monotonic()
    with pytest.raises(ReaderFault) as fault:
        reader.poll()
    assert fault.value.kind == "busy"
    assert 0.05 <= clock.monotonic() - started < 0.06


def test_a_uart_host_sees_no_bytes_until_the_answer_is_ready():
    clock = ModelledClock()
    chip = EmulatedPN532()
    uart = EmulatedUART(chip, clock=clock)
    uart.write(build_frame(bytes([0xD4, 0x02])))
    assert uart.in_waiting == 0 and uart.read(6) is None
    clock.sleep(TIMING.ack_s)
    assert uart.read(6) == bytes([0, 0, 0xFF, 0, 0xFF, 0])
    clock.sleep(TIMING.command_s)
    assert uart.in_waiting == 13


def test_wire_time_passes_on_the_clock_stretching_included(i2c_chip):
    i2c, _ = i2c_chip
    i2c.writeto(0x24, build_frame(bytes([0xD4, 0x02])))
    status(i2c)
    bits = 2 * 2 + 9 * (1 + 9 + 1 + 1)  # start/stop twice; address + 9 bytes, address + 1 byte
    stretch = (1 + 9 + 1 + 1) * TIMING.i2c_stretch_s
    assert i2c.clock.monotonic() == pytest.approx(bits / 400_000 + stretch)
    assert i2c.modelled_time_s == pytest.approx(i2c.clock.monotonic())


def test_a_chip_cannot_run_on_two_clocks():
    chip = EmulatedI2C(clock=ModelledClock()).attach(EmulatedPN532(name="stake-0"))
    with pytest.raises(ValueError, match="stake-0 already runs on another bus's clock"):
        EmulatedSPI(clock=ModelledClock()).attach(chip, EmulatedPin("cs"))


def test_stacked_tags_answer_two_one_none_in_turn():
    _, chip, reader = spi_reader(irq=True)
    chip.place(Ntag(A))
    chip.place(Ntag(B))
    counts = []
    for _ in range(6):
        counts.append(len(reader.poll().uids))
        reader.field_off()
    assert counts == [2, 1, 0, 2, 1, 0]
    chip.remove(B)
    assert [len(reader.poll().uids) for _ in range(3)] == [1, 1, 1]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_stacked_tags_give_one_conflict_and_no_placed_until_one_leaves():
    _, chip, reader = spi_reader(irq=True)
    clock, step = Clock(), 0.0625  # steps that add up exactly in binary
    scanner = Scanner([reader], absence_s=6 * step, clock=clock)
    chip.place(Ntag(A))
    chip.place(Ntag(B))
    events = []
    for _ in range(58):  # 3.6 s of 2, 1, 0, 2, 1, 0 ... 2
        events += scanner.cycle()
        clock.now += step
    assert [(e.kind, e.uids) for e in events] == [("conflict", (B, A))]
    chip.remove(B)
    last_listed_both = clock.now - step
    placed_at = None
    while placed_at is None:
        if [e.kind for e in scanner.cycle()] == ["placed"]:
            placed_at = clock.now
        clock.now += step
    assert placed_at == last_listed_both + 6 * step  # not one poll earlier


def test_the_absence_rule_covers_a_stacks_round_and_one_missed_read():
    assert absence_for(0.058) == 0.35  # 4 x (58 + 20 ms) = 312 ms, rounded up to 50 ms
    assert absence_for(0.03) == 0.2
    assert absence_for(0.13) == 0.6
    for cycle in (0.01, 0.058, 0.1, 0.2):
        assert absence_for(cycle) >= 4 * (cycle + 0.02) > absence_for(cycle) - 0.05


def test_the_scanner_says_once_when_its_measured_cycles_are_too_slow_for_absence_s(caplog):
    _, _, reader = spi_reader(irq=True)
    for absence_s in (0.5, 0.35):  # 125 ms from cycle to cycle: 4 x 125 ms = 0.5 s needed
        clock = Clock()
        scanner = Scanner([reader], absence_s=absence_s, clock=clock)
        for _ in range(40):
            scanner.cycle()
            clock.now += 0.125
        assert scanner.period_s == 0.125
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == [
        "scan cycles take 125 ms, so absence_s 0.35 s is too short (stacked tags may be "
        "placed, still tags removed): set absence_s = 0.50 in the profile's [table]"
    ]


def test_a_scanner_stepped_by_hand_watches_no_period(caplog):
    _, _, reader = spi_reader(irq=True)
    clock = Clock()
    scanner = Scanner([reader], absence_s=0.35, clock=clock, watch_period=False)
    for _ in range(40):  # as slow as the warning above, but the cycles are steps, not a period
        scanner.cycle()
        clock.now += 0.125
    assert not [r for r in caplog.records if r.levelname == "WARNING"]


def test_a_uart_reader_on_the_modelled_clock_waits_in_status_poll_pauses():
    clock = ModelledClock()
    chip = EmulatedPN532()
    reader = Reader.over_uart(EmulatedUART(chip, clock=clock), name="main", clock=clock)
    chip.place(Ntag(A, card_id="relic-07"))
    started = clock.monotonic()
    uids = reader.poll().uids
    assert uids == (A,) and reader.read_card_id(A) == "relic-07"
    # no IRQ on a UART: the poll and each page read wait at least one 10 ms pause
    assert clock.monotonic() - started >= 3 * STATUS_POLL_S
