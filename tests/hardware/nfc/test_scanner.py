"""Presence events, one RF field at a time, and faults with back-off, on the real driver."""

from __future__ import annotations

import itertools
import logging
import threading
import time
from typing import ClassVar

import pytest

from hardware.nfc.buses import EmulatedI2C
from hardware.nfc.emulator import FAULT_MODES, EmulatedPN532
from hardware.nfc.reader import Reader
from hardware.nfc.scanner import Scanner, ScanThread, TagEvent
from hardware.nfc.tags import MifareClassic1K, Ntag

A = "04a1b2c3d4e5f6"
B = "04112233445566"


def kinds(events: list[TagEvent]) -> list[tuple[str, str, str]]:
    return [(e.kind, e.reader, e.uid) for e in events]


@pytest.fixture
def table(make_mux_table, clock):
    _, chips, readers = make_mux_table(2)
    scanner = Scanner(readers, absence_s=0.3, clock=clock)
    yield chips, scanner
    scanner.close()


def run(scanner, clock, cycles: int, step: float = 0.05) -> list[TagEvent]:
    events = []
    for _ in range(cycles):
        events += scanner.cycle()
        clock.advance(step)
    return events


def test_a_tag_is_placed_once_with_its_card_id_and_never_repeats(table, clock):
    chips, scanner = table
    chips[1].place(Ntag(A, card_id="relic-07"))
    first = scanner.cycle()
    assert first == [TagEvent("placed", "stake-1", A, "relic-07")]
    assert run(scanner, clock, 100) == []  # five seconds on the pad


def test_removed_once_after_the_absence_time_and_placed_again_on_return(table, clock):
    chips, scanner = table
    chips[0].place(Ntag(A))
    scanner.cycle()
    chips[0].remove(A)
    clock.advance(0.05)
    assert scanner.cycle() == []
    clock.advance(0.2)
    assert scanner.cycle() == []  # unseen for 0.25 s < 0.3 s
    clock.advance(0.06)
    assert kinds(scanner.cycle()) == [("removed", "stake-0", A)]
    assert run(scanner, clock, 10) == []
    chips[0].place(Ntag(A))
    assert kinds(scanner.cycle()) == [("placed", "stake-0", A)]


def test_flicker_shorter_than_the_absence_time_gives_nothing(table, clock):
    chips, scanner = table
    tag = chips[0].place(Ntag(A))
    scanner.cycle()
    for _ in range(20):  # missed for 0.25 s, seen again, over and over
        chips[0].remove(A)
        assert run(scanner, clock, 5) == []
        chips[0].place(tag)
        assert run(scanner, clock, 1) == []


def test_two_tags_on_one_pad_are_a_conflict_not_a_guess(table, clock):
    chips, scanner = table
    chips[0].place(Ntag(A))
    chips[0].place(Ntag(B))
    events = scanner.cycle()
    assert events == [TagEvent("conflict", "stake-0", f"{B}+{A}", uids=(B, A))]
    assert run(scanner, clock, 10) == []  # reported once
    chips[0].remove(B)
    events = run(scanner, clock, 10)
    assert kinds(events) == [("placed", "stake-0", A)]


def test_a_second_tag_on_an_occupied_pad_is_a_conflict_and_the_first_stays(table, clock):
    chips, scanner = table
    chips[0].place(Ntag(A))
    scanner.cycle()
    chips[0].place(Ntag(B))
    assert kinds(run(scanner, clock, 10)) == [("conflict", "stake-0", f"{B}+{A}")]
    chips[0].remove(B)
    assert run(scanner, clock, 20) == []  # A never left, B was never placed


def test_two_tags_flickering_stay_one_conflict_and_neither_is_placed(table, clock):
    """A second tag missed for a moment does not turn the conflict into a placed first tag."""
    chips, scanner = table
    chips[0].place(Ntag(A))
    b = chips[0].place(Ntag(B))
    assert kinds(scanner.cycle()) == [("conflict", "stake-0", f"{B}+{A}")]
    for _ in range(10):  # B missed for 0.1 s < 0.3 s, then seen again, over and over
        chips[0].remove(B)
        clock.advance(0.05)
        assert run(scanner, clock, 2) == []
        chips[0].place(b)
        assert run(scanner, clock, 1) == []


@pytest.fixture
def quarter(make_mux_table, clock):
    """One pad whose absence time (0.25 s) the clock's steps reach exactly."""
    _, chips, readers = make_mux_table(1)
    scanner = Scanner(readers, absence_s=0.25, clock=clock)
    yield chips[0], scanner
    scanner.close()


def test_a_tag_unseen_for_exactly_the_absence_time_is_removed(quarter, clock):
    chip, scanner = quarter
    chip.place(Ntag(A))
    scanner.cycle()
    clock.advance(0.125)
    assert scanner.cycle() == []  # still there
    chip.remove(A)
    clock.advance(0.125)
    assert scanner.cycle() == []  # 0.25 s since placed, but seen until 0.125 s ago
    clock.advance(0.125)
    assert kinds(scanner.cycle()) == [("removed", "stake-0", A)]  # exactly 0.25 s unseen


def test_a_conflict_ends_exactly_the_absence_time_after_its_last_sight(quarter, clock):
    chip, scanner = quarter
    chip.place(Ntag(A))
    chip.place(Ntag(B))
    scanner.cycle()
    chip.remove(B)
    clock.advance(0.125)
    assert scanner.cycle() == []  # still the conflict: A is not placed
    clock.advance(0.125)
    assert kinds(scanner.cycle()) == [("placed", "stake-0", A)]  # exactly 0.25 s since


def test_a_mifare_classic_or_a_malformed_tag_is_placed_without_a_card_id(table, clock):
    chips, scanner = table
    chips[0].place(MifareClassic1K("deadbeef"))
    broken = Ntag(A, card_id="relic-07")
    broken.write_user_bytes(bytes([0x03, 0x05, 0xD1, 0x01, 0x09]))
    chips[1].place(broken)
    events = scanner.cycle()
    assert [(e.kind, e.uid, e.card_id) for e in events] == [
        ("placed", "deadbeef", None),
        ("placed", A, None),
    ]
    assert "card ids live on NTAG tags only" in events[0].detail
    assert "says 9 payload bytes" in events[1].detail


class Watched(EmulatedPN532):
    """A chip that notes which other fields radiate whenever it starts a poll."""

    table: ClassVar[list[EmulatedPN532]] = []
    fields_during_polls: ClassVar[list[list[bool]]] = []

    def _in_list_passive_target(self, params):
        others = [chip.rf_field for chip in self.table if chip is not self]
        self.fields_during_polls.append(others)
        return super()._in_list_passive_target(params)


@pytest.mark.parametrize("one_field", [True, False])
def test_one_rf_field_at_a_time(clock, one_field):
    i2c = EmulatedI2C()
    chips = [i2c.attach(Watched(name=f"p{n}"), 0x24 + n) for n in range(3)]
    Watched.table, Watched.fields_during_polls = chips, []
    readers = [Reader.over_i2c(i2c, 0x24 + n, name=f"p{n}") for n in range(3)]
    chips[1].place(Ntag(A, card_id="relic-07"))
    scanner = Scanner(readers, one_field_at_a_time=one_field, clock=clock)
    assert kinds(run(scanner, clock, 3)) == [("placed", "p1", A)]
    later_polls = Watched.fields_during_polls[3:]
    assert len(later_polls) == 6
    assert all(not any(others) for others in later_polls) == one_field
    assert [chip.rf_field for chip in chips] == [not one_field] * 3


@pytest.mark.parametrize("mode", FAULT_MODES)
def test_a_faulty_reader_backs_off_and_returns_while_the_other_keeps_going(
    make_mux_table, clock, mode
):
    _, chips, readers = make_mux_table(2)
    scanner = Scanner(readers, clock=clock, fault_after=2, backoff_s=0.1, max_backoff_s=0.4)
    chips[0].place(Ntag(A, card_id="agent"))
    assert kinds(scanner.cycle()) == [("placed", "stake-0", A)]
    chips[0].fail(mode)
    clock.advance(0.01)
    assert scanner.cycle() == []  # one failure is only counted
    clock.advance(0.01)
    events = scanner.cycle()
    assert [(e.kind, e.reader) for e in events] == [("reader_fault", "stake-0")]
    health = scanner.health()["stake-0"]
    assert health.state in ("failing", "unplugged")
    assert health.error_count == 2 and health.retry_in_s == pytest.approx(0.1)
    assert scanner.health()["stake-1"].state == "ok"

    # Re-inits come after 0.1, 0.2, 0.4, 0.4 s; the other pad is served all the while.
    attempts = []
    chips[1].place(Ntag(B, card_id="relic"))
    seen = []
    for _ in range(130):
        clock.advance(0.01)
        seen += scanner.cycle()
        attempts.append(readers[0].health.reinits)
    assert kinds(seen) == [("placed", "stake-1", B)]
    steps = [n for n in range(1, len(attempts)) if attempts[n] != attempts[n - 1]]
    assert [round(b - a, 2) for a, b in itertools.pairwise(steps)] == [20, 40, 40]

    chips[0].recover()
    seen = []
    for _ in range(50):
        clock.advance(0.01)
        seen += scanner.cycle()
    assert [(e.kind, e.reader) for e in seen] == [("reader_back", "stake-0")]
    assert seen[0].detail == "PN532 v1.6"  # tag A is still there: no placed, no removed
    assert scanner.health()["stake-0"].state == "ok"
    assert scanner.health()["stake-0"].retry_in_s is None
    chips[0].remove(A)
    assert kinds(run(scanner, clock, 10)) == [("removed", "stake-0", A)]


def test_tags_are_not_removed_while_their_reader_is_down(make_mux_table, clock):
    _, chips, readers = make_mux_table(1)
    scanner = Scanner(readers, clock=clock, backoff_s=0.1, max_backoff_s=0.2)
    chips[0].place(Ntag(A))
    scanner.cycle()
    chips[0].fail("unplugged")
    events = run(scanner, clock, 40)  # two seconds down
    assert kinds(events) == [("reader_fault", "stake-0", "")]
    chips[0].recover()
    events = run(scanner, clock, 10)
    assert kinds(events) == [("reader_back", "stake-0", "")]


def test_a_reader_missing_at_start_is_reported_and_joins_later(clock):
    i2c = EmulatedI2C()
    present = i2c.attach(EmulatedPN532(), 0x24)
    readers = [Reader.over_i2c(i2c, 0x24, name="a"), Reader.over_i2c(i2c, 0x25, name="b")]
    scanner = Scanner(readers, clock=clock)
    present.place(Ntag(A))
    events = scanner.cycle()
    assert kinds(events) == [("reader_fault", "b", ""), ("placed", "a", A)]
    assert "No I2C device at address: 0x25" in events[0].detail
    i2c.attach(EmulatedPN532(), 0x25)
    events = run(scanner, clock, 10)
    assert kinds(events) == [("reader_back", "b", "")]


def test_reader_names_must_be_unique(make_mux_table):
    _, _, readers = make_mux_table(1)
    with pytest.raises(ValueError, match="unique"):
        Scanner(readers * 2)


def test_the_scan_thread_delivers_events_survives_a_bad_handler_and_stops(make_mux_table, caplog):
    _, chips, readers = make_mux_table(2)
    scanner = Scanner(readers, absence_s=0.05)
    got: list[TagEvent] = []
    arrived = threading.Event()

    def on_event(event: TagEvent) -> None:
        if event.reader == "stake-0":
            raise RuntimeError("a handler bug")
        got.append(event)
        arrived.set()

    caplog.set_level(logging.ERROR)
    with ScanThread(scanner, on_event, interval_s=0.001) as thread:
        chips[0].place(Ntag(A))
        chips[1].place(Ntag(B, card_id="seer"))
        assert arrived.wait(5)
        assert thread.running
    assert not thread.running
    assert got == [TagEvent("placed", "stake-1", B, "seer")]
    assert "handling TagEvent(kind='placed', reader='stake-0'" in caplog.text
    assert thread.stop() is True  # stopping twice is harmless


def test_stop_is_bounded_by_the_current_cycle(make_mux_table):
    _, chips, readers = make_mux_table(3, timeout_s=0.05)
    for chip in chips:
        chip.fail("no_answer")  # every command waits out its timeout
    thread = ScanThread(Scanner(readers, backoff_s=10, max_backoff_s=10), lambda e: None)
    thread.start()
    time.sleep(0.05)
    assert thread.stop(timeout=2.0) is True  # each command is bounded by its 0.05 s timeout


@pytest.mark.parametrize(
    "settings",
    [
        {"absence_s": -0.01},
        {"fault_after": 0},
        {"backoff_s": 0},
        {"backoff_s": 0.5, "max_backoff_s": 0.4},
    ],
)
def test_settings_out_of_range_are_refused_with_the_rule(make_mux_table, settings):
    _, _, readers = make_mux_table(1)
    rule = "absence_s >= 0, fault_after >= 1, 0 < backoff_s <= max_backoff_s"
    with pytest.raises(ValueError) as refused:
        Scanner(readers, **settings)
    assert str(refused.value) == rule


def test_settings_at_their_limits_are_accepted(make_mux_table):
    _, _, readers = make_mux_table(1)
    Scanner(readers, absence_s=0, fault_after=1, backoff_s=0.4, max_backoff_s=0.4).close()


def test_by_default_one_field_a_fault_after_two_failures_and_back_off_up_to_5_s(
    make_mux_table, clock
):
    _, chips, readers = make_mux_table(1)
    scanner = Scanner(readers, clock=clock)
    scanner.cycle()
    assert not chips[0].rf_field  # switched off after its poll
    chips[0].fail("unplugged")
    assert scanner.cycle() == []
    (fault,) = scanner.cycle()
    assert fault.kind == "reader_fault"
    assert fault.detail == (
        "reader stake-0: command 0x4A failed: [Errno 121] no device answers at 0x24"
    )
    waits = set()
    for _ in range(200):  # 0.1, 0.2, ... 3.2, then 5 s between re-inits
        clock.advance(0.1)
        scanner.cycle()
        waits.add(round(scanner.health()["stake-0"].retry_in_s, 1))
    assert max(waits) == 5.0


def test_a_reader_is_reinitialised_exactly_when_its_back_off_ends(make_mux_table, clock):
    _, chips, readers = make_mux_table(1)
    scanner = Scanner(readers, clock=clock, fault_after=1, backoff_s=0.5, max_backoff_s=0.5)
    chips[0].fail("unplugged")
    assert kinds(scanner.cycle()) == [("reader_fault", "stake-0", "")]
    chips[0].recover()
    clock.advance(0.25)
    assert scanner.cycle() == []  # still backing off
    clock.advance(0.25)
    assert kinds(scanner.cycle()) == [("reader_back", "stake-0", "")]


def test_a_tag_on_a_reader_that_comes_back_is_kept_then_removed_as_usual(make_mux_table, clock):
    _, chips, readers = make_mux_table(1)
    scanner = Scanner(readers, clock=clock, backoff_s=0.1, max_backoff_s=0.2)
    chips[0].place(Ntag(A))
    scanner.cycle()
    chips[0].fail("unplugged")
    run(scanner, clock, 40)
    chips[0].recover()
    assert kinds(run(scanner, clock, 10)) == [("reader_back", "stake-0", "")]
    assert run(scanner, clock, 10) == []  # A is still on the pad
    chips[0].remove(A)
    assert kinds(run(scanner, clock, 10)) == [("removed", "stake-0", A)]


class Counting(Scanner):
    """A scanner that counts its cycles; its first cycle fails as a bug would."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.calls = 0

    def cycle(self) -> list[TagEvent]:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("a scanner bug")
        return super().cycle()


def test_the_scan_thread_survives_a_failing_cycle_and_counts_its_cycles(make_mux_table):
    _, chips, readers = make_mux_table(1)
    scanner = Counting(readers)
    got: list[TagEvent] = []
    arrived = threading.Event()

    def on_event(event: TagEvent) -> None:
        got.append(event)
        arrived.set()

    thread = ScanThread(scanner, on_event, interval_s=0.001)
    assert thread.cycles == 0
    with thread:
        chips[0].place(Ntag(A))
        assert arrived.wait(5)
    assert kinds(got) == [("placed", "stake-0", A)]
    assert thread.cycles == scanner.calls  # the failed cycle counts too


def test_the_scan_thread_is_a_named_daemon(make_mux_table):
    """Named for the logs and `top -H`; a daemon, so a stuck bus never blocks the exit."""
    _, _, readers = make_mux_table(1)
    with ScanThread(Scanner(readers), lambda event: None):
        (thread,) = [t for t in threading.enumerate() if t.name == "nfc-scan"]
        assert thread.daemon


def test_a_tag_taken_away_while_its_reader_is_down_is_removed_after_it_is_back(
    make_mux_table, clock
):
    """Unknown is not absent: the absence time starts when the reader answers again."""
    _, chips, readers = make_mux_table(1)
    scanner = Scanner(readers, absence_s=0.25, clock=clock, backoff_s=0.125, max_backoff_s=0.125)
    chips[0].place(Ntag(A))
    scanner.cycle()
    chips[0].fail("unplugged")
    run(scanner, clock, 20, step=0.125)
    chips[0].remove(A)
    chips[0].recover()
    back = run(scanner, clock, 2, step=0.125)
    assert kinds(back) == [("reader_back", "stake-0", "")]
    assert kinds(run(scanner, clock, 2, step=0.125)) == [("removed", "stake-0", A)]


class StuckField(EmulatedPN532):
    """A chip that, once `stuck`, never answers the command switching its field off."""

    stuck = False

    def _rf_configuration(self, params):
        if self.stuck and bytes(params[:2]) == bytes([0x01, 0x00]):
            return None, 0.0
        return super()._rf_configuration(params)


def test_a_tag_read_just_before_the_reader_fails_is_still_placed(clock):
    i2c = EmulatedI2C()
    chip = i2c.attach(StuckField(name="stake-0"))
    scanner = Scanner([Reader.over_i2c(i2c, name="stake-0", timeout_s=0.02)], clock=clock)
    chip.place(Ntag(A))
    chip.stuck = True  # the poll reads A, then switching the field off times out
    assert kinds(scanner.cycle()) == [("placed", "stake-0", A)]
    assert scanner.health()["stake-0"].consecutive_failures == 1


class Stalled(Scanner):
    """A scanner whose cycle waits until `go` is set (a bus hanging mid-transfer)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.go, self.inside = threading.Event(), threading.Event()

    def cycle(self) -> list[TagEvent]:
        self.inside.set()
        self.go.wait(10)
        return []


def test_stop_gives_up_after_its_timeout_and_says_so(make_mux_table):
    _, _, readers = make_mux_table(1)
    scanner = Stalled(readers)
    thread = ScanThread(scanner, lambda event: None).start()
    assert scanner.inside.wait(5)
    assert thread.stop(timeout=0.05) is False  # still inside the hanging cycle
    scanner.go.set()
    assert thread.stop() is True


def test_a_job_between_polls_writes_a_tag_and_no_poll_shares_the_bus_meanwhile(table, clock):
    chips, scanner = table
    chips[0].place(Ntag(A))
    assert [(e.kind, e.card_id) for e in run(scanner, clock, 2)] == [("placed", None)]
    name = scanner.readers[0].name
    cycled = threading.Event()

    def write(reader: Reader) -> str:
        other = threading.Thread(target=lambda: (scanner.cycle(), cycled.set()), daemon=True)
        other.start()
        other.join(timeout=0.2)
        waited = not cycled.is_set()  # the cycle waits for the job: never at once on the bus
        reader.poll()  # select the tag again (a poll since may have switched the field off)
        reader.write_card_id(A, "relic-07")
        return "waited" if waited else "cycled meanwhile"

    assert scanner.between_polls(name, write) == "waited"
    assert cycled.wait(timeout=10)
    tag = chips[0].remove(A)
    run(scanner, clock, 10)
    chips[0].place(tag)  # the same tag, back on the pad: it now carries its card id
    assert [(e.kind, e.card_id) for e in run(scanner, clock, 2)] == [("placed", "relic-07")]
    with pytest.raises(KeyError, match=r"^'no-such-pad'$"):
        scanner.between_polls("no-such-pad", lambda reader: None)


def test_a_reader_fault_event_carries_the_fault_kind(make_mux_table, clock):
    i2c = EmulatedI2C()
    i2c.attach(EmulatedPN532(), 0x24)
    absent = Reader.over_i2c(i2c, 0x25, name="b")
    scanner = Scanner([absent], clock=clock)
    (event,) = scanner.cycle()
    assert (event.kind, event.fault) == ("reader_fault", "unplugged")
    assert event.detail.startswith("reader b: cannot start the PN532: ")
    _, chips, readers = make_mux_table(1)
    scanner = Scanner(readers, clock=clock, fault_after=1)
    chips[0].fail("io_error")
    (event,) = scanner.cycle()
    assert (event.kind, event.reader, event.fault) == ("reader_fault", "stake-0", "io")
    assert "I/O error talking to stake-0" in event.detail
