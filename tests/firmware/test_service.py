"""firmware.service against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import uuid
from pathlib import Path

import pytest

from firmware.service import (
    Notifier,
    Service,
    StopRequest,
    Watchdog,
    bounded_shutdown,
    watchdog_interval,
)

ROOT = Path(__file__).resolve().parents[2]
# Guards against a hang only; nothing here measures time.
HANG_GUARD_S = 20.0


@pytest.fixture
def systemd_socket(tmp_path):
    """A datagram socket like systemd's notify socket; yields (NOTIFY_SOCKET value, socket)."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(HANG_GUARD_S)
    yield str(path), sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode("utf-8").split("\n")


def test_ready_status_watchdog_and_stopping_reach_the_socket(systemd_socket):
    address, sock = systemd_socket
    with Notifier(address) as notifier:
        assert notifier.enabled
        assert notifier.ready("Arcana: round 1")
        assert received(sock) == ["READY=1", "STATUS=Arcana: round 1"]
        assert notifier.status("Res Arcana: 2 players")
        assert received(sock) == ["STATUS=Res Arcana: 2 players"]
        assert notifier.watchdog()
        assert received(sock) == ["WATCHDOG=1"]
        assert notifier.stopping()
        assert received(sock) == ["STOPPING=1"]


def test_a_status_line_cannot_smuggle_in_another_field(systemd_socket):
    address, sock = systemd_socket
    with Notifier(address) as notifier:
        notifier.status("round 2\nREADY=1")
        assert received(sock) == ["STATUS=round 2 READY=1"]


def test_abstract_namespace_socket_is_reached():
    name = f"arcana-table-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(HANG_GUARD_S)
    try:
        with Notifier.from_environment({"NOTIFY_SOCKET": "@" + name}) as notifier:
            assert notifier.ready()
            assert received(sock) == ["READY=1"]
    finally:
        sock.close()


def test_without_notify_socket_every_call_is_a_silent_no_op(capsys, caplog):
    notifier = Notifier.from_environment({})
    assert not notifier.enabled
    assert notifier.ready("x") is False
    assert notifier.status("x") is False
    assert notifier.watchdog() is False
    assert notifier.stopping() is False
    service = Service.from_environment({})
    assert service.ready("Arcana") is False
    assert service.tick() is False
    assert capsys.readouterr() == ("", "")
    assert caplog.records == []


def test_a_vanished_socket_is_reported_once_and_never_raises(tmp_path, caplog):
    with Notifier(str(tmp_path / "gone")) as notifier:
        assert notifier.ready() is False
        assert notifier.watchdog() is False
    warnings = [r for r in caplog.records if "cannot notify systemd" in r.getMessage()]
    assert len(warnings) == 1


def test_an_address_that_is_neither_path_nor_abstract_turns_notifications_off():
    notifier = Notifier("vsock-ish:3:1234")
    assert not notifier.enabled
    assert "neither a path nor an @abstract name" in notifier.note
    assert notifier.ready() is False


@pytest.mark.parametrize(
    ("environ", "interval"),
    [
        ({"WATCHDOG_USEC": "10000000"}, 10.0),
        ({"WATCHDOG_USEC": "500000", "WATCHDOG_PID": "4242"}, 0.5),
        ({"WATCHDOG_USEC": "3000000", "WATCHDOG_PID": ""}, 3.0),
    ],
)
def test_watchdog_interval_comes_from_watchdog_usec(environ, interval):
    assert watchdog_interval(environ, pid=4242) == (interval, "")


@pytest.mark.parametrize(
    ("environ", "why"),
    [
        ({}, ""),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}, "is not this process (4242)"),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "me"}, "is not a process id"),
        ({"WATCHDOG_USEC": "0"}, "not a positive number of microseconds"),
        ({"WATCHDOG_USEC": "-5"}, "not a positive number of microseconds"),
        ({"WATCHDOG_USEC": "ten"}, "not a positive number of microseconds"),
    ],
)
def test_watchdog_is_off_without_a_valid_interval_for_this_process(environ, why):
    interval, note = watchdog_interval(environ, pid=4242)
    assert interval is None
    assert why in note


def test_watchdog_pings_at_half_the_interval(systemd_socket):
    address, sock = systemd_socket
    now = [100.0]
    with Notifier(address) as notifier:
        watchdog = Watchdog.from_environment(
            notifier, {"WATCHDOG_USEC": "10000000"}, pid=1, clock=lambda: now[0]
        )
        assert watchdog.enabled and watchdog.ping_every == 5.0
        assert watchdog.tick() is True  # the first turn pings at once
        assert received(sock) == ["WATCHDOG=1"]
        now[0] = 104.9
        assert watchdog.tick() is False
        assert watchdog.seconds_until_due() == pytest.approx(0.1)
        now[0] = 105.0
        assert watchdog.tick() is True
        assert received(sock) == ["WATCHDOG=1"]
        assert watchdog.seconds_until_due() == pytest.approx(5.0)


def test_the_loop_never_blocks_past_a_due_ping():
    now = [0.0]
    notifier = Notifier(None)
    service = Service(notifier, Watchdog(notifier, 2.0, clock=lambda: now[0]))
    service.tick()
    now[0] = 0.7
    assert service.wait_timeout(5.0) == pytest.approx(0.3)
    assert service.wait_timeout(0.1) == pytest.approx(0.1)
    assert Service().wait_timeout(5.0) == 5.0  # no watchdog: the loop's own choice


def test_a_watchdog_pid_for_another_process_is_never_pinged(systemd_socket):
    address, sock = systemd_socket
    with Notifier(address) as notifier:
        env = {"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid() + 1)}
        watchdog = Watchdog.from_environment(notifier, env)
        assert not watchdog.enabled
        assert watchdog.tick() is False
        assert watchdog.seconds_until_due() is None
        sock.settimeout(0.05)
        with pytest.raises(TimeoutError):
            sock.recv(4096)


def test_stop_request_runs_callbacks_once_and_remembers_the_signal():
    woken = []
    stop = StopRequest()
    stop.on_request(lambda: woken.append("wake"))
    stop.request(signal.SIGTERM)
    stop.request(signal.SIGINT)
    assert stop.requested and stop.wait(0)
    assert stop.signal == signal.SIGTERM
    assert woken == ["wake"]


def test_a_failing_stop_callback_does_not_keep_the_others_from_running(caplog):
    woken = []
    stop = StopRequest()
    stop.on_request(lambda: 1 / 0)
    stop.on_request(lambda: woken.append("wake"))
    stop.request(signal.SIGTERM)
    assert stop.requested
    assert woken == ["wake"]
    assert "stop callback" in caplog.text


def test_stop_request_restores_the_previous_handlers():
    before = signal.getsignal(signal.SIGTERM)
    with StopRequest() as stop:
        assert signal.getsignal(signal.SIGTERM) == stop._handle
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.wait(HANG_GUARD_S)
    assert signal.getsignal(signal.SIGTERM) == before


def test_bounded_shutdown_runs_every_step_even_after_one_fails():
    order = []

    def broken_display():
        order.append("screens")
        raise OSError("display gone")

    report = bounded_shutdown(
        [("screens", broken_display), ("journal", lambda: order.append("journal"))]
    )
    assert order == ["screens", "journal"]
    assert report.done == ["journal"]
    assert report.failed == {"screens": "OSError: display gone"}
    assert not report.clean


def test_bounded_shutdown_leaves_a_hung_step_behind_and_skips_the_rest():
    release = threading.Event()
    ran = []
    try:
        report = bounded_shutdown(
            [
                ("journal", lambda: ran.append("journal")),
                ("screens", release.wait),  # an I2C write that never returns
                ("buzzer", lambda: ran.append("buzzer")),
            ],
            budget=0.2,
        )
    finally:
        release.set()
    assert report.done == ["journal"]
    assert report.unfinished == ["screens"]
    assert report.skipped == ["buzzer"]
    assert ran == ["journal"]


def test_a_spent_budget_skips_the_remaining_steps():
    ticks = iter([0.0, 0.5, 2.0])
    report = bounded_shutdown(
        [("journal", lambda: None), ("screens", lambda: None), ("buzzer", lambda: None)],
        budget=1.0,
        clock=lambda: next(ticks),
    )
    assert report.done == ["journal"]
    assert report.skipped == ["screens", "buzzer"]


TINY_LOOP = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from firmware.service import Service

    saved = Path(sys.argv[1])
    service = Service.from_environment()
    with service.stop:
        service.ready("tiny loop")
        while not service.stop.requested:
            service.stop.wait(service.wait_timeout(0.5))
            service.tick()
        report = service.shutdown([("journal", lambda: saved.write_text("saved"))])
    sys.exit(0 if report.clean else 1)
    """
)


def test_sigterm_stops_a_loop_built_on_the_service_cleanly(systemd_socket, tmp_path):
    address, sock = systemd_socket
    saved = tmp_path / "saved"
    env = dict(os.environ, NOTIFY_SOCKET=address, WATCHDOG_USEC="200000")
    env.pop("WATCHDOG_PID", None)
    with subprocess.Popen(
        [sys.executable, "-c", TINY_LOOP, str(saved)],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    ) as loop:
        try:
            assert received(sock) == ["READY=1", "STATUS=tiny loop"]
            # It is looping: the watchdog pings keep coming.
            assert received(sock) == ["WATCHDOG=1"]
            assert received(sock) == ["WATCHDOG=1"]
            loop.send_signal(signal.SIGTERM)
            _, errors = loop.communicate(timeout=HANG_GUARD_S)
        finally:
            if loop.poll() is None:
                loop.kill()
                loop.communicate()
    assert loop.returncode == 0, errors
    messages = []
    sock.settimeout(1.0)
    while "STATUS=saved" not in messages:
        messages.extend(received(sock))
    assert "STOPPING=1" in messages
    assert messages.index("STOPPING=1") < messages.index("STATUS=saved")
    assert saved.read_text() == "saved"
