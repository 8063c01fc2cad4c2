"""`arcana-table run` with `[web] enabled = true` on a listening socket handed over as
systemd does ($LISTEN_FDS, $LISTEN_PID: `systemd-socket-activate`, from Debian's systemd
package), the service in a network namespace of its own as the unit's PrivateNetwork=yes
puts it; and the sentence when it can listen on nothing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from service import messages_until
from web_run import free_port, pair_url, web_profile

ROOT = Path(__file__).resolve().parents[3]


def tool(name: str, package: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is needed for this test: apt install {package}"
    return found


def run_command(profile: Path, state: Path) -> list[str]:
    return [
        sys.executable, "-m", "firmware", "run", "--emulated",
        "--profile", str(profile), "--state-dir", str(state),
    ]  # fmt: skip


def notify_socket(tmp_path: Path) -> tuple[str, socket.socket]:
    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(60)
    return address, listener


def test_run_serves_on_the_handed_socket_from_a_private_network(tmp_path) -> None:
    port = free_port()
    profile, state = web_profile(tmp_path, port), tmp_path / "state"
    address, listener = notify_socket(tmp_path)
    activate = tool("systemd-socket-activate", "systemd")
    unshare = tool("unshare", "util-linux")
    # systemd-socket-activate listens in this (the host's) network and execs the service
    # on the first connection; unshare execs too, so LISTEN_PID stays the service's pid.
    # It drops $NOTIFY_SOCKET unless told to pass it (-E).
    process = subprocess.Popen(
        [activate, f"--listen=127.0.0.1:{port}", "-E", "NOTIFY_SOCKET",
         unshare, "--map-root-user", "--net", *run_command(profile, state)],
        env=dict(os.environ, NOTIFY_SOCKET=address, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    try:
        assert process.stderr is not None
        said = process.stderr.readline()  # "Listening on 127.0.0.1:PORT as 3."
        assert said.startswith("Listening on"), said
        # The first request starts the service; it is answered once the web app serves.
        try:
            urllib.request.urlopen(url + "api/state", timeout=60)
            raise AssertionError("an unpaired request was answered")
        except urllib.error.HTTPError as err:
            assert err.code == 401
            assert "error" in json.load(err)
        messages_until(listener, "READY=1")
        opened = pair_url(profile, state)
        assert opened.startswith(f"{url}pair/")
        with urllib.request.urlopen(opened, timeout=60) as page:
            assert page.status == 200
            assert page.headers.get_content_type() == "text/html"
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
        listener.close()
    assert process.returncode == 0, err
    assert f"web app on systemd's socket, port {port}" in err


def test_a_listen_pid_of_another_process_is_ignored_and_the_port_bound(tmp_path) -> None:
    port = free_port()
    profile, state = web_profile(tmp_path, port), tmp_path / "state"
    address, listener = notify_socket(tmp_path)
    process = subprocess.Popen(
        run_command(profile, state),
        env=dict(os.environ, NOTIFY_SOCKET=address, LISTEN_PID="1", LISTEN_FDS="1"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        messages_until(listener, "READY=1")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=60)
            raise AssertionError("an unpaired request was answered")
        except urllib.error.HTTPError as err:
            assert err.code == 401
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
        listener.close()
    assert process.returncode == 0, err
    assert "LISTEN_PID=1 is not this process" in err
    assert f"web app on its own socket, port {port}" in err


def test_a_port_it_cannot_listen_on_is_one_sentence_and_exit_2(tmp_path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        profile, state = web_profile(tmp_path, port), tmp_path / "state"
        done = subprocess.run(
            run_command(profile, state), capture_output=True, text=True, timeout=120
        )
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"arcana-table run: the web app cannot listen on port {port}")
    assert "arcana-table-web.socket" in last
